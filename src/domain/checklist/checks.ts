/**
 * The 24 checks of the checklist as pure functions of the crawl's answers (checklist-answers.ts).
 * Each returns a verdict, or `missing` when the document is not there at all: whether a missing
 * document fails or is neutral depends on the kind of site and on whether the check is opt-in,
 * which run-checklist.ts decides in one place. Proof, not status codes: a document counts only
 * when its body is what it claims to be (an HTML page or a JSON error at a well-known path is a
 * soft 404, never a pass). Standards and choices: docs/crawling.md, "The checklist".
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { parseDictionary } from "structured-headers";
import { walkHtml } from "../classification/site-metadata.ts";
import { displayUrl, isHtmlAnswer, isRecord, parseJson, resolveHttpUrl } from "../signals/blocking.ts";
import type { ServerCardFinding } from "../signals/crawl-state.ts";
import { readApiCatalog } from "../signals/detect-structured-api.ts";
import type { ProbeAnswer, ProbeResponse, SignalFinding } from "../signals/types.ts";
import type { SignalField } from "../sites/site-fields.ts";
import {
  evidenceOf,
  findPlaceholder,
  fixWith,
  isCatchAll,
  isPlaceholder,
  parseLinkHeader,
  sentence,
  standingOf,
  type Verdict,
} from "./check-helpers.ts";
import {
  answerAt,
  CHECKLIST_PATHS,
  type ChecklistAnswers,
  FOLLOW_UP_CAP,
  MCP_CARD_PATHS,
} from "./checklist-answers.ts";
import type { CheckId } from "./checklist-definition.ts";

/** The document is not there: fail or neutral, by the site's kind (see run-checklist.ts). */
export interface Missing {
  missing: true;
  reason: string;
  evidence: Verdict["evidence"];
  fix: string;
}

export type Judgement = Verdict | Missing;

type Judge = (answers: ChecklistAnswers) => Judgement;

const missing = (reason: string, evidence: Verdict["evidence"], fix: string): Missing => ({
  missing: true,
  reason: sentence(reason),
  evidence,
  fix,
});

const verdict = (status: Verdict["status"], reason: string, evidence: Verdict["evidence"], fix?: string): Verdict => ({
  status,
  reason: sentence(reason),
  evidence,
  ...(status === "pass" || fix === undefined ? {} : { fix }),
});

/** The verdict of a response that gave no 2xx answer: blocked, error, or missing. */
function unanswered(response: ProbeResponse | undefined, answers: ChecklistAnswers, fix: string): Judgement | null {
  const standing = standingOf(response, answers);
  if (standing.kind === "answer") return null;
  const evidence = evidenceOf(response);
  if (standing.kind === "absent") return missing(standing.clause, evidence, fix);
  return verdict(standing.kind, standing.clause, evidence, fix);
}

/** A JSON document from an answer, or null with a clause saying why not. */
function readJsonAnswer(answer: ProbeAnswer, where: string): { document: unknown } | { problem: string } {
  if (isHtmlAnswer(answer)) return { problem: `${where} answered 200 with an HTML page, not the document` };
  const document = parseJson(answer.body);
  if (document === undefined) return { problem: `${where} is not JSON (${answer.contentType ?? "no content type"})` };
  return { document };
}

/** A JSON error body a catch-all route gives for any path (`{"error": "not found"}`). */
function isErrorBody(document: unknown): boolean {
  if (!isRecord(document)) return false;
  const keys = Object.keys(document).map((key) => key.toLowerCase());
  return (
    keys.length > 0 && keys.length <= 4 && keys.some((key) => ["error", "errors", "message", "detail"].includes(key))
  );
}

// ---------------------------------------------------------------- signals mirrored

/** A check that mirrors a signal: pass exactly when the signal is present, so the two agree. */
function mirrorSignal(field: SignalField, fix: string, passNote = ""): Judge {
  return (answers) => {
    const finding: SignalFinding = answers.signals[field];
    const evidence = finding.fetched.map((record) => ({ ...record }));
    if (finding.status === "present") return verdict("pass", `${finding.reason}${passNote}`, evidence);
    if (finding.status === "absent") return missing(finding.reason, evidence, fix);
    return verdict(finding.status, finding.reason, evidence, fix);
  };
}

const FIX = {
  robots: fixWith(
    "Serve a plain-text robots.txt at /robots.txt (RFC 9309), with Content-Type: text/plain.",
    "User-agent: *\nAllow: /\n\nSitemap: https://example.com/sitemap.xml",
  ),
  sitemap: fixWith(
    "Publish an XML sitemap at /sitemap.xml and name it in robots.txt with a Sitemap: line.",
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>https://example.com/</loc></url>\n</urlset>',
  ),
  linkHeaders: fixWith(
    "Name your agent resources in the home page's Link header (RFC 8288).",
    'Link: </.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc", </llms.txt>; rel="describedby"; type="text/markdown"',
  ),
  markdown: fixWith(
    "Answer GET / with Accept: text/markdown with a Markdown version of the page, Content-Type: text/markdown and Vary: Accept.",
    "HTTP/1.1 200 OK\nContent-Type: text/markdown; charset=utf-8\nVary: Accept\n\n# Example\n\nWhat this site offers, in Markdown.",
  ),
  llms: fixWith(
    "Publish /llms.txt: Markdown that opens with an H1 naming the site, then links to your key pages.",
    "# Example\n\n> What Example does, in one line.\n\n## Docs\n\n- [Quick start](https://example.com/docs/start.md)",
  ),
  llmsFull: fixWith(
    "Publish /llms-full.txt (your documentation in one Markdown file) and link it from /llms.txt.",
    "# Example\n\n> Everything about Example in one file.\n\n## Getting started\n\nInstall with …",
  ),
  schemaOrg: fixWith(
    "Describe the site with schema.org JSON-LD in the home page's <head>.",
    '<script type="application/ld+json">\n{"@context": "https://schema.org", "@type": "Organization", "name": "Example", "url": "https://example.com"}\n</script>',
  ),
  schemaActions: fixWith(
    "Declare what agents can do on the site with a schema.org potentialAction whose target is an EntryPoint.",
    '<script type="application/ld+json">\n{"@context": "https://schema.org", "@type": "WebSite", "url": "https://example.com/",\n "potentialAction": {"@type": "SearchAction",\n  "target": {"@type": "EntryPoint", "urlTemplate": "https://example.com/search?q={query}"},\n  "query-input": "required name=query"}}\n</script>',
  ),
  aiRules: fixWith(
    "Say in robots.txt what AI crawlers may do: name them, or add a Content-Signal line.",
    "User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /",
  ),
  contentSignals: fixWith(
    "Add a Content-Signal line to robots.txt using only search, ai-input and ai-train, each yes or no.",
    "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /",
  ),
  contentUsage: fixWith(
    "State your AI usage preferences with an AIPREF Content-Usage rule in robots.txt (or a Content-Usage HTTP header): a structured-field dictionary.",
    "User-agent: *\nContent-Usage: train-ai=n\nAllow: /",
  ),
  webBotAuth: fixWith(
    "If your site runs bots, publish their signing keys as a JWKS at /.well-known/http-message-signatures-directory with Content-Type: application/http-message-signatures-directory+json.",
    '{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "<base64url public key>"}]}',
  ),
  apiCatalog: fixWith(
    "Publish an RFC 9727 API catalog at /.well-known/api-catalog (Content-Type: application/linkset+json) whose service-desc links resolve.",
    '{"linkset": [{"anchor": "https://example.com/api",\n  "service-desc": [{"href": "https://example.com/openapi.json", "type": "application/openapi+json"}],\n  "service-doc": [{"href": "https://example.com/docs", "type": "text/html"}]}]}',
  ),
  openapi: fixWith(
    "Publish an OpenAPI document with at least one path, at /openapi.json or named by a service-desc link.",
    '{"openapi": "3.1.0", "info": {"title": "Example API", "version": "1.0.0"},\n "paths": {"/items": {"get": {"responses": {"200": {"description": "The items"}}}}}}',
  ),
  structuredApi: fixWith(
    "Expose a machine-readable API: GraphQL at /graphql, a JSON API at /api, or APIs listed in /.well-known/api-catalog.",
  ),
  aiCatalog: fixWith(
    "Publish an AI Catalog at /.well-known/ai-catalog.json (Content-Type: application/ai-catalog+json) whose entries' URLs resolve.",
    '{"specVersion": "1.0", "entries": [{"identifier": "urn:example:mcp", "type": "application/mcp-server-card+json",\n  "url": "https://example.com/mcp/server-card"}]}',
  ),
  mcpCard: fixWith(
    "Publish an MCP server card (SEP-2127) at <endpoint>/server-card, and name it in your AI Catalog.",
    '{"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",\n "name": "com.example/mcp", "version": "1.0.0", "description": "What the server does",\n "remotes": [{"type": "streamable-http", "url": "https://example.com/mcp"}]}',
  ),
  mcpServer: fixWith(
    "Serve an MCP server over Streamable HTTP (at /mcp, or named by a server card) that answers initialize without authentication, or with an OAuth challenge.",
  ),
  a2a: fixWith(
    "Publish an A2A 1.0 agent card at /.well-known/agent-card.json.",
    '{"name": "Example Agent", "description": "What the agent does", "version": "1.0.0",\n "supportedInterfaces": [{"url": "https://example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],\n "capabilities": {"streaming": false}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],\n "skills": [{"id": "answer", "name": "Answer", "description": "Answers questions", "tags": ["support"]}]}',
  ),
  skills: fixWith(
    "Publish an Agent Skills index at /.well-known/agent-skills/index.json whose digests match the files they name.",
    '{"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json",\n "skills": [{"name": "example", "type": "skill-md", "description": "What the skill does",\n  "url": "/.well-known/agent-skills/example/SKILL.md", "digest": "sha256:<hex of the file>"}]}',
  ),
  webmcp: fixWith(
    "Declare WebMCP tools on your forms with the toolname and tooldescription attributes.",
    '<form toolname="searchProducts" tooldescription="Search the catalogue by keyword." action="/search">\n  <input name="q" toolparamdescription="Words to search for">\n</form>',
  ),
  protectedResource: fixWith(
    "Publish RFC 9728 metadata at /.well-known/oauth-protected-resource naming this origin and its authorization servers.",
    '{"resource": "https://example.com", "authorization_servers": ["https://auth.example.com"],\n "bearer_methods_supported": ["header"]}',
  ),
  authorizationServer: fixWith(
    "Publish RFC 8414 metadata at /.well-known/oauth-authorization-server whose issuer is this origin.",
    '{"issuer": "https://example.com", "authorization_endpoint": "https://example.com/authorize",\n "token_endpoint": "https://example.com/token", "response_types_supported": ["code"]}',
  ),
  aiPlugin: fixWith(
    "ChatGPT plugins were retired in April 2024: publish an MCP server and an OpenAPI document instead.",
  ),
} as const;

