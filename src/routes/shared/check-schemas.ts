/** Schemas of the live checks: the URL bodies and the evidence of each signal. */
import { z } from "@hono/zod-openapi";
import {
  CHECK_CATEGORIES,
  CHECK_IDS,
  CHECK_STATUSES,
  SITE_KINDS,
} from "../../domain/checklist/checklist-definition.ts";
import { CATEGORIES, SIGNAL_FIELDS, type SignalField } from "../../domain/sites/site-fields.ts";
import { storableText } from "./text.ts";

/** `{url}`: any other field is refused, so a misspelt body never checks the wrong thing. */
export const UrlBodySchema = z
  .strictObject({
    url: storableText().min(1).max(2048).openapi({
      format: "uri",
      description: "The site to read: an http(s) URL or a bare host name (https is assumed); its origin is what counts",
      example: "https://example.com",
    }),
  })
  .openapi("UrlBody");

export const SignalEvidenceSchema = z
  .object({
    status: z.enum(["present", "absent", "blocked", "error"]),
    reason: z.string(),
    fetched: z.array(
      z.object({ url: z.string(), status: z.number().int().nullable(), content_type: z.string().nullable() }),
    ),
  })
  .openapi("SignalEvidence");

/** One check of the agent-readiness checklist (shared/agent-web-2026.md, "The checklist"). */
export const ChecklistCheckSchema = z
  .object({
    id: z.enum(CHECK_IDS),
    category: z.enum(CHECK_CATEGORIES),
    status: z.enum(CHECK_STATUSES),
    title: z.string(),
    reason: z.string().openapi({ description: "What was seen, in plain words" }),
    evidence: z.array(
      z.object({ url: z.string(), status: z.number().int().nullable(), content_type: z.string().nullable() }),
    ),
    fix: z.string().optional().openapi({
      description: "What to do, then (after a blank line) a minimal example to copy; absent when the check passes",
    }),
    applies_to: z.array(z.enum(SITE_KINDS)).openapi({ description: "The kinds of site the check matters for" }),
  })
  .openapi("ChecklistCheck");

const KindTallySchema = z.object({ applicable: z.number().int().min(0), passing: z.number().int().min(0) });

export const ChecklistSummarySchema = z
  .object({
    site_kind: z.enum(SITE_KINDS).openapi({ description: "The kind of site inferred from the crawl" }),
    site_kind_reason: z.string(),
    applicable: z.number().int().min(0),
    passing: z.number().int().min(0),
    text: z.string().openapi({ example: "12 of 15 checks that apply to an API site pass" }),
    by_kind: z.object({ content: KindTallySchema, api: KindTallySchema, store: KindTallySchema }),
  })
  .openapi("ChecklistSummary", {
    description: "How many of the checks that apply to the site's kind pass. Never part of agentic_score.",
  });

const signalFlags = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, z.boolean()])) as Record<
  SignalField,
  z.ZodBoolean
>;
const signalEvidence = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, SignalEvidenceSchema])) as Record<
  SignalField,
  typeof SignalEvidenceSchema
>;

export const CheckResultSchema = z
  .object({
    url: z.string().openapi({ description: "The origin that was crawled" }),
    domain: z.string(),
    agentic_score: z.number().int().min(0).max(100),
    score_version: z.number().int(),
    ...signalFlags,
    signals: z
      .object(signalEvidence)
      .openapi({ description: "Each signal's status, reason and the fetches behind it" }),
    name: z.string(),
    description: z.string(),
    category: z.enum(CATEGORIES),
    tags: z.array(z.string()),
    has_favicon: z.boolean(),
    favicon_url: z.string().optional(),
    crawl_status: z.enum(["success", "blocked", "unreachable", "error"]),
    crawl_note: z.string(),
    checked_at: z.iso.datetime(),
    duration_ms: z.number().int().min(0),
    indexed: z.boolean().openapi({ description: "Whether the index holds this domain" }),
    recrawl_queued: z
      .boolean()
      .openapi({ description: "True when the indexed entry differed and a recrawl was queued to update it" }),
    checks: z.array(ChecklistCheckSchema).openapi({
      description: "The agent-readiness checklist, one entry per check id: never part of agentic_score",
    }),
    checks_summary: ChecklistSummarySchema,
  })
  .openapi("CheckResult");

/** GET /verify-mcp's query, which the verify_mcp tool takes as its arguments. */
export const VerifyMcpQuerySchema = z.strictObject({
  url: storableText().min(1).max(2048).openapi({
    description: "The MCP endpoint; scheme optional (https assumed); a bare host means <origin>/mcp",
    example: "example.com/mcp",
  }),
});

export const McpVerificationSchema = z
  .object({
    verified: z.boolean().openapi({ description: "True only for a compliant Streamable HTTP handshake" }),
    endpoint: z.string().openapi({ description: "The URL that was probed" }),
    note: z
      .string()
      .openapi({ description: "What was found: compliant, gated, wrong transport, not MCP, unreachable" }),
  })
  .openapi("McpVerification");
