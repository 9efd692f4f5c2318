/**
 * The ARD registry's request and response shapes (ARD v0.91 §5.3 and its OpenAPI document
 * `spec/schemas/ard.openapi.yaml`): the shared query model, Search, Explore, List and Retrieve.
 * Field names are ARD's own (camelCase), not this API's snake_case: ARD clients speak them.
 */
import { z } from "@hono/zod-openapi";
import { REGISTRY_MEDIA_TYPE } from "../../domain/registry/agent-resources.ts";
import { FILTER_KEYS, VERIFICATION_TERM } from "../../domain/registry/catalog-entries.ts";
import { REGISTRY_TEXT_WINDOW } from "../../domain/registry/relevant-sites.ts";
import { MAX_QUERY_LENGTH } from "../../domain/search/text-query.ts";
import { MCP_ENDPOINT_HEALTH } from "../../domain/signals/mcp-health.ts";
import { PROBLEM_CONTENT_TYPE } from "../../http/problem.ts";
import { ProblemSchema } from "../shared/schemas.ts";
import { storableText } from "../shared/text.ts";

/** The most keys a filter may have, and values per key. */
export const MAX_FILTER_KEYS = 16;
export const MAX_FILTER_VALUES = 20;
/** ARD's page sizes (§5.3.2, §5.3.5). */
export const SEARCH_PAGE_SIZE_DEFAULT = 10;
export const LIST_PAGE_SIZE_DEFAULT = 20;
export const MAX_PAGE_SIZE = 100;

const filterScalar = z.union([
  storableText().max(200, { error: "must be at most 200 characters" }),
  z.number(),
  z.boolean(),
]);

export const FilterSchema = z
  .record(
    z.string().max(100, { error: "must be at most 100 characters" }),
    z.union([filterScalar, z.array(filterScalar).min(1).max(MAX_FILTER_VALUES)]),
  )
  .refine((filter) => Object.keys(filter).length <= MAX_FILTER_KEYS, {
    error: `must have at most ${MAX_FILTER_KEYS} keys`,
  })
  .openapi({
    description: `Structured constraints (ARD §5.3.1): within a key the values are OR-ed, across keys AND-ed; a bare value is one value. Keys: ${FILTER_KEYS.join(", ")}. \`type\`, \`tags\`, \`capabilities\` and \`publisher\` compare case-insensitively; \`identifier\` exactly; \`verified\` takes true or false (our verification); \`agentic_score\` takes a score or a range \`"70..100"\`. Any other key is 400 UNSUPPORTED_FILTER.`,
    example: { type: ["application/mcp-server-card+json"], verified: true },
  });

const queryText = storableText("must be a string")
  .max(MAX_QUERY_LENGTH, { error: `must be at most ${MAX_QUERY_LENGTH} characters` })
  .openapi({
    description: `Natural-language need, matched as the site search matches \`q\` (at most ${MAX_QUERY_LENGTH} characters). Used in memory only: never stored or logged.`,
    example: "weather forecast",
  });

const contextMember = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .optional()
  .openapi({ description: "Optional JSON-LD context of the filter's prefixes (ARD §5.3.1)" });

export const SearchQueryModelSchema = z.strictObject({
  "@context": contextMember,
  text: queryText.refine((text) => text.trim().length > 0, { error: "must not be blank" }),
  filter: FilterSchema.optional(),
});

export const ExploreQueryModelSchema = z.strictObject({
  "@context": contextMember,
  text: queryText.optional(),
  filter: FilterSchema.optional(),
});

const pageSize = (fallback: number) =>
  z
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_PAGE_SIZE, { error: `must be at most ${MAX_PAGE_SIZE}` })
    .optional()
    .openapi({ description: `Results per page, 1 to ${MAX_PAGE_SIZE}; default ${fallback}` });

const pageToken = z
  .string({ error: "must be a string" })
  .min(1, { error: "must not be empty" })
  .max(400, { error: "must be at most 400 characters" })
  .optional()
  .openapi({ description: "The opaque token of the previous page of the same query" });