// ---------------------------------------------------------------- discoverability

const ROBOTS_FIELDS = /^(user-agent|allow|disallow|sitemap|crawl-delay|content-signal|content-usage|host)\s*:/i;

/** The Sitemap: URLs named in a robots.txt. */
export function robotsSitemaps(body: string, base: string): string[] {
  const urls: string[] = [];
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const match = /^\s*sitemap\s*:\s*(\S+)/i.exec(raw.replace(/#.*$/, ""));
    const url = match ? resolveHttpUrl(match[1]!, base) : null;
    if (url && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

/** The robots.txt answer when it is one (text, not HTML), else null. */
function robotsText(answers: ChecklistAnswers): string | null {
  const response = answerAt(answers, CHECKLIST_PATHS.robots);
  const standing = standingOf(response, answers);
  if (standing.kind !== "answer" || isHtmlAnswer(standing.answer)) return null;
  return standing.answer.body;
}

export const checkRobotsTxt: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.robots);
  const early = unanswered(response, answers, FIX.robots);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  if (isHtmlAnswer(answer))
    return verdict("fail", "/robots.txt answered with an HTML page, not a robots.txt", evidence, FIX.robots);
  const lines = answer.body
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean);
  const known = lines.filter((line) => ROBOTS_FIELDS.test(line));
  if (lines.length > 0 && known.length === 0) {
    return verdict(
      "fail",
      "/robots.txt holds no robots.txt rule (no User-agent, Allow, Disallow or Sitemap line)",
      evidence,
      FIX.robots,
    );
  }
  if (lines.length === 0)
    return verdict("warn", "/robots.txt is empty: it allows everything and says nothing", evidence, FIX.robots);
  const groups = known.filter((line) => /^user-agent\s*:/i.test(line)).length;
  if (answer.contentType && answer.contentType !== "text/plain") {
    return verdict(
      "warn",
      `/robots.txt has ${known.length} rules but is served as ${answer.contentType}, not text/plain`,
      evidence,
      FIX.robots,
    );
  }
  return verdict(
    "pass",
    `/robots.txt is a robots.txt with ${known.length} rules in ${groups} user-agent lines`,
    evidence,
  );
};

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

/** What a sitemap answer holds: a urlset or an index with their entry counts, or a problem. */
export function readSitemap(
  body: string,
): { kind: "urlset" | "index" | "text"; entries: number } | { problem: string } {
  const trimmed = body.replace(/^\uFEFF/, "").trim();
  if (!trimmed.startsWith("<")) {
    const lines = trimmed
      .split(/\r\n|\r|\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    // The protocol's text format: one absolute URL per line.
    if (lines.length > 0 && lines.every((line) => /^https?:\/\/\S+$/.test(line)))
      return { kind: "text", entries: lines.length };
    return { problem: "is neither XML nor a text sitemap" };
  }
  if (XMLValidator.validate(trimmed) !== true) return { problem: "is not well-formed XML" };
  const document = xmlParser.parse(trimmed) as Record<string, unknown>;
  const urlset = document.urlset;
  const index = document.sitemapindex;
  const count = (items: unknown) =>
    Array.isArray(items)
      ? items.filter((item) => isRecord(item) && typeof item.loc === "string" && /^https?:\/\//.test(item.loc.trim()))
          .length
      : 0;
  if (urlset !== undefined) return { kind: "urlset", entries: isRecord(urlset) ? count(urlset.url) : 0 };
  if (index !== undefined) return { kind: "index", entries: isRecord(index) ? count(index.sitemap) : 0 };
  return { problem: "is XML but neither a <urlset> nor a <sitemapindex>" };
}

function sitemapCandidates(answers: ChecklistAnswers): string[] {
  const robots = robotsText(answers);
  const named = robots ? robotsSitemaps(robots, `${answers.origin}/robots.txt`) : [];
  return [...named.slice(0, 1), `${answers.origin}${CHECKLIST_PATHS.sitemap}`];
}

export const checkSitemap: Judge = (answers) => {
  const candidates = sitemapCandidates(answers);
  const responses = candidates.map((url) => answers.get.get(url));
  const evidence = evidenceOf(...responses);
  const problems: string[] = [];
  let blockedOrError: Verdict | null = null;
  for (const [index, response] of responses.entries()) {
    const standing = standingOf(response, answers);
    const named = index === 0 && candidates.length > 1 ? " (named in robots.txt)" : "";
    if (standing.kind !== "answer") {
      if (standing.kind !== "absent" && !blockedOrError)
        blockedOrError = verdict(standing.kind, standing.clause, evidence, FIX.sitemap);
      problems.push(`${standing.clause}${named}`);
      continue;
    }
    if (isHtmlAnswer(standing.answer)) {
      problems.push(`${standing.where}${named} answered with an HTML page`);
      continue;
    }
    if (/\.gz$/i.test(standing.answer.url) || standing.answer.contentType === "application/gzip") {
      return verdict("warn", `${standing.where}${named} is gzip-compressed; it was not read`, evidence, FIX.sitemap);
    }
    const read = readSitemap(standing.answer.body);
    if ("problem" in read) {
      return verdict("fail", `${standing.where}${named} ${read.problem}`, evidence, FIX.sitemap);
    }
    const what = read.kind === "index" ? "a sitemap index" : read.kind === "text" ? "a text sitemap" : "a sitemap";
    if (read.entries === 0)
      return verdict("warn", `${standing.where}${named} is ${what} with no entries`, evidence, FIX.sitemap);
    return verdict("pass", `${standing.where}${named} is ${what} of ${read.entries} entries`, evidence);
  }
  if (blockedOrError) return blockedOrError;
  return missing(`no sitemap: ${problems.join("; ")}`, evidence, FIX.sitemap);
};

const AGENT_RELATIONS = ["service-desc", "service-doc", "api-catalog", "describedby", "service-meta"];

export const checkLinkHeaders: Judge = (answers) => {
  const home = answerAt(answers, "/");
  const early = unanswered(home, answers, FIX.linkHeaders);
  if (early) return early;
  const answer = home as ProbeAnswer;
  const evidence = evidenceOf(home);
  const links = parseLinkHeader(answer.headers.get("link"), answer.finalUrl || answer.url);
  const agent = links.filter(
    (link) =>
      link.rels.some((rel) => AGENT_RELATIONS.includes(rel)) ||
      /\/llms(?:-full)?\.txt$/i.test(new URL(link.href).pathname),
  );
  if (agent.length > 0) {
    const names = [...new Set(agent.flatMap((link) => link.rels.filter((rel) => AGENT_RELATIONS.includes(rel))))];
    const shown = names.length > 0 ? names.join(", ") : "an llms.txt";
    return verdict(
      "pass",
      `the home page's Link header names ${agent.length === 1 ? "an agent resource" : `${agent.length} agent resources`} (${shown})`,
      evidence,
    );
  }
  if (links.length > 0) {
    return missing(
      `the home page's Link header names no agent resource (only ${[...new Set(links.flatMap((link) => link.rels))].join(", ") || "links without rel"})`,
      evidence,
      FIX.linkHeaders,
    );
  }
  return missing("the home page sends no Link header", evidence, FIX.linkHeaders);
};

// ---------------------------------------------------------------- content

export const checkMarkdownNegotiation: Judge = (answers) => {
  const response = answers.markdownHome;
  const early = unanswered(response ?? undefined, answers, FIX.markdown);
  if (early)
    return "missing" in early
      ? missing(`GET / with Accept: text/markdown: ${early.reason}`, early.evidence, FIX.markdown)
      : early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  const type = answer.contentType ?? "";
  const isMarkdownType = type === "text/markdown" || type === "text/x-markdown";
  if (isMarkdownType && isHtmlAnswer(answer)) {
    return verdict(
      "fail",
      "GET / with Accept: text/markdown answered an HTML page labelled text/markdown",
      evidence,
      FIX.markdown,
    );
  }
  if (!isMarkdownType) {
    return missing(
      `GET / with Accept: text/markdown answered ${type || "no content type"}, not Markdown`,
      evidence,
      FIX.markdown,
    );
  }
  const vary = (answer.headers.get("vary") ?? "")
    .toLowerCase()
    .split(",")
    .map((part) => part.trim());
  if (!vary.includes("accept") && !vary.includes("*")) {
    return verdict(
      "warn",
      "GET / with Accept: text/markdown answers Markdown, but without Vary: Accept, so caches may serve it to browsers",
      evidence,
      FIX.markdown,
    );
  }
  return verdict("pass", "GET / with Accept: text/markdown answers Markdown (text/markdown, Vary: Accept)", evidence);
};

export const checkLlmsTxt = mirrorSignal("has_llms_txt", FIX.llms);

/** True when a text reads as Markdown: a heading, a list or a link in its first lines. */
function looksLikeMarkdown(body: string): boolean {
  const head = body.slice(0, 16_384);
  return /^\s{0,3}#{1,6}\s+\S/m.test(head) || /^\s*[-*+]\s+\S/m.test(head) || /\[[^\]]+\]\([^)]+\)/.test(head);
}

export const checkLlmsFullTxt: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.llmsFull);
  const early = unanswered(response, answers, FIX.llmsFull);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  if (isHtmlAnswer(answer))
    return missing("/llms-full.txt answered with an HTML page (a soft 404)", evidence, FIX.llmsFull);
  if (parseJson(answer.body) !== undefined)
    return missing("/llms-full.txt answered JSON, not Markdown", evidence, FIX.llmsFull);
  if (!looksLikeMarkdown(answer.body))
    return verdict("fail", "/llms-full.txt is not Markdown (no heading, list or link)", evidence, FIX.llmsFull);
  const llms = answerAt(answers, CHECKLIST_PATHS.llmsTxt);
  const llmsAnswer = llms?.ok && llms.status === 200 && !isHtmlAnswer(llms) ? llms : null;
  if (!llmsAnswer || !/llms-full\.txt/i.test(llmsAnswer.body)) {
    return verdict(
      "warn",
      "/llms-full.txt is Markdown, but /llms.txt does not link to it",
      evidenceOf(response, llms),
      FIX.llmsFull,
    );
  }
  return verdict("pass", "/llms-full.txt is Markdown and /llms.txt links to it", evidenceOf(response, llms));
};

export const checkSchemaOrg = mirrorSignal("has_schema_org", FIX.schemaOrg);

interface FoundAction {
  type: string;
  target: string | null;
  entryPoint: boolean;
  queryInput: boolean;
}

function collectActions(node: unknown, found: FoundAction[], depth = 0): void {
  if (depth > 12 || found.length > 20) return;
  if (Array.isArray(node)) {
    for (const item of node) collectActions(item, found, depth + 1);
    return;
  }
  if (!isRecord(node)) return;
  const actions = node.potentialAction;
  for (const action of Array.isArray(actions) ? actions : actions === undefined ? [] : [actions]) {
    if (!isRecord(action)) continue;
    const type = typeof action["@type"] === "string" ? action["@type"] : "Action";
    const targets = Array.isArray(action.target) ? action.target : [action.target];
    for (const target of targets) {
      let url: string | null = null;
      let entryPoint = false;
      if (typeof target === "string") url = target;
      else if (isRecord(target)) {
        const template = target.urlTemplate ?? target.url;
        url = typeof template === "string" ? template : null;
        entryPoint = typeof target.urlTemplate === "string" || typeof target.httpMethod === "string";
      }
      const queryInput =
        action["query-input"] !== undefined || Object.keys(action).some((key) => key.endsWith("-input"));
      found.push({ type, target: url, entryPoint, queryInput });
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== "potentialAction" && typeof value === "object" && value !== null)
      collectActions(value, found, depth + 1);
  }
}

/** The potentialAction entries of a page's JSON-LD. */
export function findSchemaActions(html: string): FoundAction[] {
  const found: FoundAction[] = [];
  walkHtml(html, (tag) => {
    if (tag.name !== "script" || !tag.content) return;
    const type = (tag.attributes.type ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/ld+json") return;
    collectActions(parseJson(tag.content.trim().replace(/^<!--/, "").replace(/-->$/, "")), found);
  });
  return found;
}

export const checkSchemaOrgActions: Judge = (answers) => {
  const home = answerAt(answers, "/");
  const early = unanswered(home, answers, FIX.schemaActions);
  if (early) return early;
  const answer = home as ProbeAnswer;
  const evidence = evidenceOf(home);
  if (!isHtmlAnswer(answer)) return missing("the home page is not HTML", evidence, FIX.schemaActions);
  const actions = findSchemaActions(answer.body);
  if (actions.length === 0)
    return missing("the home page's JSON-LD declares no potentialAction", evidence, FIX.schemaActions);
  const usable = actions.filter((action) => action.target && (action.entryPoint || action.queryInput));
  const placeholder = usable.find((action) => action.target && isPlaceholder(action.target, answers.origin));
  const good = usable.filter(
    (action) =>
      action.target &&
      !isPlaceholder(action.target, answers.origin) &&
      resolveHttpUrl(action.target.replace(/\{[^}]*\}/g, "x"), answer.url),
  );
  if (good.length > 0) {
    const types = [...new Set(good.map((action) => action.type))].join(", ");
    return verdict("pass", `the home page declares ${types} with an entry point (${good[0]!.target})`, evidence);
  }
  if (placeholder) {
    return verdict(
      "fail",
      `the home page's potentialAction targets an unfilled template (${placeholder.target})`,
      evidence,
      FIX.schemaActions,
    );
  }
  return verdict(
    "fail",
    "the home page declares a potentialAction without an EntryPoint (no urlTemplate, httpMethod or query-input)",
    evidence,
    FIX.schemaActions,
  );
};

// ---------------------------------------------------------------- bot access

export const checkAiBotRules = mirrorSignal("has_robots_ai", FIX.aiRules);

const CONTENT_SIGNAL_KEYS = ["search", "ai-input", "ai-train"];

export const checkContentSignals: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.robots);
  const early = unanswered(response, answers, FIX.contentSignals);
  if (early) return early;
  const evidence = evidenceOf(response);
  const body = robotsText(answers);
  if (body === null)
    return missing(
      "/robots.txt answered with an HTML page, so it holds no Content-Signal line",
      evidence,
      FIX.contentSignals,
    );
  const pairs: [string, string][] = [];
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const match = /^\s*content-signal\s*:(.*)$/i.exec(raw.replace(/#.*$/, ""));
    if (!match) continue;
    for (const part of match[1]!.split(",")) {
      const [key, value] = part.split("=").map((piece) => piece.trim().toLowerCase());
      if (key) pairs.push([key, value ?? ""]);
    }
  }
  if (pairs.length === 0) return missing("/robots.txt has no Content-Signal line", evidence, FIX.contentSignals);
  const unknown = pairs.filter(([key]) => !CONTENT_SIGNAL_KEYS.includes(key)).map(([key]) => key);
  const badValues = pairs.filter(
    ([key, value]) => CONTENT_SIGNAL_KEYS.includes(key) && value !== "yes" && value !== "no",
  );
  const known = pairs.filter(
    ([key, value]) => CONTENT_SIGNAL_KEYS.includes(key) && (value === "yes" || value === "no"),
  );
  if (known.length === 0) {
    return verdict(
      "fail",
      `/robots.txt's Content-Signal lines use no defined signal with yes or no (${pairs.map(([k, v]) => `${k}=${v}`).join(", ")})`,
      evidence,
      FIX.contentSignals,
    );
  }
  const shown = known.map(([key, value]) => `${key}=${value}`).join(", ");
  if (unknown.length > 0 || badValues.length > 0) {
    const problems = [
      ...(unknown.length > 0 ? [`unknown keys ${[...new Set(unknown)].join(", ")}`] : []),
      ...(badValues.length > 0 ? [`values other than yes/no for ${badValues.map(([key]) => key).join(", ")}`] : []),
    ];
    return verdict(
      "warn",
      `/robots.txt sets Content Signals (${shown}) with ${problems.join(" and ")}`,
      evidence,
      FIX.contentSignals,
    );
  }
  return verdict("pass", `/robots.txt sets Content Signals (${shown})`, evidence);
};

