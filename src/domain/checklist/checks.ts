/**
 * The checklist's registry: every check by id, from its family module (families/*.ts, one per
 * family of checks, each with its fix texts beside it), and the follow-up requests the first
 * answers call for. Each check returns a verdict, or `missing` when the document is not there at
 * all: whether a missing document fails or is neutral depends on the kind of site and on whether
 * the check is opt-in, which run-checklist.ts decides in one place. Proof, not status codes: a
 * document counts only when its body is what it claims to be. Every document format is read by
 * one reader (src/domain/readers/*.ts), shared with the signal detectors. How to add a check:
 * docs/architecture.md. Standards and choices: docs/crawling.md, "The checklist".
 */
import { isHtmlAnswer, parseJson } from "../signals/blocking.ts";
import { isPlaceholder, type Judge } from "./check-helpers.ts";
import { answerAt, CHECKLIST_PATHS, type ChecklistAnswers, FOLLOW_UP_CAP } from "./checklist-answers.ts";
import type { CheckId } from "./checklist-definition.ts";
import { cardKeySetUrls } from "./checklist-proofs.ts";
import { agentDnsFollowUpUrls, checkDnsAgentDiscovery } from "./families/agent-dns.ts";
import { checkA2aAgentCard, checkWebMcp, skillArtifactUrls } from "./families/agents.ts";
import { apiCatalogLinks, checkApiCatalog, checkOpenApi, checkStructuredApi } from "./families/api.ts";
import { aiCatalogEntries, checkAiCatalog } from "./families/ard.ts";
import {
  authorizationServerMetadataUrl,
  checkOauthAuthorizationServer,
  checkOauthProtectedResource,
  openidConfigurationUrl,
  protectedResourceServers,
  protectedResourceUrls,
} from "./families/auth.ts";
import { checkAuthMd } from "./families/auth-md.ts";
import { checkAiBotRules, checkContentSignals, checkContentUsage, checkWebBotAuth } from "./families/bot-access.ts";
import {
  acpApiBase,
  checkAcp,
  checkAp2,
  checkMpp,
  checkUcp,
  checkX402,
  openApiDocumentUrl,
  paymentEndpointUrls,
} from "./families/commerce.ts";
import {
  checkLlmsFullTxt,
  checkLlmsTxt,
  checkMarkdownNegotiation,
  checkSchemaOrg,
  checkSchemaOrgActions,
} from "./families/content.ts";
import { checkLinkHeaders, checkRobotsTxt, checkSitemap, sitemapCandidates } from "./families/discoverability.ts";
import { checkAiPlugin } from "./families/legacy.ts";
import { checkMcpServer, checkMcpServerCard, liveMcpEndpoint } from "./families/mcp.ts";
import { checkMcpRegistryAuth } from "./families/mcp-registry.ts";
import { checkNlweb, nlwebQuery } from "./families/nlweb.ts";

export type { Judgement, Missing } from "./check-helpers.ts";
export { checkAgentSkills, type DigestsByUrl, skillArtifactUrls } from "./families/agents.ts";

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
  // RFC 9728: the metadata the MCP endpoint's 401 names, and the endpoint's path-suffixed URL.
  for (const { url } of protectedResourceUrls(answers)) urls.add(url);
  // The authorization server it names, at both of its metadata paths in one round: servers built
  // as OpenID Providers (oidc-provider) publish only the OpenID Connect Discovery one.
  const server = protectedResourceServers(answers)[0];
  const metadataUrl = server ? authorizationServerMetadataUrl(server) : null;
  if (metadataUrl) urls.add(metadataUrl);
  const openidUrl = server ? openidConfigurationUrl(server) : null;
  if (openidUrl) urls.add(openidUrl);
  // Commerce: the OpenAPI document the detector read (a memoised repeat, free), then the paid
  // endpoints it and the other documents name (one GET each, never paid), the ACP API base, and
  // the key sets signed agent cards name.
  const openApi = openApiDocumentUrl(answers);
  if (openApi) urls.add(openApi);
  for (const url of paymentEndpointUrls(answers)) urls.add(url);
  const acpBase = acpApiBase(answers);
  if (acpBase) urls.add(acpBase);
  for (const url of cardKeySetUrls(answers).slice(0, FOLLOW_UP_CAP)) urls.add(url);
  // NLWeb: one query, only where the site announces an endpoint; DNS: what the records name.
  const nlweb = nlwebQuery(answers);
  if (nlweb) urls.add(nlweb.url);
  for (const url of agentDnsFollowUpUrls(answers).slice(0, FOLLOW_UP_CAP)) urls.add(url);
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
  ap2: checkAp2,
  x402: checkX402,
  mpp: checkMpp,
  ucp: checkUcp,
  acp: checkAcp,
  auth_md: checkAuthMd,
  dns_agent_discovery: checkDnsAgentDiscovery,
  mcp_registry_auth: checkMcpRegistryAuth,
  nlweb: checkNlweb,
};
