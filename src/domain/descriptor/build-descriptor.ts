/** The index descriptor served at GET /: what the service is and where everything lives. */
import { PROVIDER_EXCHANGE_POLICY } from "./provider-exchange-policy.ts";

export const SERVICE_VERSION = "1.1.0";

export const FREE_LIMITS = {
  search: "240 per hour per client",
  live_verification: "20 per hour per client",
  check: "10 per hour per IP",
} as const;

export interface DescriptorInput {
  /** Public origin without trailing slash, e.g. https://agentready.example */
  origin: string;
  /** Endpoint key → description, for every endpoint this deployment of the service offers. */
  endpoints: Record<string, string>;
}

export function buildDescriptor({ origin, endpoints }: DescriptorInput) {
  return {
    name: "Agent Readiness Search",
    description:
      "A free, neutral search index of web sites scored 0-100 for readiness to be used by AI agents, from 7 signals: llms.txt, an AI plugin manifest, an OpenAPI document, a structured API, an MCP server, AI rules in robots.txt and schema.org markup. Organic ordering and scores are never changed by any paid or provider-funded feature.",
    version: SERVICE_VERSION,
    version_policy:
      "The version is a descriptive release version under the /api/v1 prefix, not a compatibility promise for the controlled-pilot provider endpoints; those carry explicit contract versions and may undergo an owner-gated breaking cutover.",
    auth: {
      public: "none: search, top, site, categories, stats and the live checks need no credentials",
      human_session: "cookie svc_session, for /provider/claims and /provider/offers",
      provider_key: "header X-SVC-Provider-Key, claim-scoped, for provider key endpoints",
      priority_key:
        "optional paid key, header Authorization: Bearer <key>, on search, verify-mcp and check: raises ceilings only, never ranking or results",
    },
    rate_limit: {
      ...FREE_LIMITS,
      priority_key:
        "search 5000, live verification and check 100 each per hour per key while the monthly allocation of 50,000 calls remains; then the free tier",
      exceeded: "429 application/problem+json with Retry-After; free access resumes after the reset",
    },
    base_url: `${origin}/api/v1`,
    openapi_spec: `${origin}/openapi.json`,
    ai_plugin_manifest: `${origin}/.well-known/ai-plugin.json`,
    mcp_endpoint: `${origin}/mcp`,
    endpoints,
    provider_exchange: { ...PROVIDER_EXCHANGE_POLICY },
  };
}

export type Descriptor = ReturnType<typeof buildDescriptor>;