/** The AIPREF vocabulary's usage categories (draft-ietf-aipref-vocab) and their y/n values. */
const AIPREF_KEYS = ["train-ai", "train-genai", "ai-use", "search", "bots", "automated-processing"];

/** A Content-Usage value read as an RFC 9651 dictionary: its pairs, or a problem. */
export function readContentUsage(value: string): { pairs: [string, string][] } | { problem: string } {
  try {
    const dictionary = parseDictionary(value);
    const pairs: [string, string][] = [];
    for (const [key, [item]] of dictionary) {
      const text = typeof item === "object" && item !== null && "toString" in item ? String(item) : String(item);
      pairs.push([key, text]);
    }
    if (pairs.length === 0) return { problem: "is empty" };
    return { pairs };
  } catch {
    return { problem: "does not parse as a structured-field dictionary (RFC 9651)" };
  }
}

export const checkContentUsage: Judge = (answers) => {
  const robots = answerAt(answers, CHECKLIST_PATHS.robots);
  const home = answerAt(answers, "/");
  const evidence = evidenceOf(robots, home);
  const rules: { where: string; value: string }[] = [];
  const body = robotsText(answers);
  if (body !== null) {
    for (const raw of body.split(/\r\n|\r|\n/)) {
      const match = /^\s*content-usage\s*:(.*)$/i.exec(raw.replace(/#.*$/, ""));
      if (!match) continue;
      // The attach draft lets a rule start with a path the preference is scoped to.
      const value = match[1]!.trim().replace(/^\/\S*\s+/, "");
      rules.push({ where: "/robots.txt", value });
    }
  }
  const header = home?.ok ? home.headers.get("content-usage") : null;
  if (header) rules.push({ where: "the home page's Content-Usage header", value: header });
  if (rules.length === 0) {
    const robotsStanding = standingOf(robots, answers);
    if (robotsStanding.kind === "blocked" || robotsStanding.kind === "error") {
      return verdict(robotsStanding.kind, robotsStanding.clause, evidence, FIX.contentUsage);
    }
    return missing("no Content-Usage rule in /robots.txt or on the home page", evidence, FIX.contentUsage);
  }
  const read = rules.map((rule) => ({ ...rule, read: readContentUsage(rule.value) }));
  const broken = read.find((rule) => "problem" in rule.read);
  if (broken && "problem" in broken.read) {
    return verdict(
      "fail",
      `${broken.where}'s Content-Usage "${broken.value.slice(0, 60)}" ${broken.read.problem}`,
      evidence,
      FIX.contentUsage,
    );
  }
  const pairs = read.flatMap((rule) => ("pairs" in rule.read ? rule.read.pairs : []));
  const unknown = pairs.filter(([key]) => !AIPREF_KEYS.includes(key)).map(([key]) => key);
  const badValues = pairs.filter(([, value]) => value !== "y" && value !== "n").map(([key]) => key);
  const shown = pairs.map(([key, value]) => `${key}=${value}`).join(", ");
  if (unknown.length > 0 || badValues.length > 0) {
    const problems = [
      ...(unknown.length > 0 ? [`keys outside the AIPREF vocabulary (${[...new Set(unknown)].join(", ")})`] : []),
      ...(badValues.length > 0 ? [`values other than y/n (${badValues.join(", ")})`] : []),
    ];
    return verdict(
      "warn",
      `${read[0]!.where} states AI usage preferences (${shown}) with ${problems.join(" and ")}`,
      evidence,
      FIX.contentUsage,
    );
  }
  return verdict("pass", `${read[0]!.where} states AI usage preferences (${shown})`, evidence);
};

const WEB_BOT_AUTH_TYPE = "application/http-message-signatures-directory+json";

export const checkWebBotAuth: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.webBotAuth);
  const early = unanswered(response, answers, FIX.webBotAuth);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  const read = readJsonAnswer(answer, "/.well-known/http-message-signatures-directory");
  if ("problem" in read) return missing(read.problem, evidence, FIX.webBotAuth);
  if (isErrorBody(read.document))
    return missing("the key directory path answered a JSON error body", evidence, FIX.webBotAuth);
  const keys = isRecord(read.document) ? read.document.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) {
    return verdict(
      "fail",
      "/.well-known/http-message-signatures-directory is JSON but not a JWKS (no keys array)",
      evidence,
      FIX.webBotAuth,
    );
  }
  const badKey = keys.findIndex((key) => !isRecord(key) || typeof key.kty !== "string");
  if (badKey >= 0)
    return verdict("fail", `key ${badKey + 1} of the directory is not a JWK (no kty)`, evidence, FIX.webBotAuth);
  const placeholder = findPlaceholder(keys, answers.origin);
  if (placeholder)
    return verdict("fail", `the directory holds a placeholder (${placeholder.slice(0, 60)})`, evidence, FIX.webBotAuth);
  if (answer.contentType !== WEB_BOT_AUTH_TYPE) {
    return verdict(
      "warn",
      `the key directory holds ${keys.length} keys but is served as ${answer.contentType ?? "no content type"}, not ${WEB_BOT_AUTH_TYPE}`,
      evidence,
      FIX.webBotAuth,
    );
  }
  return verdict(
    "pass",
    `the key directory holds ${keys.length === 1 ? "1 key" : `${keys.length} keys`}, served as ${WEB_BOT_AUTH_TYPE}`,
    evidence,
  );
};

