/** Schemas every route shares: the problem document and its standard responses. */
import { z } from "@hono/zod-openapi";
import { MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_REQUEST_TARGET_BYTES } from "../../http/middleware/request-size.ts";
import { MAX_LISTED_FIELD_ERRORS, PROBLEM_CONTENT_TYPE } from "../../http/problem.ts";

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
      .optional()
      .openapi({ description: `At most ${MAX_LISTED_FIELD_ERRORS} entries, in the order found` }),
    errors_omitted: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: "How many more field errors there were than `errors` lists" }),
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
  413: `Request body larger than ${MAX_BODY_BYTES} bytes, refused before it is read`,
  414: `Path and query longer than ${MAX_REQUEST_TARGET_BYTES} bytes`,
  429: "Temporary safety limit exceeded; resumes after Retry-After seconds",
  431: `Request header fields larger than ${MAX_HEADER_BYTES} bytes in total`,
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
