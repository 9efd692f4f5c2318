/**
 * The ARD / AI Catalog family: the manifest at /.well-known/ard.json (ARD v0.91) or its
 * predecessor /.well-known/ai-catalog.json, read by the one ARD reader (readers/ard.ts).
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { readAgentCard } from "../../readers/a2a-card.ts";
import { AI_CATALOG_PATH, type AiCatalog, ARD_PATH, readAiCatalogDocument } from "../../readers/ard.ts";
import { readServerCard } from "../../readers/mcp-server-card.ts";
import { readOpenApiDocument } from "../../readers/openapi.ts";
import { isHtmlAnswer, parseJson } from "../../signals/blocking.ts";
import type { ProbeAnswer, ProbeResponse } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  isErrorBody,
  isPlaceholder,
  type Judge,
  type Judgement,
  type Linked,
  linkedOutcome,
  missing,
  readJsonAnswer,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import { answerAt, type ChecklistAnswers, FOLLOW_UP_CAP } from "../checklist-answers.ts";

const FIX = {
  aiCatalog: fixWith(
    "Publish an ARD manifest at /.well-known/ard.json (ARD v0.91; /.well-known/ai-catalog.json is its older name): entries with a urn:air: identifier under your own domain, a displayName, a type, and a url that serves that type.",
    '{"specVersion": "1.0", "host": {"displayName": "Example", "identifier": "example.com"},\n "entries": [{"identifier": "urn:air:example.com:mcp:search", "displayName": "Example search",\n  "type": "application/mcp-server-card+json", "url": "https://example.com/mcp/server-card"}]}',
  ),
} as const;

const AI_CATALOG_TYPE = "application/ai-catalog+json";
export const MCP_CARD_TYPE = "application/mcp-server-card+json";

/** An entry of the site's manifest as the checks use it. */
interface CatalogEntry {
  identifier: string;
  type: string;
  url: string | null;
  data: unknown;
}

/** The manifest's two well-known paths, the current one first. */
const MANIFEST_PATHS = [
  { path: ARD_PATH, legacy: false },
  { path: AI_CATALOG_PATH, legacy: true },
] as const;

/** A manifest answer read by the ARD reader, or why it is none. */
type ManifestAt =
  | { kind: "catalog"; path: string; legacy: boolean; response: ProbeAnswer; catalog: AiCatalog }
  | { kind: "broken"; path: string; legacy: boolean; response: ProbeAnswer; problem: string }
  | { kind: "none"; path: string; legacy: boolean; response: ProbeResponse | undefined; judgement: Judgement };

/** One well-known path's answer: a manifest, a broken document, or none (with the judgement of its absence). */
function manifestAt(answers: ChecklistAnswers, path: string, legacy: boolean): ManifestAt {
  const response = answerAt(answers, path);
  const early = unanswered(response, answers, FIX.aiCatalog);
  if (early) return { kind: "none", path, legacy, response, judgement: early };
  const answer = response as ProbeAnswer;
  const read = readJsonAnswer(answer, path);
  if ("problem" in read)
    return {
      kind: "none",
      path,
      legacy,
      response,
      judgement: missing(read.problem, evidenceOf(response), FIX.aiCatalog),
    };
  if (isErrorBody(read.document))
    return {
      kind: "none",
      path,
      legacy,
      response,
      judgement: missing(`${path} answered a JSON error body`, evidenceOf(response), FIX.aiCatalog),
    };
  const catalog = readAiCatalogDocument(read.document, answer.finalUrl || answer.url);
  if ("problem" in catalog) return { kind: "broken", path, legacy, response: answer, problem: catalog.problem };
  if (catalog.problems.length > 0)
    return { kind: "broken", path, legacy, response: answer, problem: catalog.problems[0]! };
  return { kind: "catalog", path, legacy, response: answer, catalog };
}

/**
 * The site's manifest entries (for the server-card search and the follow-ups): the ones the MCP
 * detector read (crawl discovery, which prefers /.well-known/ard.json) when the crawl has that
 * reading, else read here from either path. A catch-all answer has none.
 */
