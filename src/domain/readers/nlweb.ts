/**
 * NLWeb: how a site announces its natural-language endpoint, and the shape of the endpoint's
 * answer.
 *
 * - Announcement: a `rel="nlweb"` link (Link header or HTML `<link>`) naming the endpoint (by
 *   convention `/ask`), or a robots.txt `Schemamap:` line, which names the site's schema.org
 *   feeds for NLWeb rather than the endpoint: the endpoint is then the conventional `/ask` of the
 *   origin.
 * - Answer (NLWeb's REST API, `/ask`): `GET ?query=…` (`streaming=false` for one JSON object)
 *   returns `query_id` and `results`, an array of items each with `url`, `name`, `site`, `score`,
 *   `description` and `schema_object` (the item as schema.org JSON). A server that streams anyway
 *   sends Server-Sent Events whose `data:` messages carry the same `results` arrays.
 *
 * Links and robots.txt lines are read by their readers (link-header.ts, html.ts, robots-txt.ts);
 * SSE framing by the MCP probe's event reader.
 */
import { isHtmlAnswer, isRecord, parseJson, resolveHttpUrl } from "../signals/blocking.ts";
import { parseSseEvents } from "../signals/mcp-probe.ts";
import type { ProbeAnswer } from "../signals/types.ts";
import { htmlLinks } from "./html.ts";
import { readLinkHeader } from "./link-header.ts";

/** The conventional path of an NLWeb endpoint. */
export const NLWEB_DEFAULT_PATH = "/ask";

/** The read-only query the check asks (`streaming=false`: one JSON answer, `mode=list`: no generation). */
export const NLWEB_QUERY = "what can I find on this site";

export interface NlwebAnnouncement {
  endpoint: string;
  via: "Link header" | "HTML link" | "robots.txt Schemamap";
}

/** Where the home page (or else robots.txt) announces an NLWeb endpoint; null when nothing does. */
export function nlwebAnnouncementOf(
  home: ProbeAnswer | null,
  schemamaps: readonly string[],
  origin: string,
): NlwebAnnouncement | null {
  if (home) {
    const pageUrl = home.finalUrl || home.url;
    const header = readLinkHeader(home.headers.get("link"), pageUrl, resolveHttpUrl).find((link) =>
      link.rels.includes("nlweb"),
    );
    if (header) return { endpoint: header.href, via: "Link header" };
    if (isHtmlAnswer(home)) {
      const element = htmlLinks(home.body, pageUrl, resolveHttpUrl).find((link) => link.rels.includes("nlweb"));
      if (element) return { endpoint: element.href, via: "HTML link" };
    }
  }
  if (schemamaps.some((value) => resolveHttpUrl(value, origin) !== null))
    return { endpoint: `${origin}${NLWEB_DEFAULT_PATH}`, via: "robots.txt Schemamap" };
  return null;
}

/** The URL of the check's query to an endpoint (its own query string kept). */
export function nlwebQueryUrl(endpoint: string): string | null {
  try {
    const url = new URL(endpoint);
    url.searchParams.set("query", NLWEB_QUERY);
    url.searchParams.set("streaming", "false");
    url.searchParams.set("mode", "list");
    return url.href;
  } catch {
    return null;
  }
}

export interface NlwebAnswer {
  /** The result items of the answer (every `results` array, streamed or not). */
  results: unknown[];
  /** Items lacking what NLWeb's result carries (`url` or `name`, as strings). */
  incomplete: number;
  streamed: boolean;
}

function resultsOf(value: unknown): unknown[] | null {
  if (!isRecord(value)) return null;
  if (Array.isArray(value.results)) return value.results;
  // A streamed message may carry its batch under `content` (message_type "result").
  if (typeof value.message_type === "string" && Array.isArray(value.content)) return value.content;
  return null;
}

/** Reads the endpoint's answer; a problem when it is not NLWeb's result shape. */
export function readNlwebAnswer(answer: ProbeAnswer): NlwebAnswer | { problem: string } {
  if (isHtmlAnswer(answer)) return { problem: "answered an HTML page, not NLWeb results" };
  const streamed = answer.contentType === "text/event-stream" || /^\s*(?:data|event):/.test(answer.body);
  let results: unknown[] | null = null;
  if (streamed) {
    for (const event of parseSseEvents(answer.body)) {
      const batch = resultsOf(parseJson(event.data));
      if (batch) results = [...(results ?? []), ...batch];
    }
  } else {
    const document = parseJson(answer.body);
    if (document === undefined) return { problem: "is not JSON" };
    results = resultsOf(document);
  }
  if (results === null) return { problem: "has no results array (NLWeb answers with results)" };
  const incomplete = results.filter(
    (item) => !isRecord(item) || typeof item.url !== "string" || typeof item.name !== "string",
  ).length;
  return { results, incomplete, streamed };
}