export const ArdSearchRequestSchema = z
  .strictObject({
    query: SearchQueryModelSchema,
    federation: z
      .enum(["auto", "referrals", "none"], { error: "must be one of auto, referrals, none" })
      .optional()
      .openapi({
        description:
          "none: this index only. referrals: also the registries the index found in sites' ARD manifests. auto (the default): this registry has no upstream registries, so auto answers as none does.",
      }),
    pageSize: pageSize(SEARCH_PAGE_SIZE_DEFAULT),
    pageToken,
  })
  .openapi("ArdSearchRequest");

export const ArdExploreRequestSchema = z
  .strictObject({
    query: ExploreQueryModelSchema.optional(),
    resultType: z.strictObject({
      facets: z
        .array(
          z.strictObject({
            field: z
              .string()
              .min(1)
              .max(100)
              .openapi({ description: `A filter key: ${FILTER_KEYS.join(", ")}` }),
            limit: z
              .number()
              .int()
              .min(1)
              .max(MAX_PAGE_SIZE)
              .optional()
              .openapi({ description: "Buckets, default 20" }),
            minCount: z.number().int().min(1).optional().openapi({ description: "Smallest count shown, default 1" }),
          }),
        )
        .min(1, { error: "must name at least one facet" })
        .max(10, { error: "must name at most 10 facets" }),
    }),
  })
  .openapi("ArdExploreRequest");

export const ArdListQuerySchema = z.strictObject({
  filter: storableText().max(1000, { error: "must be at most 1000 characters" }).optional().openapi({
    description:
      "Filter expression (ARD Appendix A): clauses `field = 'value'` (comma-separated values are OR) joined by AND; fields displayName (case-insensitive, contained), type, publisherId (or publisher), tags, capabilities, identifier, verified, agentic_score, and `createdAfter > '2026-01-01'`, `updatedAfter > …`.",
    example: "type = 'application/mcp-server-card+json' AND verified = true",
  }),
  orderBy: z.string().max(100).optional().openapi({
    description:
      "Not supported: the listing has one deterministic order (the site's domain, then the entry's place on the site). Any value is 400 UNSUPPORTED_ORDER.",
  }),
  pageSize: z
    .string({ error: "must be an integer" })
    .regex(/^\d{1,9}$/, { error: "must be an integer" })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: "must be at least 1" })
        .max(MAX_PAGE_SIZE, { error: `must be at most ${MAX_PAGE_SIZE}` }),
    )
    .optional()
    .openapi({
      type: "integer",
      description: `Entries per page, 1 to ${MAX_PAGE_SIZE}; default ${LIST_PAGE_SIZE_DEFAULT}`,
    }),
  pageToken,
});

export const ArdIdentifierParamSchema = z.object({
  identifier: z
    .string()
    .max(500, { error: "must be at most 500 characters" })
    .openapi({
      param: { name: "identifier", in: "path" },
      description: "The entry's ARD identifier, percent-encoded as one path segment",
      example: "urn:air:weather.example:indexed:mcp-server-0a1b2c3d4e5f",
    }),
});

/** Our verification beside each entry, under our own prefix. */
export const VerificationSchema = z
  .object({
    verified: z.boolean().openapi({
      description:
        "True when the crawl proved it works: an MCP handshake, or a passing check of the card, document or index",
    }),
    status: z.string().openapi({
      description: `For an MCP server its endpoint's health class (${MCP_ENDPOINT_HEALTH.join(", ")}); for a card, document or index its check's status (pass, warn); listed for a manifest entry not checked on its own`,
    }),
    endpoint: z.string().optional().openapi({ description: "The MCP endpoint the crawl probed" }),
    last_seen: z.string().openapi({ description: "When the crawl that saw it ran (ISO 8601)" }),
    site: z.string().openapi({ description: "The indexed site it was found on" }),
    agentic_score: z.number().int().min(0).max(100).openapi({ description: "The site's agentic_score" }),
    identifier_source: z.enum(["site", "registry"]).openapi({
      description: "site: the identifier the site publishes; registry: named by this registry (docs/discovery.md)",
    }),
    resource_kind: z.enum(["manifest-entry", "mcp-server", "a2a-agent", "openapi", "agent-skills"]),
  })
  .openapi("ArdVerification");

