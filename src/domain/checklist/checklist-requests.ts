/**
 * The checklist's crawl plan: every request a check reads, declared once, with the stage at which
 * it is asked and the discovery condition under which it is needed at all. gatherAnswers
 * (checklist-answers.ts) runs the plan; the checks never fetch. A new check adds its lines here
 * (docs/architecture.md, "How to add a check"), and nowhere else in the crawl.
 *
 * Two stages:
 * - `probe`: a path the standard fixes, asked blind beside the signal detectors' first burst (one
 *   request, whatever the site). `shared` marks a document a detector fetches anyway, read at no
 *   cost.
 * - `follow-up`: asked once the detectors are done and the probes answered, and only where those
 *   answers call for it: a document an answer names (a catalog entry, a sitemap robots.txt names,
 *   the metadata an MCP endpoint's 401 names), or an older path where the current one gave no
 *   document. `urls` returns nothing where a document already settled the matter. Follow-ups are
 *   evaluated again over the new answers (what a named document names in turn), at most
 *   FOLLOW_UP_ROUNDS times. A follow-up that reads only the probes' answers (`after`: an older
 *   path, the sitemap robots.txt names, the files a skills index names) is also asked as soon as
 *   those have answered, beside the detectors' later rounds: the same request, made sooner.
 */
import { isHtmlAnswer, parseJson, siteUrl } from "../signals/blocking.ts";
import { isPlaceholder, standingOf } from "./check-helpers.ts";
import {
  answerAt,
  CHECKLIST_PATHS,
  type ChecklistAnswers,
  FOLLOW_UP_CAP,
  MCP_CARD_PATHS,
  type ProbedAnswers,
} from "./checklist-answers.ts";
import type { CheckId } from "./checklist-definition.ts";
import { cardKeySetUrls } from "./checklist-proofs.ts";
import { agentDnsFollowUpUrls } from "./families/agent-dns.ts";
import { skillArtifactUrls } from "./families/agents.ts";
import { apiCatalogLinks } from "./families/api.ts";
import { aiCatalogEntries } from "./families/ard.ts";
import {
  authorizationServerMetadataUrl,
  openidConfigurationUrl,
  protectedResourceServers,
  protectedResourceUrls,
} from "./families/auth.ts";
import { acpApiBase, openApiDocumentUrl, paymentEndpointUrls } from "./families/commerce.ts";
import { sitemapCandidates } from "./families/discoverability.ts";
import { liveMcpEndpoint } from "./families/mcp.ts";
import { nlwebQuery } from "./families/nlweb.ts";

/** A path asked blind in the first round. */
export interface ProbeDeclaration {
  stage: "probe";
  /** The checks that read the answer. */
  checks: readonly CheckId[];
  path: string;
  /** A signal detector fetches it anyway: read from the crawl's memo, outside the checklist's budget. */
  shared?: boolean;
}

/** Requests that depend on earlier answers. */
export interface FollowUpDeclaration {
  stage: "follow-up";
  checks: readonly CheckId[];
  /** The URLs to fetch given the answers so far; empty where the matter is settled or nothing names one. */
  urls(answers: ChecklistAnswers): readonly string[];
}

/**
 * A follow-up whose URLs the answers at `after` alone decide (it reads nothing the detectors
 * found): asked as soon as those answered, and again in the ordinary rounds like any follow-up.
 */
export interface EarlyFollowUpDeclaration {
  stage: "follow-up";
  checks: readonly CheckId[];
  /** The probe paths whose answers it reads; it is not asked before they are all in. */
  after: readonly string[];
  urls(answers: ProbedAnswers): readonly string[];
}

export type RequestDeclaration = ProbeDeclaration | FollowUpDeclaration | EarlyFollowUpDeclaration;

/** How many times the follow-ups are evaluated (a document named by a document named by a probe). */
export const FOLLOW_UP_ROUNDS = 3;

/** A blind probe of a fixed path. */
export function probe(checks: readonly CheckId[], path: string, shared = false): ProbeDeclaration {
  return { stage: "probe", checks, path, ...(shared ? { shared } : {}) };
}

/** Requests computed from earlier answers. */
export function followUp(
  checks: readonly CheckId[],
  urls: (answers: ChecklistAnswers) => readonly string[],
): FollowUpDeclaration {
  return { stage: "follow-up", checks, urls };
}