export function aiCatalogEntries(answers: ChecklistAnswers): CatalogEntry[] {
  const found = answers.discovery.aiCatalog;
  const fromReading = (catalog: AiCatalog): CatalogEntry[] =>
    catalog.entries
      .filter((entry) => entry.url !== null || entry.data !== null)
      .map((entry) => ({
        identifier: entry.identifier ?? "",
        type: entry.kind === "mcp-server-card" ? MCP_CARD_TYPE : (entry.type ?? "").toLowerCase(),
        url: entry.url,
        data: entry.data ?? undefined,
      }));
  if (found) return found.status === "present" && found.catalog ? fromReading(found.catalog) : [];
  for (const { path, legacy } of MANIFEST_PATHS) {
    const at = manifestAt(answers, path, legacy);
    if (at.kind === "catalog") return fromReading(at.catalog);
  }
  return [];
}

/** The publisher domain of a `urn:air:` (or v0.9 `urn:ai:`) identifier, or null. */
export function publisherOf(identifier: string): { scheme: "air" | "ai"; publisher: string } | null {
  const match = /^urn:(air|ai):([^:]+):/i.exec(identifier.trim());
  if (!match) return null;
  return { scheme: match[1]!.toLowerCase() as "air" | "ai", publisher: match[2]!.toLowerCase() };
}

/**
 * True when a publisher domain belongs to the site: the site's host, a parent of it (acme.com for
 * www.acme.com), or a sibling under the same parent (api.acme.com for www.acme.com). Which
 * registrable domain a host belongs to is not knowable without the public suffix list: a parent
 * of two labels or more stands in for it (docs/crawling.md, "ARD").
 */
export function publisherBelongs(publisher: string, origin: string): boolean {
  const host = new URL(origin).hostname.toLowerCase();
  if (publisher === host || host.endsWith(`.${publisher}`) || publisher.endsWith(`.${host}`)) return true;
  const parent = host.split(".").slice(1).join(".");
  return parent.includes(".") && publisher.endsWith(`.${parent}`);
}