// ---------------------------------------------------------------- discovery

/** A 2xx answer that is a document: not an HTML page, not the site's catch-all answer. */
function answered2xx(response: ProbeResponse | undefined, answers: ChecklistAnswers): boolean {
  return Boolean(
    response?.ok &&
      response.status >= 200 &&
      response.status < 300 &&
      !isHtmlAnswerSafe(response) &&
      !isCatchAll(response, answers),
  );
}

function isHtmlAnswerSafe(response: ProbeResponse): boolean {
  return response.ok ? isHtmlAnswer(response) : false;
}

/** The service-desc and service-doc links of the API catalog, in order. */
function apiCatalogLinks(answers: ChecklistAnswers): { desc: string[]; doc: string[] } | null {
  const response = answerAt(answers, CHECKLIST_PATHS.apiCatalog);
  if (!response?.ok || response.status !== 200) return null;
  const catalog = readApiCatalog(response);
  if (!catalog) return null;
  return {
    desc: [...new Set(catalog.entries.flatMap((entry) => entry.serviceDesc))],
    doc: [...new Set(catalog.entries.flatMap((entry) => entry.serviceDoc))],
  };
}

export const checkApiCatalog: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.apiCatalog);
  const early = unanswered(response, answers, FIX.apiCatalog);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const read = readJsonAnswer(answer, "/.well-known/api-catalog");
  if ("problem" in read) return missing(read.problem, evidenceOf(response), FIX.apiCatalog);
  const links = apiCatalogLinks(answers);
  if (!links) {
    if (isErrorBody(read.document))
      return missing("/.well-known/api-catalog answered a JSON error body", evidenceOf(response), FIX.apiCatalog);
    return verdict(
      "fail",
      "/.well-known/api-catalog is JSON but not a linkset (no linkset array)",
      evidenceOf(response),
      FIX.apiCatalog,
    );
  }
  const targets = [...links.desc, ...links.doc];
  if (targets.length === 0) {
    return verdict(
      "fail",
      "the API catalog names no service-desc or service-doc link",
      evidenceOf(response),
      FIX.apiCatalog,
    );
  }
  const checked = targets.slice(0, FOLLOW_UP_CAP).map((url) => ({ url, response: answers.get.get(url) }));
  const evidence = evidenceOf(response, ...checked.map((target) => target.response));
  const placeholder = targets.find((url) => isPlaceholder(url, answers.origin));
  const dead = checked.filter(
    (target) =>
      !target.response?.ok ||
      target.response.status < 200 ||
      target.response.status >= 300 ||
      isCatchAll(target.response, answers),
  );
  if (placeholder)
    return verdict("fail", `the API catalog links to a placeholder (${placeholder})`, evidence, FIX.apiCatalog);
  if (dead.length === checked.length) {
    return verdict(
      "fail",
      `none of the API catalog's links that were followed resolve (${dead.map((target) => target.url).join(", ")})`,
      evidence,
      FIX.apiCatalog,
    );
  }
  if (dead.length > 0) {
    return verdict(
      "warn",
      `${dead.length} of ${checked.length} API catalog links followed do not resolve (${dead[0]!.url})`,
      evidence,
      FIX.apiCatalog,
    );
  }
  if (answer.contentType !== "application/linkset+json") {
    return verdict(
      "warn",
      `the API catalog's links resolve, but it is served as ${answer.contentType ?? "no content type"}, not application/linkset+json`,
      evidence,
      FIX.apiCatalog,
    );
  }
  return verdict(
    "pass",
    `the API catalog names ${links.desc.length} service-desc and ${links.doc.length} service-doc links, and the ones followed resolve`,
    evidence,
  );
};

