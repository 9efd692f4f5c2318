/** Schemas the commerce routes share, and the optional priority key of the limited endpoints. */
import { z } from "@hono/zod-openapi";

/**
 * Public, or with a priority key (`Authorization: Bearer <key>`): the endpoints a key raises the
 * ceilings of (search, live verification, /check).
 */
export const OPTIONAL_PRIORITY_KEY: Record<string, string[]>[] = [{}, { priorityKey: [] }];

export const PriorityLimitsSchema = z
  .object({
    searchPerHour: z.number().int(),
    verifyPerHour: z.number().int(),
    checkPerHour: z.number().int(),
    monthlyCalls: z.number().int(),
  })
  .openapi("PriorityLimits");