/** Whether an entry's answer is the kind of document its type declares (JSON types read by their reader). */
function servesDeclaredType(entry: AiCatalog["entries"][number], answer: ProbeAnswer): string | null {
  const type = (entry.type ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/html") return isHtmlAnswer(answer) ? null : "is not an HTML page";
  const jsonTyped = type.endsWith("+json") || type === "application/json";
  if (!jsonTyped && entry.kind === "other") return null;
  if (isHtmlAnswer(answer)) return "is an HTML page";
  if (entry.kind === "openapi") {
    const read = readOpenApiDocument(answer.body);
    return "problem" in read ? `is not an OpenAPI document (it ${read.problem})` : null;
  }
  const document = parseJson(answer.body);
  if (document === undefined) return "is not JSON";
  if (entry.kind === "mcp-server-card") {
    const card = readServerCard(document, answer.finalUrl || answer.url);
    return "problem" in card ? `is not an MCP server card (it ${card.problem})` : null;
  }
  if (entry.kind === "a2a-agent-card") {
    const card = readAgentCard(document);
    return "problem" in card ? `is not an A2A agent card (it ${card.problem})` : null;
  }
  if (entry.kind === "ai-catalog") {
    const nested = readAiCatalogDocument(document, answer.finalUrl || answer.url);
    return "problem" in nested ? `is not a catalog (it ${nested.problem})` : null;
  }
  return null;
}

export const checkAiCatalog: Judge = (answers) => {
  const at = MANIFEST_PATHS.map(({ path, legacy }) => manifestAt(answers, path, legacy));
  // The current path decides when it holds a document (a manifest, or a broken one); else the old one.
  const decisive = at.find((each) => each.kind !== "none");
  if (!decisive) {
    const current = at[0] as Extract<ManifestAt, { kind: "none" }>;
    const old = at[1] as Extract<ManifestAt, { kind: "none" }>;
    const evidence = evidenceOf(current.response, old.response);
    for (const each of [current, old]) {
      if (!("missing" in each.judgement)) return { ...each.judgement, evidence };
    }
    const why = [current, old]
      .map((each) => ("missing" in each.judgement ? each.judgement.reason.replace(/\.$/, "") : ""))
      .join("; ");
    return missing(`no ARD manifest at ${ARD_PATH} or ${AI_CATALOG_PATH}: ${why}`, evidence, FIX.aiCatalog);
  }
  const evidenceBase = evidenceOf(...at.map((each) => each.response));
  if (decisive.kind === "broken")
    return verdict("fail", `${decisive.path} ${decisive.problem}`, evidenceBase, FIX.aiCatalog);
  return judgeManifest(answers, decisive);
};

/** A manifest that reads: its placeholders, publisher, entries' answers, then the lesser flaws. */
function judgeManifest(answers: ChecklistAnswers, at: Extract<ManifestAt, { kind: "catalog" }>): Judgement {
  const catalog = at.catalog;
  const withUrl = catalog.entries.filter((entry) => entry.url);
  const checked = withUrl.slice(0, FOLLOW_UP_CAP).map((entry) => ({ entry, response: answers.get.get(entry.url!) }));
  const evidence = evidenceOf(at.response, ...checked.map((target) => target.response));
  const placeholder = withUrl.find((entry) => isPlaceholder(entry.url!, answers.origin));
  if (placeholder)
    return verdict("fail", `${at.path} names a placeholder URL (${placeholder.url})`, evidence, FIX.aiCatalog);
  const identifiers = catalog.entries.map((entry) => publisherOf(entry.identifier ?? ""));
  const foreign = identifiers.find((id) => id && !publisherBelongs(id.publisher, answers.origin));
  if (foreign)
    return verdict(
      "fail",
      `${at.path} names entries published by ${foreign.publisher}, a domain that is not this site's (${new URL(answers.origin).hostname})`,
      evidence,
      FIX.aiCatalog,
    );
  const outcomes = checked.map((target) => ({ ...target, linked: linkedOutcome(target.response, answers) }));
  const wrong = outcomes.flatMap((target) => {
    if (target.linked.state === "dead") return [`${target.entry.url} (${target.linked.clause.replace(/^\S+ /, "")})`];
    if (target.linked.state !== "answer") return [];
    const problem = servesDeclaredType(target.entry, target.linked.answer);
    return problem ? [`${target.entry.url} ${problem}, not the ${target.entry.type} it declares`] : [];
  });
  const undecided = outcomes.filter((target) => target.linked.state === "undecided");
  const good = outcomes.length - wrong.length - undecided.length;
  if (wrong.length > 0 && good === 0)
    return verdict(
      "fail",
      `${at.path}: the entries followed do not serve what they declare: ${wrong.join("; ")}`,
      evidence,
      FIX.aiCatalog,
    );
  if (undecided.length > 0 && wrong.length === 0) {
    const first = undecided[0]!.linked as Extract<Linked, { clause: string }>;
    return verdict(
      "error",
      `${at.path} reads as a manifest, but whether its entries resolve could not be decided: ${first.clause}`,
      evidence,
      FIX.aiCatalog,
    );
  }
  const flaws: string[] = [];
  if (wrong.length > 0)
    flaws.push(`${wrong.length} of ${outcomes.length} entries followed do not serve what they declare (${wrong[0]})`);
  if (at.legacy) flaws.push(`it is served only at the older path ${AI_CATALOG_PATH}, not ${ARD_PATH}`);
  const schemes = identifiers.filter((id) => id !== null).map((id) => id!.scheme);
  if (schemes.length > 0 && schemes.every((scheme) => scheme === "ai"))
    flaws.push("its identifiers use ARD v0.9's urn:ai: form only, not urn:air:");
  flaws.push(...catalog.warnings.slice(0, 2));
  const type = at.response.contentType;
  if (type !== AI_CATALOG_TYPE && type !== "application/ard+json")
    flaws.push(`it is served as ${type ?? "no content type"}, not ${AI_CATALOG_TYPE}`);
  const count = catalog.entries.length === 1 ? "1 entry" : `${catalog.entries.length} entries`;
  if (flaws.length > 0)
    return verdict("warn", `${at.path} is a manifest of ${count}, but ${flaws.join("; ")}`, evidence, FIX.aiCatalog);
  return verdict(
    "pass",
    `${at.path} is an ARD manifest of ${count}${checked.length > 0 ? " and the entries followed serve the types they declare" : ""}`,
    evidence,
  );
}
