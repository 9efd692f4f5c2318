/**
 * The sizes of a request this service reads: its request target, its header section and its
 * body. Anything larger is refused before any of it is parsed, in the one problem shape.
 *
 * In production Cloudflare refuses larger requests itself before the Worker runs (URLs over
 * 16 KB, header sections over 32 KB or one header over 16 KB: its Workers limits) with its own
 * error page; the limits here are below those, so every refusal the service can see is its own
 * problem+json. `wrangler dev` and tests reach these checks the same way.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { contentTooLargeProblem, headersTooLargeProblem, uriTooLongProblem } from "../problem.ts";

/** Longest path and query read, in bytes (the longest legitimate one, a verify-mcp URL, is 2 KiB). */
export const MAX_REQUEST_TARGET_BYTES = 8 * 1024;
/** Largest header section read, in bytes, counted as on the wire (`name: value` and CRLF per field). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Largest request body read, in bytes: every JSON body the API takes is a few hundred bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

// Bodies of these are never read by any route, so their size costs nothing and is not checked.
const METHODS_WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * 414 `URI_TOO_LONG` for a path and query over MAX_REQUEST_TARGET_BYTES; 431 `HEADERS_TOO_LARGE`
 * for header fields over MAX_HEADER_BYTES in total, naming the largest field.
 *
 * @example app.use("*", limitRequestHead());
 */
export function limitRequestHead(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    // A parsed URL is ASCII (anything else is percent-encoded), so its length is its size in bytes.
    if (url.pathname.length + url.search.length > MAX_REQUEST_TARGET_BYTES) {
      throw uriTooLongProblem(MAX_REQUEST_TARGET_BYTES);
    }
    let total = 0;
    let largest = { name: "", bytes: 0 };
    for (const [name, value] of c.req.raw.headers) {
      const bytes = name.length + value.length + 4;
      total += bytes;
      if (bytes > largest.bytes) largest = { name, bytes };
    }
    if (total > MAX_HEADER_BYTES) {
      throw headersTooLargeProblem(MAX_HEADER_BYTES, `${largest.name} (${largest.bytes} bytes)`);
    }
    await next();
  };
}

/**
 * How much of a refused streamed body is still read and dropped before the rest is cancelled. A
 * server that answers before the upload is done usually lingers like this so the client reads the
 * answer (`wrangler dev`'s proxy answers a cancelled streamed upload with its own 503 half the
 * time); beyond it, an upload is not worth the time.
 */
const DISCARDED_BYTES_BEFORE_CANCEL = 8 * 1024 * 1024;

/** Drops the rest of a refused body: reads up to `bytes` more, then cancels what is left. */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, bytes: number): Promise<void> {
  let discarded = 0;
  while (discarded <= bytes) {
    const { done, value } = await reader.read();
    if (done) return;
    discarded += value.byteLength;
  }
  await reader.cancel();
}

/** The bytes of a body streamed without a length, read up to `limit`; undefined past it. */
async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await discardRest(reader, DISCARDED_BYTES_BEFORE_CANCEL);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * 413 `CONTENT_TOO_LARGE` for a body over MAX_BODY_BYTES, decided from Content-Length before the
 * body is read (the body is then cancelled unread), or, for a body streamed without one, as soon
 * as the bytes read pass the limit (the rest is dropped, see DISCARDED_BYTES_BEFORE_CANCEL).
 * Hono's body-limit middleware would leave the unread rest pending, which `wrangler dev`'s proxy
 * answers with its own 503 about one time in two; hence this one.
 *
 * @example app.use("*", limitRequestBody());
 */
export function limitRequestBody(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body || METHODS_WITHOUT_BODY.has(c.req.method)) return next();
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) {
      if (Number(declared) > MAX_BODY_BYTES) {
        await body.cancel();
        throw contentTooLargeProblem(MAX_BODY_BYTES);
      }
      return next();
    }
    const bytes = await readUpTo(body, MAX_BODY_BYTES);
    if (!bytes) throw contentTooLargeProblem(MAX_BODY_BYTES);
    c.req.raw = new Request(c.req.raw, { body: bytes });
    await next();
  };
}
