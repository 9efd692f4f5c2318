/**
 * The console's offer form as the API's offer request: text fields read as typed, numbers as whole
 * numbers (an empty optional one left out), currency and billing fixed, then validated by the API's
 * own schemas (CreateOfferRequestSchema, UpdateOfferRequestSchema), so the console can never send
 * what the API would refuse. A refusal names its field in plain words.
 */
import type { Context } from "hono";
import { DomainError } from "../../domain/errors.ts";
import type { OfferInput } from "../../domain/offers/offer-input.ts";
import type { AppEnv } from "../../http/context.ts";
import {
  OFFER_FORM_FIELDS,
  type OfferFormErrors,
  type OfferFormField,
  type OfferFormValues,
} from "../../web/pages/console-offers.tsx";
import { CreateOfferRequestSchema, UpdateOfferRequestSchema } from "../provider/offer-schemas.ts";

const NUMBER_FIELDS = new Set<OfferFormField>([
  "bounty_cents",
  "principal_price_cents",
  "terms_credit_limit_cents",
  "terms_period_days",
]);

export type OfferForm =
  | { ok: true; values: OfferFormValues; input: OfferInput }
  | { ok: false; values: OfferFormValues; errors: OfferFormErrors };

/** Reads and validates the posted offer form; `claimId` is the claim of the page it came from. */
export async function readOfferForm(
  c: Context<AppEnv>,
  claimId: string,
  mode: "create" | "update",
): Promise<OfferForm> {
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const values: OfferFormValues = {};
  const request: Record<string, unknown> = {
    claim_id: claimId,
    currency: "usd",
    principal_currency: "usd",
    billing_mode: "terms",
  };
  for (const field of OFFER_FORM_FIELDS) {
    const raw = body[field];
    const text = typeof raw === "string" ? raw.trim() : "";
    values[field] = text;
    if (!NUMBER_FIELDS.has(field)) request[field] = text;
    // A whole number as typed; anything else goes to the schema as text, which refuses it in words.
    else if (text !== "") request[field] = /^\d{1,15}$/.test(text) ? Number(text) : text;
  }
  const schema = mode === "create" ? CreateOfferRequestSchema : UpdateOfferRequestSchema;
  const parsed = schema.safeParse(request);
  if (parsed.success) return { ok: true, values, input: parsed.data as OfferInput };
  const errors: OfferFormErrors = { fields: {} };
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "") as OfferFormField;
    if (OFFER_FORM_FIELDS.includes(field)) errors.fields[field] ??= issue.message;
    else errors.form ??= issue.message;
  }
  return { ok: false, values, errors };
}

/**
 * The field errors of a domain refusal of the offer (VALIDATION_FAILED with `errors`), or null
 * for any other error, which the caller handles as a page failure.
 */
export function offerFieldErrors(error: unknown): OfferFormErrors | null {
  if (!(error instanceof DomainError) || error.kind !== "invalid") return null;
  const listed = Array.isArray(error.details.errors)
    ? (error.details.errors as { field?: string; message?: string }[])
    : [];
  const errors: OfferFormErrors = { fields: {} };
  for (const item of listed) {
    const field = item.field as OfferFormField;
    if (OFFER_FORM_FIELDS.includes(field)) errors.fields[field] ??= item.message ?? error.message;
  }
  if (Object.keys(errors.fields).length === 0) errors.form = error.message;
  return errors;
}