export const checkOpenApi = mirrorSignal("has_openapi", FIX.openapi);
export const checkStructuredApi = mirrorSignal("has_structured_api", FIX.structuredApi);
export const checkMcpServer = mirrorSignal("has_mcp_server", FIX.mcpServer);

const AI_CATALOG_TYPE = "application/ai-catalog+json";
const MCP_CARD_TYPE = "application/mcp-server-card+json";

interface CatalogEntry {
  identifier: string;
  type: string;
  url: string | null;
  data: unknown;
}

/** An AI Catalog's entries, or a problem (another shape, placeholders). */
export function readAiCatalog(document: unknown, base: string): { entries: CatalogEntry[] } | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  if (!Array.isArray(document.entries)) {
    const other =
      document.ard_version !== undefined || Array.isArray(document.capabilities)
        ? " (an ARD-style document with capabilities, not entries)"
        : "";
    return { problem: `has no entries array${other}` };
  }
  if (typeof document.specVersion !== "string") return { problem: "has no specVersion" };
  const entries: CatalogEntry[] = [];
  for (const [index, raw] of document.entries.entries()) {
    if (!isRecord(raw)) return { problem: `entry ${index + 1} is not an object` };
    if (typeof raw.identifier !== "string" || typeof raw.type !== "string") {
      return { problem: `entry ${index + 1} lacks its identifier or type` };
    }
    const url = typeof raw.url === "string" ? resolveHttpUrl(raw.url, base) : null;
    if (raw.url === undefined && raw.data === undefined)
      return { problem: `entry ${index + 1} has neither url nor data` };
    if (typeof raw.url === "string" && !url) return { problem: `entry ${index + 1}'s url is not an http(s) URL` };
    entries.push({ identifier: raw.identifier, type: raw.type.toLowerCase(), url, data: raw.data });
  }
  if (entries.length === 0) return { problem: "lists no entries" };
  return { entries };
}

/**
 * The AI Catalog's entries: as the MCP detector read them (crawl discovery) when the crawl has
 * that reading, else read here. A catalog the control request showed to be a catch-all has none.
 */
function aiCatalogEntries(answers: ChecklistAnswers): CatalogEntry[] {
  const found = answers.discovery.aiCatalog;
  if (found) {
    if (found.status !== "present" || !found.catalog) return [];
    return found.catalog.entries
      .filter((entry) => entry.url !== null || entry.data !== undefined)
      .map((entry) => ({
        identifier: entry.identifier ?? "",
        type: entry.kind === "mcp-server-card" ? MCP_CARD_TYPE : (entry.type ?? "").toLowerCase(),
        url: entry.url,
        data: entry.data,
      }));
  }
  const response = answerAt(answers, CHECKLIST_PATHS.aiCatalog);
  if (!response?.ok || response.status !== 200 || isHtmlAnswer(response) || isCatchAll(response, answers)) return [];
  const read = readAiCatalog(parseJson(response.body), response.finalUrl || response.url);
  return "entries" in read ? read.entries : [];
}

export const checkAiCatalog: Judge = (answers) => {
  // The catalog the MCP detector read (the same request, memoised), and its control request's
  // verdict: a catch-all answer is no catalog. The structure is judged here against the
  // specification's required fields, which the detector, reading leniently for leads, does not.
  const found = answers.discovery.aiCatalog;
  const response = found?.response ?? answerAt(answers, CHECKLIST_PATHS.aiCatalog);
  if (found?.control?.catchAll) {
    return missing(
      `/.well-known/ai-catalog.json is ${found.control.clause}`,
      evidenceOf(response, found.control.control),
      FIX.aiCatalog,
    );
  }
  const early = unanswered(response, answers, FIX.aiCatalog);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const read = readJsonAnswer(answer, "/.well-known/ai-catalog.json");
  if ("problem" in read) return missing(read.problem, evidenceOf(response), FIX.aiCatalog);
  if (isErrorBody(read.document))
    return missing("/.well-known/ai-catalog.json answered a JSON error body", evidenceOf(response), FIX.aiCatalog);
  const catalog = readAiCatalog(read.document, answer.finalUrl || answer.url);
  if ("problem" in catalog)
    return verdict("fail", `/.well-known/ai-catalog.json ${catalog.problem}`, evidenceOf(response), FIX.aiCatalog);
  const withUrl = catalog.entries.filter((entry) => entry.url);
  const checked = withUrl
    .slice(0, FOLLOW_UP_CAP)
    .map((entry) => ({ url: entry.url!, response: answers.get.get(entry.url!) }));
  const evidence = evidenceOf(response, ...checked.map((target) => target.response));
  const placeholder = withUrl.find((entry) => isPlaceholder(entry.url!, answers.origin));
  if (placeholder)
    return verdict("fail", `the AI Catalog names a placeholder URL (${placeholder.url})`, evidence, FIX.aiCatalog);
  const dead = checked.filter((target) => !answered2xx(target.response, answers));
  if (checked.length > 0 && dead.length === checked.length) {
    return verdict(
      "fail",
      `the AI Catalog's entry URLs do not resolve (${dead.map((target) => target.url).join(", ")})`,
      evidence,
      FIX.aiCatalog,
    );
  }
  if (dead.length > 0) {
    return verdict(
      "warn",
      `${dead.length} of ${checked.length} AI Catalog entry URLs followed do not resolve (${dead[0]!.url})`,
      evidence,
      FIX.aiCatalog,
    );
  }
  if (answer.contentType !== AI_CATALOG_TYPE) {
    return verdict(
      "warn",
      `the AI Catalog lists ${catalog.entries.length} entries, but is served as ${answer.contentType ?? "no content type"}, not ${AI_CATALOG_TYPE}`,
      evidence,
      FIX.aiCatalog,
    );
  }
  return verdict(
    "pass",
    `the AI Catalog lists ${catalog.entries.length === 1 ? "1 entry" : `${catalog.entries.length} entries`}${checked.length > 0 ? " and the URLs followed resolve" : ""}`,
    evidence,
  );
};