/** A follow-up that reads only the answers at `after` (see EarlyFollowUpDeclaration). */
export function earlyFollowUp(
  checks: readonly CheckId[],
  after: readonly string[],
  urls: (answers: ProbedAnswers) => readonly string[],
): EarlyFollowUpDeclaration {
  return { stage: "follow-up", checks, after, urls };
}

/** True when `path` answered 200 with a JSON document (not an HTML page). */
export function gaveJsonDocument(answers: ProbedAnswers, path: string): boolean {
  const response = answerAt(answers, path);
  return Boolean(
    response?.ok && response.status === 200 && !isHtmlAnswer(response) && parseJson(response.body) !== undefined,
  );
}

/** An older path of the same document, asked only when the current path gave no JSON document. */
export function olderPath(checks: readonly CheckId[], current: string, older: string): EarlyFollowUpDeclaration {
  return earlyFollowUp(checks, [current], (answers) =>
    gaveJsonDocument(answers, current) ? [] : [siteUrl(answers.origin, older)],
  );
}

/**
 * The sitemap: the first one robots.txt names, and `/sitemap.xml` only when robots.txt names none
 * or the named one gave no usable answer (the check reads them in that order).
 */
function sitemapUrls(answers: ProbedAnswers): string[] {
  const [first, ...rest] = sitemapCandidates(answers);
  if (rest.length === 0) return first ? [first] : [];
  const named = answers.get.get(first!);
  if (!named) return [first!];
  const standing = standingOf(named, answers.origin);
  return standing.kind === "answer" && !isHtmlAnswer(standing.answer) ? [] : rest;
}

/** Every request the checklist reads, by check. */
export const CHECKLIST_REQUESTS: readonly RequestDeclaration[] = [
  // Read from the detectors' answers.
  probe(["link_headers", "markdown_negotiation", "schema_org", "schema_org_actions", "webmcp"], "/", true),
  probe(["robots_txt", "ai_bot_rules", "content_signals", "content_usage", "sitemap"], CHECKLIST_PATHS.robots, true),
  probe(["llms_txt", "llms_full_txt"], CHECKLIST_PATHS.llmsTxt, true),
  probe(["api_catalog"], CHECKLIST_PATHS.apiCatalog, true),
  probe(["ai_catalog"], CHECKLIST_PATHS.ard, true),
  probe(["ai_catalog"], CHECKLIST_PATHS.aiCatalog, true),
  ...MCP_CARD_PATHS.map((path) => probe(["mcp_server_card"], path, true)),
  // The checklist's own fixed paths.
  probe(["llms_full_txt"], CHECKLIST_PATHS.llmsFull),
  probe(["web_bot_auth"], CHECKLIST_PATHS.webBotAuth),
  probe(["a2a_agent_card", "ap2"], CHECKLIST_PATHS.a2aCard),
  probe(["agent_skills"], CHECKLIST_PATHS.skills),
  probe(["oauth_protected_resource"], CHECKLIST_PATHS.protectedResource),
  probe(["oauth_authorization_server"], CHECKLIST_PATHS.authorizationServer),
  probe(["ucp"], CHECKLIST_PATHS.ucp),
  probe(["acp"], CHECKLIST_PATHS.acp),
  probe(["auth_md"], CHECKLIST_PATHS.authMd),
  probe(["mcp_registry_auth"], CHECKLIST_PATHS.mcpRegistryAuth),
  // What the first answers call for.
  earlyFollowUp(["sitemap"], [CHECKLIST_PATHS.robots], sitemapUrls),
  olderPath(["a2a_agent_card", "ap2"], CHECKLIST_PATHS.a2aCard, CHECKLIST_PATHS.a2aLegacy),
  olderPath(["agent_skills"], CHECKLIST_PATHS.skills, CHECKLIST_PATHS.skillsLegacy),
  olderPath(["oauth_authorization_server"], CHECKLIST_PATHS.authorizationServer, CHECKLIST_PATHS.openidConfiguration),
  earlyFollowUp(["api_catalog"], [CHECKLIST_PATHS.apiCatalog], (answers) => {
    const links = apiCatalogLinks(answers);
    return links ? [...links.desc, ...links.doc].slice(0, FOLLOW_UP_CAP) : [];
  }),
  followUp(["ai_catalog", "mcp_server_card"], (answers) =>
    aiCatalogEntries(answers)
      .flatMap((entry) => (entry.url ? [entry.url] : []))
      .slice(0, FOLLOW_UP_CAP),
  ),
  followUp(["mcp_server_card"], (answers) => {
    const endpoint = liveMcpEndpoint(answers);
    return endpoint ? [`${endpoint.replace(/\/+$/, "")}/server-card`] : [];
  }),
  earlyFollowUp(["agent_skills"], [CHECKLIST_PATHS.skills], skillArtifactUrls),
  // RFC 9728: the metadata the MCP endpoint's 401 names, and the live endpoint's path-suffixed URL.
  followUp(["oauth_protected_resource"], (answers) => protectedResourceUrls(answers).map(({ url }) => url)),
  // The authorization server it names, at both of its metadata paths in one round: servers built
  // as OpenID Providers (oidc-provider) publish only the OpenID Connect Discovery one.
  followUp(["oauth_protected_resource"], (answers) => {
    const server = protectedResourceServers(answers)[0];
    if (!server) return [];
    return [authorizationServerMetadataUrl(server), openidConfigurationUrl(server)].filter(
      (url): url is string => url !== null,
    );
  }),
  // Commerce: the OpenAPI document the detector read (a memoised repeat, free), then the paid
  // endpoints it and the home page and ARD entries name (one GET each, never paid).
  followUp(["x402", "mpp"], (answers) => {
    const url = openApiDocumentUrl(answers);
    return url ? [url] : [];
  }),
  followUp(["x402", "mpp"], paymentEndpointUrls),
  // The API base an ACP discovery document names.
  followUp(["acp"], (answers) => {
    const base = acpApiBase(answers);
    return base ? [base] : [];
  }),
  // The JWK Sets signed agent cards name (`jku`).
  earlyFollowUp(["a2a_agent_card"], [CHECKLIST_PATHS.a2aCard], (answers) =>
    cardKeySetUrls(answers).slice(0, FOLLOW_UP_CAP),
  ),
  // NLWeb: one query, only where the site announces an endpoint.
  followUp(["nlweb"], (answers) => {
    const query = nlwebQuery(answers);
    return query ? [query.url] : [];
  }),
  // What the agent-discovery DNS records name (A2A cards, OpenAPI documents, other hosts' indexes);
  // the MCP endpoints they name are probed live by crawl-site.ts (probeNamedMcpEndpoints).
  followUp(["dns_agent_discovery"], (answers) => agentDnsFollowUpUrls(answers).slice(0, FOLLOW_UP_CAP)),
];

