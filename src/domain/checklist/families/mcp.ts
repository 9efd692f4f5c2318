import { readServerCard } from "../../readers/mcp-server-card.ts";
import { displayUrl, isHtmlAnswer, parseJson } from "../../signals/blocking.ts";
import type { ServerCardFinding } from "../../signals/crawl-state.ts";
import type { ProbeResponse } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  isErrorBody,
  isPlaceholder,
  type Judge,
  type Judgement,
  mirrorSignal,
  missing,
  standingOf,
  type Verdict,
  verdict,
} from "../check-helpers.ts";
import { type ChecklistAnswers, MCP_CARD_PATHS } from "../checklist-answers.ts";
import { aiCatalogEntries, MCP_CARD_TYPE } from "./ard.ts";

const FIX = {
  mcpCard: fixWith(
    "Publish an MCP server card (SEP-2127) at <endpoint>/server-card, and name it in your AI Catalog.",
    '{"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",\n "name": "com.example/mcp", "version": "1.0.0", "description": "What the server does",\n "remotes": [{"type": "streamable-http", "url": "https://example.com/mcp"}]}',
  ),
  mcpServer: fixWith(
    "Serve an MCP server over Streamable HTTP (at /mcp, or named by a server card) that answers initialize without authentication, or with an OAuth challenge.",
  ),
} as const;

export const checkMcpServer = mirrorSignal("has_mcp_server", FIX.mcpServer);

/**
 * The endpoint of the live MCP server, or null: the detector names a candidate endpoint in its
 * details even when no server answered there, and a card is looked for only beside a live one.
 */
export function liveMcpEndpoint(answers: ChecklistAnswers): string | null {
  const mcp = answers.signals.has_mcp_server;
  return mcp.status === "present" && typeof mcp.details?.endpoint === "string" ? mcp.details.endpoint : null;
}

/** Where server cards may be: the well-known paths, the catalog's card entries, `<endpoint>/server-card`. */
function serverCardUrls(answers: ChecklistAnswers): string[] {
  const urls = MCP_CARD_PATHS.map((path) => `${answers.origin}${path}`);
  for (const entry of aiCatalogEntries(answers)) {
    if (entry.type === MCP_CARD_TYPE && entry.url) urls.push(entry.url);
  }
  const endpoint = liveMcpEndpoint(answers);
  if (typeof endpoint === "string") urls.push(`${endpoint.replace(/\/+$/, "")}/server-card`);
  return [...new Set(urls)];
}

/** Where a card the crawl found came from, in the words of a reason. */
function serverCardRoute(found: ServerCardFinding, origin: string): string {
  const at = found.url ? displayUrl(found.url, origin) : null;
  const catalog = found.catalogUrl ? displayUrl(found.catalogUrl, origin) : "the AI Catalog";
  switch (found.route) {
    case "ai-catalog":
      return `the server card ${at} (named by ${catalog})`;
    case "ai-catalog-inline":
      return `the server card inline in ${catalog}`;
    case "endpoint":
      return `the server card ${at} (at the MCP endpoint)`;
    default:
      return at ?? "a server card";
  }
}

/** A document that may be an MCP server card, where it was found, and what its URLs resolve against. */
interface CardCandidate {
  where: string;
  document: unknown;
  response?: ProbeResponse;
  base?: string;
}

/** The server-card candidates in order of trust, the answers they came from, and any refusal or failure met. */
interface CardSearch {
  candidates: CardCandidate[];
  responses: ProbeResponse[];
  troubles: { status: "blocked" | "error"; clause: string }[];
}

/** A candidate with its reading as a card. */
type ReadCandidate = CardCandidate & { card: ReturnType<typeof readServerCard> };

/** A candidate that reads as a card (SEP-2127 or an older shape). */
type ValidCandidate = CardCandidate & { card: Extract<ReturnType<typeof readServerCard>, { shape: unknown }> };

export const checkMcpServerCard: Judge = (answers) => {
  const search: CardSearch = { candidates: [], responses: [], troubles: [] };
  // The cards the MCP detector found on its way to an endpoint (crawl discovery), each with the
  // route that led to it, come first; then any other candidate the checklist read (an invalid
  // card fails here, which the detector, looking for a usable lead, passes over).
  const fromDiscovery = addDiscoveredCards(answers, search);
  addFetchedCards(answers, search, fromDiscovery);
  addInlineCatalogCards(answers, search);
  const evidence = evidenceOf(...search.responses);
  if (search.candidates.length === 0) {
    const trouble = search.troubles[0];
    if (trouble) return verdict(trouble.status, trouble.clause, evidence, FIX.mcpCard);
    return missing(
      "no MCP server card at the well-known paths, in an AI Catalog or at the MCP endpoint",
      evidence,
      FIX.mcpCard,
    );
  }
  const read = search.candidates.map((candidate) => ({
    ...candidate,
    card: readServerCard(
      candidate.document,
      candidate.base ??
        (candidate.response ? candidate.response.finalUrl || candidate.response.url : `${answers.origin}/`),
    ),
  }));
  const valid = pickServerCard(read);
  if (!valid) {
    const first = read[0]!;
    return verdict(
      "fail",
      `${first.where} ${"problem" in first.card ? first.card.problem : "is not a server card"}`,
      evidence,
      FIX.mcpCard,
    );
  }
  return judgeCardAgainstLiveServer(answers, valid, evidence);
};

