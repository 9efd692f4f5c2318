/**
 * The local stack's mail endpoint. It speaks the part of Resend's HTTP API the service's mailer
 * calls (`POST /emails`, bearer key, JSON message, `{id}` back; errors as Resend gives them), so
 * the Worker sends exactly as in production, and keeps every message in an outbox instead of
 * delivering it:
 *
 *   GET /messages?to=<address>   JSON array, newest first, of {id, to, from, subject, text, html,
 *                                headers, created_at} (every message without `to`)
 *   GET /                        the same outbox as a page a person can read, links clickable
 *   DELETE /messages             empties the outbox
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { BadRequest, readJson, sendJson } from "./http.ts";

export interface OutboxMessage {
  id: string;
  to: string[];
  from: string;
  subject: string;
  text: string | null;
  html: string | null;
  headers: Record<string, string>;
  created_at: string;
}

export interface MailOutboxOptions {
  /** The API key the endpoint accepts as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** How many messages to keep; the oldest go first. */
  capacity?: number;
}

/** Resend's error body: the status repeated, a machine name and a message. */
function sendResendError(response: ServerResponse, status: number, name: string, message: string) {
  sendJson(response, status, { statusCode: status, name, message });
}

const asList = (value: unknown): string[] | undefined => {
  if (typeof value === "string" && value.length > 0) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string")) return value;
  return undefined;
};

/** Validates a send request as Resend does for the fields the service uses; the message or an error text. */
export function parseSendRequest(body: unknown): OutboxMessage | string {
  if (!body || typeof body !== "object" || Array.isArray(body)) return "The request body must be a JSON object.";
  const fields = body as Record<string, unknown>;
  const to = asList(fields.to);
  if (!to) return "The `to` field must be an e-mail address or a list of them.";
  if (to.length > 50) return "The `to` field holds at most 50 addresses.";
  if (typeof fields.from !== "string" || !fields.from) return "The `from` field is required.";
  if (typeof fields.subject !== "string" || !fields.subject) return "The `subject` field is required.";
  const text = typeof fields.text === "string" ? fields.text : null;
  const html = typeof fields.html === "string" ? fields.html : null;
  if (text === null && html === null) return "Either `text` or `html` must be provided.";
  const headers = fields.headers ?? {};
  if (
    typeof headers !== "object" ||
    Array.isArray(headers) ||
    Object.values(headers).some((v) => typeof v !== "string")
  ) {
    return "The `headers` field must map header names to strings.";
  }
  return {
    id: randomUUID(),
    to,
    from: fields.from,
    subject: fields.subject,
    text,
    html,
    headers: headers as Record<string, string>,
    created_at: new Date().toISOString(),
  };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The outbox as a page: each message's headers and text, with URLs made into links. */
function renderOutbox(messages: OutboxMessage[]): string {
  const linkify = (text: string) =>
    escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
  const items = messages
    .map(
      (message) => `<article><h2>${escapeHtml(message.subject)}</h2>
<p><b>To</b> ${escapeHtml(message.to.join(", "))} · <b>From</b> ${escapeHtml(message.from)} · ${message.created_at}</p>
${Object.entries(message.headers)
  .map(([name, value]) => `<p><code>${escapeHtml(name)}: ${escapeHtml(value)}</code></p>`)
  .join("\n")}
<pre>${linkify(message.text ?? "(HTML only)")}</pre></article>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Local outbox</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:50rem;margin:auto;padding:1rem}article{border-top:1px solid #ccc;padding:.5rem 0}pre{white-space:pre-wrap;background:#f4f4f5;padding:.6rem}</style></head>
<body><h1>Local outbox</h1><p>${messages.length} message(s), newest first. Nothing here was delivered.</p>${items}</body></html>`;
}

/** The mail endpoint; `messages` is the outbox itself (newest last), for the stack's own use. */
export function createMailOutboxServer(options: MailOutboxOptions): { server: Server; messages: OutboxMessage[] } {
  const messages: OutboxMessage[] = [];
  const capacity = options.capacity ?? 1000;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://outbox.local");
    if (request.method === "POST" && url.pathname === "/emails") {
      if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
        return sendResendError(
          response,
          request.headers.authorization ? 403 : 401,
          request.headers.authorization ? "invalid_api_key" : "missing_api_key",
          request.headers.authorization ? "API key is invalid" : "Missing API key in the authorization header.",
        );
      }
      const parsed = parseSendRequest(await readJson(request));
      if (typeof parsed === "string") return sendResendError(response, 422, "validation_error", parsed);
      messages.push(parsed);
      if (messages.length > capacity) messages.shift();
      return sendJson(response, 200, { id: parsed.id });
    }
    if (request.method === "GET" && url.pathname === "/messages") {
      const to = url.searchParams.get("to")?.toLowerCase();
      const selected = messages.filter((message) => !to || message.to.some((address) => address.toLowerCase() === to));
      return sendJson(response, 200, selected.slice().reverse());
    }
    if (request.method === "DELETE" && url.pathname === "/messages") {
      messages.length = 0;
      response.writeHead(204).end();
      return;
    }
    if (request.method === "GET" && url.pathname === "/") {
      const page = renderOutbox(messages.slice().reverse());
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
      return;
    }
    sendResendError(response, 404, "not_found", "The requested endpoint does not exist.");
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (error instanceof BadRequest) sendResendError(response, 422, "validation_error", error.message);
      else sendResendError(response, 500, "application_error", "The outbox failed to handle the request.");
    });
  });
  return { server, messages };
}