export const ArdEntrySchema = z
  .object({
    "@context": z.array(z.unknown()).openapi({ description: "ARD's base context and the prefix of our own terms" }),
    identifier: z.string().openapi({ description: "ARD identifier, urn:air:<publisher>:<namespace>:<name>" }),
    displayName: z.string(),
    type: z.string().openapi({ description: "The artifact's media type" }),
    url: z.string().optional().openapi({ description: "Where the artifact is (exactly one of url and data)" }),
    data: z.record(z.string(), z.unknown()).optional().openapi({ description: "The artifact inline" }),
    description: z.string().optional(),
    tags: z
      .array(z.string())
      .optional()
      .openapi({ description: "The entry's own tags, else the index's tags of its site" }),
    capabilities: z.array(z.string()).optional(),
    representativeQueries: z.array(z.string()).optional(),
    version: z.string().optional(),
    updatedAt: z.string().openapi({ description: "When the crawl that read it ran (ISO 8601)" }),
    [VERIFICATION_TERM]: VerificationSchema,
  })
  .openapi("ArdEntry");

export const ArdSearchResultSchema = ArdEntrySchema.extend({
  score: z
    .number()
    .int()
    .min(0)
    .max(100)
    .openapi({
      description: `Relevance, 0 to 100, from the site search's order over its first ${REGISTRY_TEXT_WINDOW} sites; never a trust, compliance or safety rating`,
    }),
  source: z.string().openapi({ description: "This registry's base URL" }),
}).openapi("ArdSearchResult");

export const ArdReferralSchema = z
  .object({
    identifier: z.string(),
    displayName: z.string(),
    type: z.literal(REGISTRY_MEDIA_TYPE),
    url: z.string(),
  })
  .openapi("ArdReferral");

export const ArdSearchResponseSchema = z
  .object({
    results: z.array(ArdSearchResultSchema),
    referrals: z.array(ArdReferralSchema).optional().openapi({ description: "Only with federation referrals" }),
    pageToken: z.string().optional().openapi({ description: "Present when another page follows" }),
  })
  .openapi("ArdSearchResponse");

export const ArdExploreResponseSchema = z
  .object({
    resultType: z.literal("facets"),
    facets: z.record(
      z.string(),
      z.object({
        buckets: z.array(z.object({ value: z.string(), count: z.number().int().min(1) })),
        otherCount: z.number().int().min(1).optional(),
      }),
    ),
  })
  .openapi("ArdExploreResponse");

export const ArdListResponseSchema = z
  .object({
    items: z.array(ArdEntrySchema),
    pageToken: z.string().optional().openapi({ description: "Present when another page follows" }),
  })
  .openapi("ArdListResponse");

const ARD_PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: "errorCode INVALID_ARGUMENT: invalid body, filter, facet, token or identifier",
  401: "errorCode UNAUTHENTICATED: a bad or ended priority key",
  404: "errorCode NOT_FOUND: no entry has that identifier",
  405: "Method not allowed",
  413: "Request body too large",
  414: "Path and query too long",
  429: "errorCode RATE_LIMIT_EXCEEDED: the search limit; resumes after Retry-After seconds",
  431: "Request header fields too large",
  500: "errorCode INTERNAL_ERROR",
  503: "errorCode INTERNAL_ERROR: a dependency is unavailable",
};

/**
 * The OpenAPI responses of ARD problems: the service's one problem+json schema, whose open members
 * carry ARD's `errorCode` and `message` beside `code` (src/http/middleware/ard-errors.ts).
 */
export function ardProblemResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: ARD_PROBLEM_DESCRIPTIONS[status] ?? "Error",
        content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
      },
    ]),
  ) as Record<S, { description: string; content: { [PROBLEM_CONTENT_TYPE]: { schema: typeof ProblemSchema } } }>;
}

/** An entry as the routes answer it. */
export type ArdEntryBody = z.output<typeof ArdEntrySchema>;
/** A search result as the routes answer it. */
export type ArdSearchResultBody = z.output<typeof ArdSearchResultSchema>;
