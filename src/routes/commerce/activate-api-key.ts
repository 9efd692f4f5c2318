import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { paymentsUnavailable } from "../../domain/commerce/checkout.ts";
import { activatePriorityKey, CHECKOUT_SESSION_ID_FORM } from "../../domain/commerce/priority-keys.ts";
import { DomainError } from "../../domain/errors.ts";
import type { AppEnv } from "../../http/context.ts";
import { domainErrorProblem } from "../../http/domain-error-table.ts";
import { headOnlyReply, isHeadRequest } from "../../http/head-request.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { pageSecurityHeaders } from "../../web/page-headers.ts";
import { renderPriorityKeyPage } from "../../web/pages/priority-key.tsx";
import { problemResponses } from "../shared/schemas.ts";
import { PriorityLimitsSchema } from "./schemas.ts";

/** Activation attempts per client; each one asks Stripe's API. */
export const ACTIVATION_LIMIT = { name: "api-key-activate", limit: 60, window: "1 h" } as const;

export const ActivationQuerySchema = z.strictObject({
  session_id: z
    .string()
    .regex(CHECKOUT_SESSION_ID_FORM, { error: "must be a Stripe Checkout Session id (cs_…)" })
    .openapi({ description: "The paid Checkout Session's id (Stripe puts it in the return URL)" }),
});

export const ActivationSchema = z
  .object({
    activated: z.literal(true),
    api_key_returned: z.boolean().openapi({ description: "True only for the activation that issued the key" }),
    api_key: z.string().optional().openapi({ description: "The key, shown this once; only its SHA-256 is kept" }),
    key: z.object({
      priority_api_key_id: z.number().int(),
      key_prefix: z.string(),
      plan: z.string(),
      status: z.string(),
      created_at: z.iso.datetime(),
      presentation: z.literal("Authorization: Bearer <key>"),
      limits: PriorityLimitsSchema,
    }),
  })
  .openapi("PriorityKeyActivation");

/** Problem responses that a browser gets as a page instead (Accept: text/html). */
function withRefusalPage<R extends Record<number, { description: string; content: Record<string, unknown> }>>(
  responses: R,
) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      { ...response, content: { ...response.content, "text/html": { schema: z.string() } } },
    ]),
  ) as unknown as R;
}

export const activateApiKeyRoute = createRoute({
  method: "get",
  path: "/api-keys/activate",
  operationId: "activateApiKey",
  tags: ["commerce"],
  summary: "Activate a bought priority key: confirmed with Stripe, shown once",
  description: `Confirms with Stripe's API that the Checkout Session is complete and paid (the query string alone proves nothing), then issues the key and returns it once (\`api_key_returned: true\`); any later activation of the same session, however concurrent, issues no second key and answers its metadata only. Present the key as \`Authorization: Bearer <key>\`. A browser (Accept: text/html) gets the same as a page. 404 unknown session; 409 not paid yet or subscription ended; 503 payments not configured or Stripe unreachable. ${ACTIVATION_LIMIT.limit} per hour per client. HEAD checks the parameter only.`,
  security: [],
  request: { query: ActivationQuerySchema },
  responses: {
    200: {
      description: "The key (first activation) or its metadata",
      content: { "application/json": { schema: ActivationSchema }, "text/html": { schema: z.string() } },
    },
    ...problemResponses(400, 429),
    // A browser's refusal (a domain error) is the same problem shown as a page, with its status.
    ...withRefusalPage(problemResponses(404, 409, 503)),
  },
});

/** A person's browser asks for HTML first; agents and clients get JSON. */
function wantsPage(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf("text/html");
  const json = accept.indexOf("application/json");
  return html !== -1 && (json === -1 || html < json);
}

export function registerActivateApiKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(activateApiKeyRoute, async (c) => {
    const { session_id: sessionId } = c.req.valid("query");
    const deps = c.var.deps;
    // The key is shown once: no cache anywhere may keep it.
    const headers = { "Cache-Control": "no-store" };
    if (isHeadRequest(c)) return headOnlyReply(c, headers);
    const page = wantsPage(c.req.header("accept"));
    try {
      if (!deps.payments) throw paymentsUnavailable();
      await spendRateLimit(c, ACTIVATION_LIMIT);
      const activation = await activatePriorityKey({ ctx: deps, input: { sessionId } });
      if (page) {
        const html = await renderPriorityKeyPage(deps.origin, { kind: "activated", activation });
        return c.html(html, 200, { ...headers, ...pageSecurityHeaders(deps.origin) });
      }
      return c.json(activation, 200, headers);
    } catch (error) {
      if (!page || !(error instanceof DomainError)) throw error;
      const problem = domainErrorProblem(error);
      const html = await renderPriorityKeyPage(deps.origin, { kind: "failed", message: error.message });
      return c.html(html, problem.status, { ...headers, ...problem.headers, ...pageSecurityHeaders(deps.origin) });
    }
  });
}
