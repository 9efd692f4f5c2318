import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  CAPABILITIES_TEXT_MAX,
  CAPABILITY_SOURCES,
  type CapabilitySource,
} from "../../domain/capabilities/site-capabilities.ts";
import { SEARCH_ID_PATTERN } from "../../domain/search-receipts/search-id.ts";
import { getSiteDetail } from "../../domain/sites/get-site-detail.ts";
import type { AppEnv } from "../../http/context.ts";
import { isHeadRequest } from "../../http/head-request.ts";
import { ChecklistCheckSchema, ChecklistSummarySchema } from "../shared/check-schemas.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ActionInterestSidecarSchema, SiteSchema } from "../shared/site-schemas.ts";
import { storableText } from "../shared/text.ts";

const SignalEvidenceSchema = z.object({
  status: z.enum(["present", "absent", "blocked", "error"]),
  reason: z.string(),
  fetched: z.array(
    z.object({ url: z.string(), status: z.number().int().nullable(), content_type: z.string().nullable() }),
  ),
});

export const SiteDetailSchema = SiteSchema.extend({
  score_version: z.number().int().openapi({ description: "Version of the scoring formula behind agentic_score" }),
  signal_evidence: z
    .record(z.string(), SignalEvidenceSchema)
    .openapi({ description: "What the last crawl saw for each signal, where known" }),
  checks: z.array(ChecklistCheckSchema).openapi({
    description:
      "The agent-readiness checklist of the last successful crawl (never part of agentic_score); empty for a site not crawled since the checklist existed",
  }),
  checks_summary: ChecklistSummarySchema.optional().openapi({
    description: "Present with checks: the site kind inferred and how many applicable checks pass",
  }),
  capabilities: z
    .array(
      z.object({
        source: z.enum(CAPABILITY_SOURCES as [CapabilitySource, ...CapabilitySource[]]).openapi({
          description:
            "The document it was read from: llms-txt (title and summary), mcp (the live tools/list), a2a (agent card skills), agent-skills (the Agent Skills index), ard (ARD / AI Catalog entries), openapi (operations and tags)",
        }),
        items: z.array(z.object({ name: z.string(), description: z.string().optional() })),
      }),
    )
    .openapi({
      description: `What the site's own machine-readable documents say it does, as the last successful crawl read them, grouped by source; markup stripped, repeats dropped, at most ${CAPABILITIES_TEXT_MAX} characters in all with a fair share per source. Empty when they name nothing or the site was not crawled since this was kept`,
    }),
  score_history: z
    .array(
      z.object({ agentic_score: z.number().int(), score_version: z.number().int(), recorded_at: z.iso.datetime() }),
    )
    .openapi({ description: "Past scores, newest first (at most 30)" }),
  selection_recorded: z.boolean().openapi({ description: "True when this view recorded a new result selection" }),
  action_interest: ActionInterestSidecarSchema.optional().openapi({
    description: "Present only when this view recorded a new, non-synthetic selection",
  }),
}).openapi("SiteDetail");

export const SiteSearchIdQuerySchema = z.strictObject({
  search_id: z
    .string()
    .regex(SEARCH_ID_PATTERN, { error: "must be a search_id as returned by search" })
    .optional()
    .openapi({ description: "The search whose result is being selected" }),
});

export const SiteDomainParamsSchema = z.object({
  domain: storableText().openapi({
    param: { name: "domain", in: "path" },
    description: "The indexed site's domain (host name, lowercase, without scheme or path)",
    example: "weather.example",
  }),
});

export const getSiteRoute = createRoute({
  method: "get",
  path: "/site/{domain}",
  operationId: "getSite",
  tags: ["discovery"],
  summary: "One site in detail: record, signal evidence, score history; records a result selection",
  description:
    "Every Site field plus the score version, each signal's evidence from the last crawl and the score history. With the `search_id` of a live search that returned this domain, the view records a result selection (once per search and domain); a new, non-synthetic selection adds an action-interest sidecar for this domain, and a selection alone is never treated as interest. HEAD records nothing. An unknown domain is a 404.",
  // Public: the spec's Authentication lists it under "none".
  security: [],
  request: {
    params: SiteDomainParamsSchema,
    query: SiteSearchIdQuerySchema,
  },
  responses: {
    200: { description: "The selected-site detail", content: { "application/json": { schema: SiteDetailSchema } } },
    ...problemResponses(400, 404, 503),
  },
});

export function registerGetSite(app: OpenAPIHono<AppEnv>) {
  app.openapi(getSiteRoute, async (c) => {
    const { domain } = c.req.valid("param");
    const { search_id: searchId } = c.req.valid("query");
    // A selection is a write, which HEAD must not make: it reads the site as without a search_id.
    const selectionOf = isHeadRequest(c) ? undefined : searchId;
    const detail = await getSiteDetail({ ctx: c.var.deps, input: { domain, searchId: selectionOf } });
    c.header("Cache-Control", searchId ? "private, no-store" : "public, max-age=60");
    return c.json(detail, 200);
  });
}