/** How a document reads as an MCP server card: SEP-2127, an older shape, or not a card. */
export function readServerCard(
  document: unknown,
  base: string,
): { shape: "sep-2127" | "legacy"; name: string | null; endpoints: string[] } | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  const schema = typeof document.$schema === "string" ? document.$schema : "";
  const remotes = Array.isArray(document.remotes) ? document.remotes : null;
  const endpoints = (remotes ?? [])
    .filter(
      (remote): remote is Record<string, unknown> =>
        isRecord(remote) && typeof remote.url === "string" && typeof remote.type === "string",
    )
    .map((remote) => resolveHttpUrl(remote.url as string, base))
    .filter((url): url is string => url !== null);
  const name = typeof document.name === "string" ? document.name : null;
  if (/static\.modelcontextprotocol\.io\/schemas\/.*server-card\.schema\.json/.test(schema)) {
    if (!name) return { problem: "is a SEP-2127 card without a name" };
    if (endpoints.length === 0) return { problem: "is a SEP-2127 card whose remotes list no endpoint (url and type)" };
    return { shape: "sep-2127", name, endpoints };
  }
  // A registry server.json or an unversioned card with remotes: usable, but not the card's schema.
  if (name && endpoints.length > 0 && (schema === "" || /modelcontextprotocol\.io\/schemas\//.test(schema))) {
    return { shape: "legacy", name, endpoints };
  }
  // SEP-1649's shape: serverInfo and one transport endpoint.
  const serverInfo = isRecord(document.serverInfo) ? document.serverInfo : null;
  const transport = isRecord(document.transport) ? document.transport : null;
  if (serverInfo && typeof serverInfo.name === "string" && transport) {
    const endpoint =
      typeof transport.endpoint === "string"
        ? resolveHttpUrl(transport.endpoint, base)
        : typeof transport.url === "string"
          ? resolveHttpUrl(transport.url, base)
          : null;
    if (endpoint) return { shape: "legacy", name: serverInfo.name, endpoints: [endpoint] };
  }
  if (remotes === null && !serverInfo) return { problem: "is not an MCP server card (no remotes or serverInfo)" };
  return { problem: "is not a usable MCP server card (no endpoint with a transport)" };
}

/**
 * The endpoint of the live MCP server, or null: the detector names a candidate endpoint in its
 * details even when no server answered there, and a card is looked for only beside a live one.
 */
function liveMcpEndpoint(answers: ChecklistAnswers): string | null {
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
    return verdict(
      "warn",
      `${valid.where} describes the live server in an older shape (not the SEP-2127 server-card schema)`,
      evidence,
      FIX.mcpCard,
    );
  }
  return verdict(
    "pass",
    `${valid.where} is a SEP-2127 server card (${card.name}) that matches the live server`,
    evidence,
  );
}

/** How a document reads as an A2A agent card, or a problem. */
export function readAgentCard(
  document: unknown,
): { name: string; interfaceUrl: string; version: "1.0" | "0.3" } | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  if (typeof document.name !== "string" || !document.name.trim()) return { problem: "has no name" };
  if (typeof document.description !== "string") return { problem: "has no description" };
  if (!Array.isArray(document.skills)) return { problem: "has no skills array" };
  if (!isRecord(document.capabilities)) return { problem: "has no capabilities object" };
  const interfaces = Array.isArray(document.supportedInterfaces) ? document.supportedInterfaces : [];
  const fromInterfaces = interfaces.find((item) => isRecord(item) && typeof item.url === "string");
  if (fromInterfaces && isRecord(fromInterfaces))
    return { name: document.name, interfaceUrl: fromInterfaces.url as string, version: "1.0" };
  if (typeof document.url === "string") return { name: document.name, interfaceUrl: document.url, version: "0.3" };
  return { problem: "names no interface URL (supportedInterfaces[].url or url)" };
}

