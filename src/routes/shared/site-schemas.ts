/** Schemas of the Site record, the action-interest sidecar and the shared query parameters. */
import { z } from "@hono/zod-openapi";
import {
  ACTION_INTEREST_ARGUMENTS,
  ACTION_INTEREST_CONFIRMATION_VERSION,
  ACTION_INTEREST_TOOL,
  ACTION_TYPES,
} from "../../domain/search-receipts/receipt-constants.ts";
import { CATEGORIES } from "../../domain/sites/site-fields.ts";

export const SiteSchema = z
  .object({
    id: z.uuid(),
    domain: z.string().openapi({ description: "Host name without scheme", example: "weather.example" }),
    url: z.url(),
    name: z.string().openapi({ description: "May contain HTML character entities" }),
    description: z.string().openapi({ description: "May contain HTML character entities; may be long" }),
    has_llms_txt: z.boolean(),
    has_ai_plugin: z.boolean(),
    has_openapi: z.boolean(),
    has_robots_ai: z.boolean(),
    has_structured_api: z.boolean(),
    has_mcp_server: z.boolean(),
    has_schema_org: z.boolean(),
    agentic_score: z.number().int().min(0).max(100),
    category: z.enum(CATEGORIES).openapi({ description: "other and spam are audit-only buckets" }),
    tags: z.array(z.string()),
    is_verified: z.boolean(),
    is_featured: z.boolean(),
    has_favicon: z.boolean(),
    favicon_url: z.url().optional().openapi({ description: "Present only when a favicon exists" }),
    last_crawled_at: z.iso.datetime(),
    crawl_status: z.string().openapi({ description: "success after a successful crawl" }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi("Site");

export const ActionInterestSidecarSchema = z
  .object({
    available: z.boolean(),
    search_id: z.string().openapi({ description: "Pass only when the invocation condition holds" }),
    eligible_domains: z.array(z.string()).openapi({ description: "Domains of this organic result set only" }),
    action_types: z.array(z.enum(ACTION_TYPES)),
    caller_attestation_required: z.literal(true),
    endpoint: z.url(),
    confirmation_version: z.literal(ACTION_INTEREST_CONFIRMATION_VERSION),
    confirmation_url: z.url(),
    invocation_condition: z.string(),
    call_contract: z.object({
      action_type_must_be_one_of: z.array(z.enum(ACTION_TYPES)),
      arguments_must_contain_only: z.array(z.enum(ACTION_INTEREST_ARGUMENTS)),
      available: z.boolean(),
      domain_must_be_one_of: z.array(z.string()),
      executable_without_explicit_principal_intent: z.literal(false),
      fixed_arguments_if_invocation_condition_met: z.object({
        caller_attests_principal_interest: z.literal(true),
        confirmation_version: z.literal(ACTION_INTEREST_CONFIRMATION_VERSION),
        search_id: z.string(),
      }),
      invoke_only_if: z.string(),
      query_prompt_contact_identity_fields_are_accepted: z.literal(false),
      tool: z.literal(ACTION_INTEREST_TOOL),
    }),
    provider_contacted: z.literal(false),
    commercial_proof: z.literal(false),
    organic_rank_affected: z.literal(false),
  })
  .openapi("ActionInterestSidecar");

/** A boolean query flag: exactly `true` or `false`; anything else is a 400 naming the flag. */
export const flagParam = (description: string) =>
  z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional()
    .openapi({ type: "boolean", description });

/** An integer query parameter within bounds; decimals, signs and blanks are refused. */
export const integerParam = (min: number, max: number, description: string) =>
  z
    // Over MCP a JSON number is turned into text first: anything still not text is no integer.
    .string({ error: "must be an integer" })
    .regex(/^-?\d{1,9}$/, { error: "must be an integer" })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .optional()
    .openapi({ type: "integer", minimum: min, maximum: max, description });

export const categoryParam = z
  .enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(", ")}` })
  .optional()
  .openapi({ description: "Only this category. other and spam are audit-only: listed only when named." });

/** The signal filters search and top share, by their query names. */
export const signalFlagParams = {
  has_api: flagParam("Only sites with (true) or without (false) a structured, callable API"),
  has_mcp: flagParam("Only sites with (true) or without (false) an MCP server"),
  has_openapi: flagParam("Only sites with (true) or without (false) an OpenAPI document"),
  has_llms_txt: flagParam("Only sites with (true) or without (false) llms.txt"),
};
