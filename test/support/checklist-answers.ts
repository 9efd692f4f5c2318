/** A site's answers as the checklist reads them, built from documents (no network). */
import type { ChecklistAnswers } from "../../src/domain/checklist/checklist-answers.ts";
import type { ProbeResponse, SignalFinding } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";

export interface Served {
  body: string;
  type: string;
  status?: number;
}

/** The answers of a site serving `documents` (path → document) and 404 elsewhere. */
export function answersFor(
  origin: string,
  documents: Record<string, Served>,
  signals: Partial<Record<SignalField, SignalFinding>> = {},
): ChecklistAnswers {
  // The site answers every path of its own origin (404 where it serves nothing), as a crawl would
  // find it; a URL on another origin is not fetched (as when its host does not resolve).
  const get = new (class extends Map<string, ProbeResponse> {
    override get(url: string): ProbeResponse | undefined {
      const own = super.get(url);
      if (own || !url.startsWith(`${origin}/`)) return own;
      return respond(url);
    }
    override has(url: string): boolean {
      return super.has(url) || url.startsWith(`${origin}/`);
    }
  })();
  const respond = (url: string): ProbeResponse => {
    const path = new URL(url).pathname;
    const served = documents[path];
    const status = served ? (served.status ?? 200) : 404;
    return {
      ok: true,
      url,
      finalUrl: url,
      redirects: [],
      status,
      headers: new Headers(served ? { "content-type": served.type } : { "content-type": "text/plain" }),
      contentType: served ? served.type.split(";")[0]!.trim().toLowerCase() : "text/plain",
      body: served ? served.body : "Not found",
    };
  };
  // Every path the checklist may read, answered as the site would.
  const paths = [
    "/",
    "/robots.txt",
    "/sitemap.xml",
    "/llms.txt",
    "/llms-full.txt",
    "/.well-known/http-message-signatures-directory",
    "/.well-known/api-catalog",
    "/.well-known/ai-catalog.json",
    "/.well-known/ard.json",
    "/.well-known/mcp.json",
    "/.well-known/mcp/server-card.json",
    "/.well-known/mcp/server-card",
    "/.well-known/agent-card.json",
    "/.well-known/agent.json",
    "/.well-known/agent-skills/index.json",
    "/.well-known/skills/index.json",
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-authorization-server",
    "/.well-known/openid-configuration",
    ...Object.keys(documents),
  ];
  for (const path of paths) get.set(`${origin}${path}`, respond(`${origin}${path}`));
  const absent: SignalFinding = { status: "absent", reason: "Not found.", fetched: [] };
  const findings = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, signals[field] ?? absent])) as Record<
    SignalField,
    SignalFinding
  >;
  return {
    origin,
    get,
    markdownHome: respond(`${origin}/`),
    signals: findings,
    discovery: { aiCatalog: null, serverCards: [], controls: [] },
    catchAll: new Map(),
  };
}