/** Adds the cards the crawl's discovery kept; returns their URLs, so they are not read twice. */
function addDiscoveredCards(answers: ChecklistAnswers, search: CardSearch): Set<string> {
  const fromDiscovery = new Set<string>();
  for (const found of answers.discovery.serverCards) {
    const response = found.url ? (answers.get.get(found.url) ?? undefined) : undefined;
    if (found.url) fromDiscovery.add(found.url);
    if (response) search.responses.push(response);
    const base = found.url ?? found.catalogUrl ?? `${answers.origin}/`;
    search.candidates.push({ where: serverCardRoute(found, answers.origin), document: found.card, response, base });
  }
  return fromDiscovery;
}

/** Adds each other card URL the checklist fetched whose answer is JSON; notes refusals and failures. */
function addFetchedCards(answers: ChecklistAnswers, search: CardSearch, fromDiscovery: Set<string>): void {
  for (const url of serverCardUrls(answers)) {
    if (fromDiscovery.has(url)) continue;
    const response = answers.get.get(url);
    if (!response) continue;
    search.responses.push(response);
    const standing = standingOf(response, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      search.troubles.push({ status: standing.kind, clause: standing.clause });
    if (standing.kind !== "answer" || isHtmlAnswer(standing.answer)) continue;
    const document = parseJson(standing.answer.body);
    if (document === undefined || isErrorBody(document)) continue;
    search.candidates.push({ where: standing.where, document, response });
  }
}

/** Adds the AI Catalog's inline cards, unless discovery already kept them. */
function addInlineCatalogCards(answers: ChecklistAnswers, search: CardSearch): void {
  const inlineFound = answers.discovery.serverCards.some((found) => found.route === "ai-catalog-inline");
  for (const entry of inlineFound ? [] : aiCatalogEntries(answers)) {
    if (entry.type === MCP_CARD_TYPE && entry.data !== undefined)
      search.candidates.push({ where: "the AI Catalog (inline)", document: entry.data });
  }
}

/** The first SEP-2127 card, else the first card of an older shape, else null. */
function pickServerCard(read: ReadCandidate[]): ValidCandidate | null {
  const valid = read.filter((candidate): candidate is ValidCandidate => "shape" in candidate.card);
  return valid.find((candidate) => candidate.card.shape === "sep-2127") ?? valid[0] ?? null;
}

/** A valid card's verdict: fail on a placeholder, warn unless it names the live server in the SEP-2127 shape. */
function judgeCardAgainstLiveServer(
  answers: ChecklistAnswers,
  valid: ValidCandidate,
  evidence: Verdict["evidence"],
): Judgement {
  const card = valid.card;
  const placeholder = card.endpoints.find((url) => isPlaceholder(url, answers.origin));
  if (placeholder)
    return verdict("fail", `${valid.where} names a placeholder endpoint (${placeholder})`, evidence, FIX.mcpCard);
  if (card.local) {
    // A local (stdio) server's card names packages to run, no endpoint: there is no live server to match.
    if (card.shape === "sep-2127")
      return verdict(
        "pass",
        `${valid.where} is a SEP-2127 server card (${card.name}) of a local server: it names packages to run, no remote endpoint`,
        evidence,
      );
    return verdict(
      "warn",
      `${valid.where} describes a local server (packages, no remote) in an older shape (not the SEP-2127 server-card schema)`,
      evidence,
      FIX.mcpCard,
    );
  }
  const mcp = answers.signals.has_mcp_server;
  const liveEndpoint = typeof mcp.details?.endpoint === "string" ? mcp.details.endpoint : null;
  if (mcp.status !== "present") {
    return verdict(
      "warn",
      `${valid.where} is a server card for ${card.endpoints[0]}, but no live MCP server answered there`,
      evidence,
      FIX.mcpServer,
    );
  }
  if (liveEndpoint && !card.endpoints.some((url) => url.replace(/\/+$/, "") === liveEndpoint.replace(/\/+$/, ""))) {
    return verdict(
      "warn",
      `${valid.where} names ${card.endpoints[0]}, but the live MCP server answered at ${liveEndpoint}`,
      evidence,
      FIX.mcpCard,
    );
  }
  if (card.shape === "legacy") {
    const why = card.enumerates
      ? "the older enumerating shape (SEP-2127 cards list no tools, resources or prompts)"
      : "an older shape (not the SEP-2127 server-card schema)";
    return verdict("warn", `${valid.where} describes the live server in ${why}`, evidence, FIX.mcpCard);
  }
  return verdict(
    "pass",
    `${valid.where} is a SEP-2127 server card (${card.name}) that matches the live server`,
    evidence,
  );
}

/** How a document reads as an A2A agent card, or a problem. */
