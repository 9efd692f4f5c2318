/**
 * The one field of the check, submit and MCP verification forms: a web address as people type
 * it. It is validated by the API's own rules (UrlBodySchema), with two kindnesses for people:
 * surrounding spaces are dropped, and https:// is assumed when no scheme is typed.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/context.ts";
import { UrlBodySchema } from "../shared/check-schemas.ts";

/** The address as typed, with https:// put in front when it names no scheme. */
export function withAssumedScheme(typed: string): string {
  const trimmed = typed.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export type UrlFormInput = { ok: true; typed: string; url: string } | { ok: false; typed: string; error: string };

/** Checks the form's fields (only `url` is accepted) and says in plain words what is wrong. */
export function validateUrlForm(fields: Record<string, unknown>): UrlFormInput {
  const typed = typeof fields.url === "string" ? fields.url : "";
  if (!typed.trim()) return { ok: false, typed, error: "Enter a web address, such as https://example.com." };
  const parsed = UrlBodySchema.safeParse({ ...fields, url: typed.trim() });
  if (!parsed.success) {
    const unknown = parsed.error.issues.find((issue) => issue.code === "unrecognized_keys");
    const error = unknown
      ? "This form takes only a web address; please send it from the page."
      : `The web address ${parsed.error.issues[0]?.message ?? "is not valid"}.`;
    return { ok: false, typed, error };
  }
  return { ok: true, typed, url: withAssumedScheme(parsed.data.url) };
}

/** The form a POST carried (URL-encoded or multipart), validated. */
export async function readUrlForm(c: Context<AppEnv>): Promise<UrlFormInput> {
  const body = await c.req.parseBody().catch(() => ({}));
  return validateUrlForm(body as Record<string, unknown>);
}
