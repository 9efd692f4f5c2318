/** Schemas every route shares: the problem document and its standard responses. */
import { z } from "@hono/zod-openapi";
import { PROBLEM_CONTENT_TYPE } from "../../http/problem.ts";

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string(),
    errors: z
      .array(
        z.object({
          location: z.enum(["query", "path", "header", "body"]),
          field: z.string(),
          message: z.string(),
        }),
      )
      .optional(),
  })
  .catchall(z.unknown())
  .openapi("Problem");

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid parameter, header, JSON or unknown field",
  401: "Authentication required",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict or ineligible state",
  410: "Expired",
  429: "Temporary safety limit exceeded; resumes after Retry-After seconds",
  500: "Internal error",
  503: "A dependency is unavailable",
};

/** The OpenAPI responses entry for each listed problem status. */
export function problemResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: PROBLEM_DESCRIPTIONS[status] ?? "Error",
        content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
      },
    ]),
  ) as Record<S, { description: string; content: { [PROBLEM_CONTENT_TYPE]: { schema: typeof ProblemSchema } } }>;
}