/** The paths of the probes, the shared ones marked. */
export function probePaths(declarations: readonly RequestDeclaration[]): { path: string; shared: boolean }[] {
  const seen = new Map<string, boolean>();
  for (const declaration of declarations) {
    if (declaration.stage !== "probe") continue;
    seen.set(declaration.path, (seen.get(declaration.path) ?? false) || Boolean(declaration.shared));
  }
  return [...seen].map(([path, shared]) => ({ path, shared }));
}

/**
 * The early follow-ups (EarlyFollowUpDeclaration) the probes' answers so far call for: those whose
 * `after` answers are all in, not yet fetched, in declaration order, placeholders left out.
 */
export function earlyFollowUpUrls(declarations: readonly RequestDeclaration[], answers: ProbedAnswers): string[] {
  const urls = new Set<string>();
  for (const declaration of declarations) {
    if (declaration.stage !== "follow-up" || !("after" in declaration)) continue;
    if (!declaration.after.every((path) => answerAt(answers, path))) continue;
    for (const url of declaration.urls(answers)) urls.add(url);
  }
  return [...urls].filter((url) => !answers.get.has(url) && !isPlaceholder(url, answers.origin));
}

/**
 * The follow-ups the answers so far call for, not yet fetched, in declaration order (the order of
 * importance when the budget runs short), placeholders left out.
 */
export function followUpUrls(declarations: readonly RequestDeclaration[], answers: ChecklistAnswers): string[] {
  const urls = new Set<string>();
  for (const declaration of declarations) {
    if (declaration.stage !== "follow-up") continue;
    for (const url of declaration.urls(answers)) urls.add(url);
  }
  return [...urls].filter((url) => !answers.get.has(url) && !isPlaceholder(url, answers.origin));
}
