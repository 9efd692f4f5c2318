/** Schemas of the live checks: the URL bodies and the evidence of each signal. */
import { z } from "@hono/zod-openapi";
import { CATEGORIES, SIGNAL_FIELDS, type SignalField } from "../../domain/sites/site-fields.ts";
import { storableText } from "./text.ts";

/** `{url}`: any other field is refused, so a misspelt body never checks the wrong thing. */
export const UrlBodySchema = z
  .strictObject({
    url: storableText().min(1).max(2048).openapi({ format: "uri", example: "https://example.com" }),
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
  })
  .openapi("CheckResult");
