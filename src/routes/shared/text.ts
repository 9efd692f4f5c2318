/**
 * Free text a client sends that is stored, compared or fingerprinted. Postgres refuses NUL in
 * text ("invalid byte sequence for encoding UTF8: 0x00"), and a UTF-16 surrogate without its pair
 * has no UTF-8 form at all, so RFC 8785 canonical JSON (the request fingerprints) and every
 * encoder after it refuse it. JSON and URL escapes can carry both (`\u0000`, `\ud800`, `%00`),
 * so the refusal is made where the text enters: a 400 naming the field, never a failure deeper in.
 */
import { z } from "@hono/zod-openapi";

export const UNSTORABLE_TEXT_MESSAGE = "must not contain NUL characters or unpaired surrogates";

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether the text can be stored in Postgres and encoded as UTF-8: no NUL, no lone surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && !UNPAIRED_SURROGATE.test(value);
}

/**
 * A string schema that refuses unstorable text. `error` is the message for a value that is not a
 * string; length and format rules chain on as on `z.string()`.
 */
export function storableText(error?: string) {
  return z.string(error === undefined ? undefined : { error }).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);
}