export const checkA2aAgentCard: Judge = (answers) => {
  const current = answerAt(answers, CHECKLIST_PATHS.a2aCard);
  const legacy = answerAt(answers, CHECKLIST_PATHS.a2aLegacy);
  const evidence = evidenceOf(current, legacy);
  const judgeAt = (response: ProbeResponse | undefined, path: string) => {
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") return { standing };
    const read = readJsonAnswer(standing.answer, path);
    if ("problem" in read || isErrorBody(read.document)) return { soft: true as const };
    return { card: readAgentCard(read.document), document: read.document };
  };
  for (const [response, path, isLegacy] of [
    [current, CHECKLIST_PATHS.a2aCard, false],
    [legacy, CHECKLIST_PATHS.a2aLegacy, true],
  ] as const) {
    const judged = judgeAt(response, path);
    if (!("card" in judged) || !judged.card) continue;
    const card = judged.card;
    if ("problem" in card)
      return verdict("fail", `${path} is not an A2A agent card: it ${card.problem}`, evidence, FIX.a2a);
    const placeholder = isPlaceholder(card.interfaceUrl, answers.origin)
      ? card.interfaceUrl
      : findPlaceholder(judged.document, answers.origin);
    if (placeholder)
      return verdict("fail", `${path} holds a placeholder (${placeholder.slice(0, 80)})`, evidence, FIX.a2a);
    if (isLegacy)
      return verdict(
        "warn",
        `${path} is an A2A agent card (${card.name}) at the pre-0.3 path only; move it to /.well-known/agent-card.json`,
        evidence,
        FIX.a2a,
      );
    const older = card.version === "0.3" ? " in the 0.3 shape (url instead of supportedInterfaces)" : "";
    if (older) return verdict("warn", `${path} is an A2A agent card (${card.name})${older}`, evidence, FIX.a2a);
    return verdict(
      "pass",
      `${path} is an A2A agent card (${card.name}) with an interface at ${card.interfaceUrl}`,
      evidence,
    );
  }
  for (const response of [current, legacy]) {
    if (!response) continue;
    const standing = standingOf(response, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      return verdict(standing.kind, standing.clause, evidence, FIX.a2a);
  }
  return missing("no A2A agent card at /.well-known/agent-card.json or /.well-known/agent.json", evidence, FIX.a2a);
};

interface SkillEntry {
  name: string;
  url: string | null;
  digest: string | null;
}

/** An Agent Skills index's entries, or a problem. */
export function readSkillsIndex(
  document: unknown,
  base: string,
): { version: "0.2" | "0.1"; skills: SkillEntry[] } | { problem: string } {
  if (!isRecord(document) || !Array.isArray(document.skills)) return { problem: "has no skills array" };
  if (document.skills.length === 0) return { problem: "lists no skills" };
  const skills: SkillEntry[] = [];
  let withFiles = 0;
  for (const [index, raw] of document.skills.entries()) {
    if (!isRecord(raw) || typeof raw.name !== "string") return { problem: `skill ${index + 1} has no name` };
    if (Array.isArray(raw.files)) withFiles++;
    skills.push({
      name: raw.name,
      url: typeof raw.url === "string" ? resolveHttpUrl(raw.url, base) : null,
      digest: typeof raw.digest === "string" ? raw.digest : null,
    });
  }
  if (skills.every((skill) => skill.url && skill.digest)) return { version: "0.2", skills };
  if (withFiles === skills.length) return { version: "0.1", skills };
  return { problem: "lists skills without a url and digest (or files) for each" };
}

/** The artifacts' digests, computed before judging (hashing is asynchronous). */
export type DigestsByUrl = Map<string, string>;

export function skillsIndexAt(
  answers: ChecklistAnswers,
): { path: string; legacy: boolean; response: ProbeResponse | undefined }[] {
  return [
    { path: CHECKLIST_PATHS.skills, legacy: false, response: answerAt(answers, CHECKLIST_PATHS.skills) },
    { path: CHECKLIST_PATHS.skillsLegacy, legacy: true, response: answerAt(answers, CHECKLIST_PATHS.skillsLegacy) },
  ];
}

/** The artifact URLs of the first usable index (for the follow-ups and the digests). */
export function skillArtifactUrls(answers: ChecklistAnswers): string[] {
  for (const index of skillsIndexAt(answers)) {
    const response = index.response;
    if (!response?.ok || response.status !== 200 || isHtmlAnswer(response)) continue;
    const read = readSkillsIndex(parseJson(response.body), response.finalUrl || response.url);
    if ("skills" in read && read.version === "0.2") {
      return read.skills.slice(0, FOLLOW_UP_CAP).flatMap((skill) => (skill.url ? [skill.url] : []));
    }
  }
  return [];
}

export function checkAgentSkills(answers: ChecklistAnswers, digests: DigestsByUrl): Judgement {
  const indexes = skillsIndexAt(answers);
  const evidenceBase = indexes.map((index) => index.response);
  // The first index that is a JSON answer decides; the legacy path only when the current one is not.
  for (const index of indexes) {
    const skills = readIndexAnswer(answers, index);
    if (skills) return judgeSkillsIndex(answers, digests, index, skills, evidenceBase);
  }
  return judgeNoSkillsIndex(answers, indexes, evidenceBase);
}

/** One place a skills index is looked for, with the answer there. */
type SkillsIndexAt = ReturnType<typeof skillsIndexAt>[number];

/** The index's reading as Agent Skills, or null when the answer is not a JSON document to judge. */
function readIndexAnswer(answers: ChecklistAnswers, index: SkillsIndexAt): ReturnType<typeof readSkillsIndex> | null {
  const standing = standingOf(index.response, answers);
  if (standing.kind !== "answer") return null;
  const read = readJsonAnswer(standing.answer, index.path);
  if ("problem" in read || isErrorBody(read.document)) return null;
  return readSkillsIndex(read.document, standing.answer.finalUrl || standing.answer.url);
}

/** An index's verdict: fail when it is not one, warn for the 0.1 shape, else what its digests say. */
function judgeSkillsIndex(
  answers: ChecklistAnswers,
  digests: DigestsByUrl,
  index: SkillsIndexAt,
  skills: ReturnType<typeof readSkillsIndex>,
  evidenceBase: (ProbeResponse | undefined)[],
): Judgement {
  if ("problem" in skills)
    return verdict(
      "fail",
      `${index.path} is not an Agent Skills index: it ${skills.problem}`,
      evidenceOf(...evidenceBase),
      FIX.skills,
    );
  if (skills.version === "0.1") {
    const where = index.legacy ? `${index.path} (the older path)` : index.path;
    return verdict(
      "warn",
      `${where} is an Agent Skills index of the 0.1 shape (files, no digests) with ${skills.skills.length} skills`,
      evidenceOf(...evidenceBase),
      FIX.skills,
    );
  }
  return judgeSkillDigests(answers, digests, index, skills.skills, evidenceBase);
}

/**
 * A 0.2 index's verdict from the files it names (the first FOLLOW_UP_CAP): fail on a placeholder,
 * a digest that does not match, or no file fetched; warn at the older path or when some were not.
 */
function judgeSkillDigests(
  answers: ChecklistAnswers,
  digests: DigestsByUrl,
  index: SkillsIndexAt,
  skills: SkillEntry[],
  evidenceBase: (ProbeResponse | undefined)[],
): Judgement {
  const checked = skills.filter((skill) => skill.url).slice(0, FOLLOW_UP_CAP);
  const artifactResponses = checked.map((skill) => answers.get.get(skill.url!));
  const evidence = evidenceOf(...evidenceBase, ...artifactResponses);
  const placeholder = skills.find(
    (skill) =>
      (skill.url && isPlaceholder(skill.url, answers.origin)) || (skill.digest && /<|x{8,}|0{16,}/i.test(skill.digest)),
  );
  if (placeholder)
    return verdict("fail", `${index.path} holds a placeholder for ${placeholder.name}`, evidence, FIX.skills);
  const { mismatched, unreachable } = compareDigests(checked, digests);
  if (mismatched.length > 0) {
    return verdict(
      "fail",
      `${index.path}: the digest of ${mismatched.join(", ")} does not match the file served`,
      evidence,
      FIX.skills,
    );
  }
  if (unreachable.length === checked.length) {
    return verdict(
      "fail",
      `${index.path}: the skill files it names could not be fetched (${unreachable.join(", ")})`,
      evidence,
      FIX.skills,
    );
  }
  if (index.legacy || unreachable.length > 0) {
    const why = index.legacy
      ? "at the older path /.well-known/skills/index.json"
      : `but ${unreachable.join(", ")} could not be fetched`;
    return verdict(
      "warn",
      `an Agent Skills index of ${skills.length} skills whose digests match, ${why}`,
      evidence,
      FIX.skills,
    );
  }
  return verdict(
    "pass",
    `${index.path} lists ${skills.length === 1 ? "1 skill" : `${skills.length} skills`}, and the digests of the files checked match`,
    evidence,
  );
}

/** The names of the skills whose declared digest differs from the file's, and of those whose file was not fetched. */
function compareDigests(checked: SkillEntry[], digests: DigestsByUrl): { mismatched: string[]; unreachable: string[] } {
  const mismatched: string[] = [];
  const unreachable: string[] = [];
  for (const skill of checked) {
    const computed = digests.get(skill.url!);
    if (computed === undefined) {
      unreachable.push(skill.name);
      continue;
    }
    const declared = skill.digest!.toLowerCase().replace(/^sha256:/, "");
    if (declared !== computed) mismatched.push(skill.name);
  }
  return { mismatched, unreachable };
}

/** With no index to judge: blocked or error when an index path refused or failed, else missing. */
function judgeNoSkillsIndex(
  answers: ChecklistAnswers,
  indexes: SkillsIndexAt[],
  evidenceBase: (ProbeResponse | undefined)[],
): Judgement {
  for (const index of indexes) {
    if (!index.response) continue;
    const standing = standingOf(index.response, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      return verdict(standing.kind, standing.clause, evidenceOf(...evidenceBase), FIX.skills);
  }
  return missing(
    "no Agent Skills index at /.well-known/agent-skills/index.json or /.well-known/skills/index.json",
    evidenceOf(...evidenceBase),
    FIX.skills,
  );
}

/** The home page's forms declaring WebMCP tools: complete (name and description) and partial. */
export function findWebMcpForms(html: string): { complete: string[]; partial: string[] } {
  const complete: string[] = [];
  const partial: string[] = [];
  walkHtml(html, (tag) => {
    if (tag.name !== "form") return;
    const name = tag.attributes.toolname?.trim();
    const description = tag.attributes.tooldescription?.trim();
    if (name && description) complete.push(name);
    else if (name || description) partial.push(name || "(unnamed)");
  });
  return { complete, partial };
}

export const checkWebMcp: Judge = (answers) => {
  const home = answerAt(answers, "/");
  const early = unanswered(home, answers, FIX.webmcp);
  if (early) return early;
  const answer = home as ProbeAnswer;
  const evidence = evidenceOf(home);
  const forms = isHtmlAnswer(answer) ? findWebMcpForms(answer.body) : { complete: [], partial: [] };
  if (forms.complete.length > 0) {
    return verdict(
      "pass",
      `the home page declares WebMCP tools on its forms (${forms.complete.slice(0, 5).join(", ")})`,
      evidence,
    );
  }
  if (forms.partial.length > 0) {
    return verdict(
      "fail",
      `the home page has a form with only one of toolname and tooldescription (${forms.partial[0]}), which registers no tool`,
      evidence,
      FIX.webmcp,
    );
  }
  return missing(
    "the home page declares no WebMCP tool on a form; tools registered by script (navigator.modelContext) cannot be seen without running the page's scripts",
    evidence,
    FIX.webmcp,
  );
};

// ---------------------------------------------------------------- auth

/** The authorization servers a protected-resource document names (for the follow-up). */
function protectedResourceServers(answers: ChecklistAnswers): string[] {
  const response = answerAt(answers, CHECKLIST_PATHS.protectedResource);
  if (!response?.ok || response.status !== 200 || isHtmlAnswer(response)) return [];
  const document = parseJson(response.body);
  if (!isRecord(document) || !Array.isArray(document.authorization_servers)) return [];
  return document.authorization_servers.filter(
    (value): value is string => typeof value === "string" && resolveHttpUrl(value, answers.origin) !== null,
  );
}

/** RFC 8414 section 3: the metadata URL of an issuer (the well-known segment before its path). */
export function authorizationServerMetadataUrl(issuer: string): string | null {
  try {
    const url = new URL(issuer);
    const path = url.pathname === "/" ? "" : url.pathname.replace(/\/+$/, "");
    return `${url.origin}/.well-known/oauth-authorization-server${path}`;
  } catch {
    return null;
  }
}

function sameResource(resource: string, origin: string, endpoint: string | null): boolean {
  const strip = (value: string) => value.replace(/\/+$/, "");
  return strip(resource) === strip(origin) || (endpoint !== null && strip(resource) === strip(endpoint));
}

export const checkOauthProtectedResource: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.protectedResource);
  const early = unanswered(response, answers, FIX.protectedResource);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const read = readJsonAnswer(answer, "/.well-known/oauth-protected-resource");
  if ("problem" in read) return missing(read.problem, evidenceOf(response), FIX.protectedResource);
  if (isErrorBody(read.document))
    return missing("the metadata path answered a JSON error body", evidenceOf(response), FIX.protectedResource);
  const document = read.document;
  if (!isRecord(document) || typeof document.resource !== "string") {
    return verdict(
      "fail",
      "/.well-known/oauth-protected-resource has no resource (RFC 9728 requires it)",
      evidenceOf(response),
      FIX.protectedResource,
    );
  }
  const endpoint =
    typeof answers.signals.has_mcp_server.details?.endpoint === "string"
      ? answers.signals.has_mcp_server.details.endpoint
      : null;
  if (!sameResource(document.resource, answers.origin, endpoint)) {
    return verdict(
      "fail",
      `the metadata's resource is ${document.resource}, not this origin (${answers.origin})`,
      evidenceOf(response),
      FIX.protectedResource,
    );
  }
  const servers = protectedResourceServers(answers);
  if (servers.length === 0) {
    return verdict(
      "warn",
      "the protected-resource metadata names this origin but no authorization_servers",
      evidenceOf(response),
      FIX.protectedResource,
    );
  }
  const metadataUrl = authorizationServerMetadataUrl(servers[0]!);
  const serverMetadata = metadataUrl ? answers.get.get(metadataUrl) : undefined;
  const openid = metadataUrl
    ? answers.get.get(`${new URL(servers[0]!).origin}/.well-known/openid-configuration`)
    : undefined;
  const evidence = evidenceOf(response, serverMetadata);
  const isMetadata = (candidate: ProbeResponse | undefined) =>
    answered2xx(candidate, answers) &&
    candidate?.ok === true &&
    isRecord(parseJson(candidate.body)) &&
    typeof (parseJson(candidate.body) as Record<string, unknown>).issuer === "string";
  if (!isMetadata(serverMetadata) && !isMetadata(openid)) {
    // Undecided is not absent: a fetch that was refused by the crawl's budget, timed out or got a
    // server error proves nothing about the authorization server.
    const undecided = [serverMetadata, openid]
      .filter((each) => each !== undefined)
      .map((each) => standingOf(each, answers))
      .find((standing) => standing.kind === "error");
    if (undecided && "clause" in undecided) {
      return verdict(
        "error",
        `the authorization server ${servers[0]} could not be decided: ${undecided.clause}`,
        evidence,
        FIX.protectedResource,
      );
    }
    return verdict(
      "fail",
      `the authorization server ${servers[0]} does not answer with RFC 8414 metadata`,
      evidence,
      FIX.protectedResource,
    );
  }
  return verdict(
    "pass",
    `the protected-resource metadata names this origin and its authorization server (${servers[0]}) answers`,
    evidence,
  );
};

