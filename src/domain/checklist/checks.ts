/**
 * The checklist's registry: every check by id, from its family module (families/*.ts, one per
 * family of checks, each with its fix texts beside it). The requests the checks read are declared
 * in checklist-requests.ts (the crawl plan). Each check returns a verdict, or `missing` when the
 * document is not there at all: whether a missing document fails or is neutral depends on the
 * kind of site and on whether the check is opt-in, which run-checklist.ts decides in one place.
 * Proof, not status codes: a document counts only when its body is what it claims to be. Every
 * document format is read by one reader (src/domain/readers/*.ts), shared with the signal
 * detectors. How to add a check: docs/architecture.md. Standards and choices: docs/crawling.md,
 * "The checklist".
 */
import type { Judge } from "./check-helpers.ts";
import type { CheckId } from "./checklist-definition.ts";
import { checkDnsAgentDiscovery } from "./families/agent-dns.ts";
import { checkA2aAgentCard, checkWebMcp } from "./families/agents.ts";
import { checkApiCatalog, checkOpenApi, checkStructuredApi } from "./families/api.ts";
import { checkAiCatalog } from "./families/ard.ts";
import { checkOauthAuthorizationServer, checkOauthProtectedResource } from "./families/auth.ts";
import { checkAuthMd } from "./families/auth-md.ts";
import { checkAiBotRules, checkContentSignals, checkContentUsage, checkWebBotAuth } from "./families/bot-access.ts";
import { checkAcp, checkAp2, checkMpp, checkUcp, checkX402 } from "./families/commerce.ts";
import {
  checkLlmsFullTxt,
  checkLlmsTxt,
  checkMarkdownNegotiation,
  checkSchemaOrg,
  checkSchemaOrgActions,
} from "./families/content.ts";
import { checkLinkHeaders, checkRobotsTxt, checkSitemap } from "./families/discoverability.ts";
import { checkAiPlugin } from "./families/legacy.ts";
import { checkMcpServer, checkMcpServerCard } from "./families/mcp.ts";
import { checkMcpRegistryAuth } from "./families/mcp-registry.ts";
import { checkNlweb } from "./families/nlweb.ts";

export type { Judgement, Missing } from "./check-helpers.ts";
export { checkAgentSkills, type DigestsByUrl, skillArtifactUrls } from "./families/agents.ts";

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
