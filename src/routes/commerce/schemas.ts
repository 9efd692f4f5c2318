/** Schemas the commerce routes share, and the optional priority key of the limited endpoints. */
import { z } from "@hono/zod-openapi";

/**
 * Public, or with a priority key (`Authorization: Bearer <key>`): the endpoints a key raises the
 * ceilings of (search, live verification, /check).
 */
export const OPTIONAL_PRIORITY_KEY: Record<string, string[]>[] = [{}, { priorityKey: [] }];

export const PriorityLimitsSchema = z
  .object({
    search_per_hour: z.number().int(),
    verify_per_hour: z.number().int(),
    check_per_hour: z.number().int(),
    monthly_calls: z.number().int(),
  })
  .openapi("PriorityLimits");