const AS_REQUIRED = ["authorization_endpoint", "token_endpoint", "response_types_supported"];

export const checkOauthAuthorizationServer: Judge = (answers) => {
  const candidates = [
    { path: CHECKLIST_PATHS.authorizationServer, response: answerAt(answers, CHECKLIST_PATHS.authorizationServer) },
    { path: CHECKLIST_PATHS.openidConfiguration, response: answerAt(answers, CHECKLIST_PATHS.openidConfiguration) },
  ];
  const evidence = evidenceOf(...candidates.map((candidate) => candidate.response));
  for (const { path, response } of candidates) {
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") continue;
    const read = readJsonAnswer(standing.answer, path);
    if ("problem" in read || isErrorBody(read.document)) continue;
    const document = read.document;
    if (!isRecord(document) || typeof document.issuer !== "string") {
      return verdict("fail", `${path} has no issuer`, evidence, FIX.authorizationServer);
    }
    const issuer = document.issuer.replace(/\/+$/, "");
    if (issuer !== answers.origin) {
      return verdict(
        "fail",
        `${path}'s issuer is ${document.issuer}, not this origin (${answers.origin})`,
        evidence,
        FIX.authorizationServer,
      );
    }
    const absent = AS_REQUIRED.filter((field) => document[field] === undefined);
    const implicitOnly =
      Array.isArray(document.response_types_supported) &&
      document.response_types_supported.every(
        (type) => type === "token" || type === "id_token" || type === "id_token token",
      );
    const missingFields = absent.filter((field) => !(field === "token_endpoint" && implicitOnly));
    if (missingFields.some((field) => field !== "response_types_supported")) {
      return verdict("fail", `${path} lacks ${missingFields.join(", ")}`, evidence, FIX.authorizationServer);
    }
    const placeholder = findPlaceholder(document, answers.origin);
    if (placeholder)
      return verdict(
        "fail",
        `${path} holds a placeholder (${placeholder.slice(0, 80)})`,
        evidence,
        FIX.authorizationServer,
      );
    if (missingFields.length > 0)
      return verdict(
        "warn",
        `${path} lacks response_types_supported (required by RFC 8414)`,
        evidence,
        FIX.authorizationServer,
      );
    return verdict(
      "pass",
      `${path}'s issuer is this origin and its authorization and token endpoints are listed`,
      evidence,
    );
  }
  for (const { response } of candidates) {
    if (!response) continue;
    const standing = standingOf(response, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      return verdict(standing.kind, standing.clause, evidence, FIX.authorizationServer);
  }
  return missing(
    "no metadata at /.well-known/oauth-authorization-server or /.well-known/openid-configuration",
    evidence,
    FIX.authorizationServer,
  );
};

// ---------------------------------------------------------------- legacy

export const checkAiPlugin = mirrorSignal(
  "has_ai_plugin",
  FIX.aiPlugin,
  " ChatGPT plugins were retired in April 2024: agents no longer read this manifest.",
);

// ---------------------------------------------------------------- the list

/** The documents the first answers name, fetched in one more round (each check's share capped). */
export function followUpUrls(answers: ChecklistAnswers): string[] {
  const urls = new Set<string>();
  // The older paths, only where the current one gave no document.
  const gaveDocument = (path: string) => {
    const response = answerAt(answers, path);
    return Boolean(
      response?.ok && response.status === 200 && !isHtmlAnswer(response) && parseJson(response.body) !== undefined,
    );
  };
  if (!gaveDocument(CHECKLIST_PATHS.a2aCard)) urls.add(`${answers.origin}${CHECKLIST_PATHS.a2aLegacy}`);
  if (!gaveDocument(CHECKLIST_PATHS.skills)) urls.add(`${answers.origin}${CHECKLIST_PATHS.skillsLegacy}`);
  if (!gaveDocument(CHECKLIST_PATHS.authorizationServer))
    urls.add(`${answers.origin}${CHECKLIST_PATHS.openidConfiguration}`);
  const sitemaps = sitemapCandidates(answers);
  if (sitemaps.length > 1) urls.add(sitemaps[0]!);
  const links = apiCatalogLinks(answers);
  if (links) for (const url of [...links.desc, ...links.doc].slice(0, FOLLOW_UP_CAP)) urls.add(url);
  for (const entry of aiCatalogEntries(answers)
    .filter((each) => each.url)
    .slice(0, FOLLOW_UP_CAP))
    urls.add(entry.url!);
  const endpoint = liveMcpEndpoint(answers);
  if (typeof endpoint === "string") urls.add(`${endpoint.replace(/\/+$/, "")}/server-card`);
  for (const url of skillArtifactUrls(answers)) urls.add(url);
  const server = protectedResourceServers(answers)[0];
  const metadataUrl = server ? authorizationServerMetadataUrl(server) : null;
  if (metadataUrl) urls.add(metadataUrl);
  for (const url of urls) if (answers.get.has(url)) urls.delete(url);
  return [...urls].filter((url) => !isPlaceholder(url, answers.origin));
}

export const SYNC_CHECKS: Readonly<Record<Exclude<CheckId, "agent_skills">, Judge>> = {
  robots_txt: checkRobotsTxt,
  sitemap: checkSitemap,
  link_headers: checkLinkHeaders,
  markdown_negotiation: checkMarkdownNegotiation,
  llms_txt: checkLlmsTxt,
  llms_full_txt: checkLlmsFullTxt,
  schema_org: checkSchemaOrg,
  schema_org_actions: checkSchemaOrgActions,
  ai_bot_rules: checkAiBotRules,
  content_signals: checkContentSignals,
  content_usage: checkContentUsage,
  web_bot_auth: checkWebBotAuth,
  api_catalog: checkApiCatalog,
  openapi: checkOpenApi,
  structured_api: checkStructuredApi,
  ai_catalog: checkAiCatalog,
  mcp_server_card: checkMcpServerCard,
  mcp_server: checkMcpServer,
  a2a_agent_card: checkA2aAgentCard,
  webmcp: checkWebMcp,
  oauth_protected_resource: checkOauthProtectedResource,
  oauth_authorization_server: checkOauthAuthorizationServer,
  ai_plugin: checkAiPlugin,
};
