/**
 * The checklist over the real documents of `../shared/realworld-corpus-2026/` (SOURCES.tsv names
 * each one's repository, path and commit). Each document is served alone, at the path its site
 * publishes it under, on the origin its own URLs name, every other path answering 404, and the
 * checks are judged from those answers (pure: no network). The expected status of each is our own
 * reading of the document against its standard, written beside it: valid documents never fail on
 * structure; documents of another kind, or holding placeholders, never pass.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CheckId, CheckStatus } from "../../src/domain/checklist/checklist-definition.ts";
import { judgeChecklist } from "../../src/domain/checklist/run-checklist.ts";
import { answersFor } from "../support/checklist-answers.ts";

const CORPUS = new URL("../../../shared/realworld-corpus-2026/", import.meta.url);

function corpus(file: string): string {
  return readFileSync(new URL(file, CORPUS), "utf8");
}

interface CorpusCase {
  file: string;
  origin: string;
  path: string;
  type: string;
  check: CheckId;
  status: CheckStatus;
  reading: string;
}

const JSON_TYPE = "application/json";
const HTML = "text/html; charset=utf-8";
const TEXT = "text/plain; charset=utf-8";

const CASES: CorpusCase[] = [
  // A2A agent cards (A2A 1.0: name, description, skills array, capabilities object, an interface URL).
  {
    file: "a2a-agent-card/a2a-mangesh-v1min.json",
    origin: "https://mangeshbide.tech",
    path: "/.well-known/agent-card.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "pass",
    reading: "a complete 1.0 card with supportedInterfaces",
  },
  {
    file: "a2a-agent-card/a2a-stitch-v03.json",
    origin: "https://stitch.example.org",
    path: "/.well-known/agent-card.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "warn",
    reading: "a valid 0.3 card (top-level url): usable, an older shape",
  },
  {
    file: "a2a-agent-card/a2a-8004-template.json",
    origin: "https://agent8004.example.org",
    path: "/.well-known/agent-card.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "a template left with http://localhost:3000",
  },
  {
    file: "a2a-agent-card/a2a-drawio-legacy.json",
    origin: "https://next-ai-draw-io.vercel.app",
    path: "/.well-known/agent.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "its interface is http://localhost:6002",
  },
  {
    file: "a2a-agent-card/a2a-ahp-namecollision.json",
    origin: "https://ahp.example.org",
    path: "/.well-known/agent.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "an Agent Handshake Protocol document at A2A's old name",
  },
  {
    file: "a2a-agent-card/a2a-azhy-nonstandard.json",
    origin: "https://azhyshchev.de",
    path: "/.well-known/agent-card.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "package_name/display_name: not an agent card",
  },
  {
    file: "a2a-agent-card/a2a-z2-wrapped.json",
    origin: "https://z2.example.org",
    path: "/.well-known/agent.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "the card is wrapped in an agent object",
  },
  {
    file: "a2a-agent-card/a2a-michey-ja.json",
    origin: "https://ai-check.ezoai.jp",
    path: "/.well-known/agent.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "capabilities is a list, not the capabilities object",
  },
  {
    file: "a2a-agent-card/a2a-smashmeals-noskills.json",
    origin: "https://www.smashmeals.com",
    path: "/.well-known/agent-card.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "no skills array",
  },
  // Web Bot Auth key directories (a JWKS; the directory media type).
  {
    file: "web-bot-auth/wba-ilang-wellformed.json",
    origin: "https://ilang.ai",
    path: "/.well-known/http-message-signatures-directory",
    type: "application/http-message-signatures-directory+json",
    check: "web_bot_auth",
    status: "pass",
    reading: "one Ed25519 JWK under keys, served with the directory type",
  },
  {
    file: "web-bot-auth/wba-ilang-wellformed.json",
    origin: "https://ilang.ai",
    path: "/.well-known/http-message-signatures-directory",
    type: JSON_TYPE,
    check: "web_bot_auth",
    status: "warn",
    reading: "the same keys as plain application/json",
  },
  {
    file: "web-bot-auth/wba-apievangelist-algname.json",
    origin: "https://apievangelist.com",
    path: "/.well-known/http-message-signatures-directory",
    type: "application/http-message-signatures-directory+json",
    check: "web_bot_auth",
    status: "pass",
    reading: "alg Ed25519 is an unregistered name, but the key itself is a well-formed OKP JWK",
  },
  // Agent Skills indexes (0.2.0: url and sha256 digest per skill; 0.1: files at the older path).
  {
    file: "agent-skills-index/skills-mollie-legacy.json",
    origin: "https://mollie.com",
    path: "/.well-known/skills/index.json",
    type: JSON_TYPE,
    check: "agent_skills",
    status: "warn",
    reading: "the 0.1 shape (files) at the older path",
  },
  {
    file: "agent-skills-index/skills-dstack-legacy.json",
    origin: "https://dstack.ai",
    path: "/.well-known/skills/index.json",
    type: JSON_TYPE,
    check: "agent_skills",
    status: "warn",
    reading: "the 0.1 shape (files) at the older path",
  },
  {
    file: "agent-skills-index/skills-mikedorian-mcpish.json",
    origin: "https://mikedorian375.github.io",
    path: "/.well-known/agent-skills/index.json",
    type: JSON_TYPE,
    check: "agent_skills",
    status: "fail",
    reading: "MCP-style endpoints and tools, no url or digest per skill",
  },
  {
    file: "agent-skills-index/skills-stellar-v020.json",
    origin: "https://developers.stellar.org",
    path: "/.well-known/agent-skills/index.json",
    type: JSON_TYPE,
    check: "agent_skills",
    status: "error",
    reading:
      "a valid 0.2.0 index whose artifacts sit on raw.githubusercontent.com, which this test does not reach: undecided, never absent",
  },
  // AI Catalogs.
  {
    file: "ai-catalog/aic-arcis-ard09.json",
    origin: "https://arcis.money",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading: "an ARD 0.9 document (capabilities), not the catalog's entries",
  },
  {
    file: "ai-catalog/aic-kulikowski.json",
    origin: "https://forgetitan.example.org",
    path: "/.well-known/ai-catalog.json",
    type: "application/ai-catalog+json",
    check: "ai_catalog",
    status: "fail",
    reading: "its server card URL is http://127.0.0.1:8787",
  },
  // MCP server cards.
  {
    file: "mcp-server-card/msc-qdrant-sep1649.json",
    origin: "https://qdrant.example.org",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "warn",
    reading: "SEP-1649's shape and no live server: never a pass",
  },
  {
    file: "mcp-server-card/msc-dtmoney-notmcp.json",
    origin: "https://dtmoney.example.org",
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "fail",
    reading: "a package.json-like document, not a server card",
  },
  // OAuth metadata.
  {
    file: "oauth-metadata/oauth-prm-csoai-yaml.yaml",
    origin: "https://councilof.ai",
    path: "/.well-known/oauth-protected-resource",
    type: "application/yaml",
    check: "oauth_protected_resource",
    status: "neutral",
    reading: "YAML at the JSON path: no metadata at all, and the check is opt-in",
  },
  {
    file: "oauth-metadata/oauth-prm-osticket-php.php",
    origin: "https://osticket.example.org",
    path: "/.well-known/oauth-protected-resource",
    type: "application/x-httpd-php",
    check: "oauth_protected_resource",
    status: "neutral",
    reading: "PHP source, not metadata",
  },
  {
    file: "oauth-metadata/oauth-prm-pocketmc.json",
    origin: "https://pocketmc.github.io",
    path: "/.well-known/oauth-protected-resource",
    type: JSON_TYPE,
    check: "oauth_protected_resource",
    status: "fail",
    reading: "resource names an OpenAPI file, not the origin",
  },
  {
    file: "oauth-metadata/oauth-as-stibarc.json",
    origin: "https://dev.stibarc.com",
    path: "/.well-known/oauth-authorization-server",
    type: JSON_TYPE,
    check: "oauth_authorization_server",
    status: "pass",
    reading: "issuer is the origin, endpoints and response types listed",
  },
  {
    file: "oauth-metadata/oauth-as-stibarc.json",
    origin: "https://stibarc.com",
    path: "/.well-known/oauth-authorization-server",
    type: JSON_TYPE,
    check: "oauth_authorization_server",
    status: "fail",
    reading: "served on another origin than its issuer",
  },
  {
    file: "oauth-metadata/oidc-naver-thirdparty.json",
    origin: "https://nid.naver.com",
    path: "/.well-known/openid-configuration",
    type: JSON_TYPE,
    check: "oauth_authorization_server",
    status: "pass",
    reading: "OpenID discovery whose issuer is the origin",
  },
  {
    file: "oauth-metadata/oauth-as-atproto-prank.json",
    origin: "https://epic.uwu.wang",
    path: "/.well-known/oauth-authorization-server",
    type: JSON_TYPE,
    check: "oauth_authorization_server",
    status: "pass",
    reading:
      "structurally valid RFC 8414 metadata whose issuer is the origin (its authorization endpoint is a video link, which no structural check can tell)",
  },
  // robots.txt with Content Signals.
  {
    file: "robots-txt/robots-laisky.txt",
    origin: "https://blog.laisky.com",
    path: "/robots.txt",
    type: TEXT,
    check: "content_signals",
    status: "pass",
    reading: "search, ai-input and ai-train with yes/no",
  },
  {
    file: "robots-txt/robots-mikedorian-splitsignals.txt",
    origin: "https://mikedorian375.github.io",
    path: "/robots.txt",
    type: TEXT,
    check: "content_signals",
    status: "pass",
    reading: "one signal per line, all defined keys",
  },
  {
    file: "robots-txt/robots-stellar.txt",
    origin: "https://developers.stellar.org",
    path: "/robots.txt",
    type: TEXT,
    check: "robots_txt",
    status: "pass",
    reading: "a robots.txt with groups",
  },
  // HTML: schema.org actions and WebMCP.
  {
    file: "html-jsonld-action/html-istio-searchaction.html",
    origin: "https://istio.io",
    path: "/",
    type: HTML,
    check: "schema_org_actions",
    status: "pass",
    reading: "SearchAction with a URL template and query-input",
  },
  {
    file: "html-jsonld-action/html-blade-searchaction-template.html",
    origin: "https://cms.example.org",
    path: "/",
    type: HTML,
    check: "schema_org_actions",
    status: "fail",
    reading: "an unrendered Blade template ({{ url('/') }}) as the target",
  },
  {
    file: "html-webmcp/html-webmcp-bistro-decl.html",
    origin: "https://bistro.example.org",
    path: "/",
    type: HTML,
    check: "webmcp",
    status: "pass",
    reading: "a form with toolname and tooldescription",
  },
  {
    file: "html-webmcp/html-webmcp-spa-shell.html",
    origin: "https://spa.example.org",
    path: "/",
    type: HTML,
    check: "webmcp",
    status: "neutral",
    reading: "an app shell: tools registered by script cannot be seen",
  },
  {
    file: "html-webmcp/html-mikedorian-linkrel-only.html",
    origin: "https://mikedorian375.github.io",
    path: "/",
    type: HTML,
    check: "webmcp",
    status: "neutral",
    reading: "links only, no declarative form",
  },
  // llms-full.txt at the well-known path only: nothing at /llms-full.txt.
  {
    file: "llms-txt/llmsfull-pravesh-wellknown.txt",
    origin: "https://praveshsingh.example.org",
    path: "/llms-full.txt",
    type: TEXT,
    check: "llms_full_txt",
    status: "warn",
    reading: "Markdown, but no llms.txt links to it",
  },
  // The other documents of the corpus, each read by the check of its kind (December contract:
  // a linked resource this test cannot reach is undecided, error, never fail).
  {
    file: "ai-catalog/aic-agenticresources.json",
    origin: "https://agenticresources.dev",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://agenticresources.dev/ (home page answered 404); https://agenticresour",
  },
  {
    file: "ai-catalog/aic-wallcalculator.json",
    origin: "https://wallcalculator.app",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://wallcalculator.app/ (home page answered 404); https://wallcalculator.",
  },
  {
    file: "ai-catalog/aic-wolfejam.json",
    origin: "https://faf.one",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://faf.one/.well-known/AGENTS.md (answered 404); https://faf.one/.well-k",
  },
  {
    file: "ai-catalog/aic-calebsargeant.json",
    origin: "https://calebsargeant.com",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "error",
    reading:
      "/.well-known/ai-catalog.json reads as a manifest, but whether its entries resolve could not be decided: was not fetched",
  },
  {
    file: "ai-catalog/aic-curtiskrygier.json",
    origin: "https://curtiskrygier.github.io",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "error",
    reading:
      "/.well-known/ai-catalog.json reads as a manifest, but whether its entries resolve could not be decided: was not fetched",
  },
  {
    file: "ai-catalog/aic-xmr402.json",
    origin: "https://xmr402.org",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://xmr402.org/.well-known/mcp/server-card.json (answered 404); https://x",
  },
  {
    file: "ai-catalog/aic-laisky.json",
    origin: "https://blog.laisky.com",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://blog.laisky.com/.well-known/mcp/server-card.json (answered 404); http",
  },
  {
    file: "ai-catalog/aic-councilofai.json",
    origin: "https://councilof.ai",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://councilof.ai/.well-known/mcp/server.json (answered 404); https://coun",
  },
  {
    file: "ai-catalog/aic-stellar.json",
    origin: "https://developers.stellar.org",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://developers.stellar.org/.well-known/mcp/server-card.json (answered 404",
  },
  {
    file: "ai-catalog/aic-microlink.json",
    origin: "https://microlink.io",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://microlink.io/openapi.json (answered 404); https://microlink.io/.well-",
  },
  {
    file: "ai-catalog/aic-yuno-ardjson.json",
    origin: "https://y.uno",
    path: "/.well-known/ard.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "error",
    reading:
      "/.well-known/ard.json reads as a manifest, but whether its entries resolve could not be decided: was not fetched",
  },
  {
    file: "ai-catalog/aic-rcsd.json",
    origin: "https://rcsd.info",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://rcsd.info/.well-known/server-card.json (answered 404); https://rcsd.i",
  },
  {
    file: "ai-catalog/aic-schooloffreelancing.json",
    origin: "https://schooloffreelancing.com",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "fail",
    reading:
      "/.well-known/ai-catalog.json: the entries followed do not serve what they declare: https://schooloffreelancing.com/api/courses (answered 404)",
  },
  {
    file: "ai-catalog/aic-botlypro.json",
    origin: "https://botlypro.online",
    path: "/.well-known/ai-catalog.json",
    type: JSON_TYPE,
    check: "ai_catalog",
    status: "error",
    reading:
      "/.well-known/ai-catalog.json reads as a manifest, but whether its entries resolve could not be decided: was not fetched",
  },
  {
    file: "mcp-server-card/msc-stellar.json",
    origin: "https://developers.stellar.org",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "warn",
    reading:
      "/.well-known/mcp/server-card.json is a server card for https://raven.stellar.org/mcp, but no live MCP server answered there",
  },
  {
    file: "mcp-server-card/msc-agora-mcpjson.json",
    origin: "https://mcp.agora.io",
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "warn",
    reading: "/.well-known/mcp.json is a server card for https://mcp.agora.io/, but no live MCP server answered there",
  },
  {
    file: "mcp-server-card/msc-jobicy-mcpjson.json",
    origin: "https://jobicy.com",
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "warn",
    reading: "/.well-known/mcp.json is a server card for https://jobicy.com/mcp, but no live MCP server answered there",
  },
  {
    file: "mcp-server-card/msc-arbiter-smithery.json",
    origin: "https://arbiter.example.org",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "fail",
    reading: "/.well-known/mcp/server-card.json is not an MCP server card (no remotes or serverInfo)",
  },
  {
    file: "mcp-server-card/msc-alderpost.json",
    origin: "https://alderpost.example.org",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "fail",
    reading: "/.well-known/mcp/server-card.json is not an MCP server card (no remotes or serverInfo)",
  },
  {
    file: "mcp-server-card/msc-schemastore-ref.json",
    origin: "https://schemastore.example.org",
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "fail",
    reading: "/.well-known/mcp.json is not an MCP server card (no remotes or serverInfo)",
  },
  {
    file: "mcp-server-card/msc-csoai-cisakev.json",
    origin: "https://meok.ai",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "fail",
    reading: "/.well-known/mcp/server-card.json is not an MCP server card (no remotes or serverInfo)",
  },
  {
    file: "mcp-server-card/msc-audiopod.json",
    origin: "https://audiopod.ai",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "warn",
    reading:
      "/.well-known/mcp/server-card.json is a server card for https://mcp.audiopod.ai/, but no live MCP server answered there",
  },
  {
    file: "mcp-server-card/msc-llmcouncil-stdio.json",
    origin: "https://llm-council.example.org",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "fail",
    reading:
      "/.well-known/mcp/server-card.json is a SEP-2127 card that names no remote endpoint (url and type) and no package to run",
  },
  {
    file: "mcp-server-card/msc-1inch-registry.json",
    origin: "https://1inch.com",
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "warn",
    reading:
      "/.well-known/mcp.json is a server card for https://api.1inch.com/mcp/protocol, but no live MCP server answered there",
  },
  {
    file: "mcp-server-card/msc-laisky.json",
    origin: "https://blog.laisky.com",
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "warn",
    reading:
      "/.well-known/mcp/server-card.json is a server card for https://mcp.laisky.com/, but no live MCP server answered there",
  },
  {
    file: "mcp-server-card/msc-aigen-legacypath.json",
    origin: "https://cryptogenesis.duckdns.org",
    path: "/.well-known/mcp-server-card.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "neutral",
    reading:
      "No MCP server card at the well-known paths, in an AI Catalog or at the MCP endpoint. Does not apply to a content site",
  },
  {
    file: "a2a-agent-card/a2a-telex-legacy.json",
    origin: "https://telex.example.org",
    path: "/.well-known/agent.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "/.well-known/agent.json is not an A2A agent card: it has no skills array",
  },
  {
    file: "a2a-agent-card/a2a-110kc3-informational.json",
    origin: "https://corpus.example.org",
    path: "/.well-known/agent-card.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "fail",
    reading: "/.well-known/agent-card.json is not an A2A agent card: it has no capabilities object",
  },
  {
    file: "api-catalog/apic-bitcoindesign.json",
    origin: "https://bitcoin.design",
    path: "/.well-known/api-catalog",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "fail",
    reading: "None of the API catalog's links that were followed resolve (https://bitcoin.design/guide/)",
  },
  {
    file: "api-catalog/apic-fairsfair-dummy.json",
    origin: "https://dummyrepository.org",
    path: "/.well-known/api-catalog",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "error",
    reading:
      "Whether the API catalog's links resolve could not be decided (https://www.openarchieven.nl/opensearch/nl.xml: was not fetched)",
  },
  {
    file: "api-catalog/apic-episciences.json",
    origin: "https://inbox.episciences.org",
    path: "/.well-known/api-catalog",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "error",
    reading:
      "Whether the API catalog's links resolve could not be decided (https://api.episciences.org/api/docs.yamlopenapi: was not fetched)",
  },
  {
    file: "api-catalog/apic-agora.json",
    origin: "https://docs.agora.io",
    path: "/.well-known/api-catalog",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "fail",
    reading:
      "None of the API catalog's links that were followed resolve (https://docs.agora.io/openapi/conversational-ai/rest-api.en.yaml, https://docs.agora.io/openapi/rtc/",
  },
  {
    file: "api-catalog/apic-lago-jsonext.json",
    origin: "https://api.getlago.com",
    path: "/.well-known/api-catalog.json",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "neutral",
    reading: "/.well-known/api-catalog answered 404. Does not apply to a content site",
  },
  {
    file: "api-catalog/apic-http4k-htmldesc.json",
    origin: "https://www.http4k.org",
    path: "/.well-known/api-catalog.json",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "neutral",
    reading: "/.well-known/api-catalog answered 404. Does not apply to a content site",
  },
  {
    file: "api-catalog/apic-anthonybible-contactform.json",
    origin: "https://anthony.bible",
    path: "/.well-known/api-catalog",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "fail",
    reading: "None of the API catalog's links that were followed resolve (https://anthony.bible/)",
  },
  {
    file: "api-catalog/apic-sabintsev-noapi.json",
    origin: "https://sabintsev.com",
    path: "/.well-known/api-catalog",
    type: JSON_TYPE,
    check: "api_catalog",
    status: "fail",
    reading:
      "None of the API catalog's links that were followed resolve (https://sabintsev.com/.well-known/agent-skills/index.json, https://sabintsev.com/llms.txt)",
  },
  {
    file: "oauth-metadata/oauth-prm-telnyx.json",
    origin: "https://api.telnyx.com",
    path: "/.well-known/oauth-protected-resource",
    type: JSON_TYPE,
    check: "oauth_protected_resource",
    status: "fail",
    reading: "The authorization server https://api.telnyx.com does not answer with RFC 8414 metadata",
  },
  {
    file: "oauth-metadata/oauth-as-calfitness.json",
    origin: "https://corpus.example.org",
    path: "/.well-known/oauth-authorization-server",
    type: JSON_TYPE,
    check: "oauth_authorization_server",
    status: "fail",
    reading:
      "/.well-known/oauth-authorization-server's issuer is https://calfitness.github.io, not this origin (https://corpus.example.org)",
  },
  {
    file: "oauth-metadata/oidc-azure-workloadid.json",
    origin: "https://corpus.example.org",
    path: "/.well-known/openid-configuration",
    type: JSON_TYPE,
    check: "oauth_authorization_server",
    status: "fail",
    reading:
      "/.well-known/openid-configuration's issuer is https://raw.githubusercontent.com/Azure/azure-workload-identity/testing-manifests/, not this origin (https://corpu",
  },
  {
    file: "oauth-metadata/oidc-pylonwiki-static.json",
    origin: "https://pylon-wiki.lgls.xyz",
    path: "/.well-known/openid-configuration",
    type: JSON_TYPE,
    check: "oauth_authorization_server",
    status: "pass",
    reading:
      "/.well-known/openid-configuration's issuer is this origin and its authorization and token endpoints are listed; it does not say it supports Client ID Metadata D",
  },
  {
    file: "oauth-metadata/oauth-prm-pylonwiki.json",
    origin: "https://pylon-wiki.lgls.xyz",
    path: "/.well-known/oauth-protected-resource",
    type: JSON_TYPE,
    check: "oauth_protected_resource",
    status: "fail",
    reading: "The authorization server https://pylon-wiki.lgls.xyz does not answer with RFC 8414 metadata",
  },
  {
    file: "web-bot-auth/wba-mikedorian.json",
    origin: "https://bots.example.org",
    path: "/.well-known/http-message-signatures-directory",
    type: JSON_TYPE,
    check: "web_bot_auth",
    status: "warn",
    reading:
      "The key directory holds 1 keys but is served as application/json, not application/http-message-signatures-directory+json",
  },
  {
    file: "web-bot-auth/wba-applehealth-minimal.json",
    origin: "https://bots.example.org",
    path: "/.well-known/http-message-signatures-directory",
    type: JSON_TYPE,
    check: "web_bot_auth",
    status: "warn",
    reading:
      "The key directory holds 1 keys but is served as application/json, not application/http-message-signatures-directory+json",
  },
  {
    file: "web-bot-auth/wba-optikal-labelkid.json",
    origin: "https://bots.example.org",
    path: "/.well-known/http-message-signatures-directory",
    type: JSON_TYPE,
    check: "web_bot_auth",
    status: "warn",
    reading:
      "The key directory holds 1 keys but is served as application/json, not application/http-message-signatures-directory+json",
  },
  {
    file: "agents-json/agentsjson-bellsplumbing.json",
    origin: "https://bellsplumbingutah.com",
    path: "/.well-known/agents.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "neutral",
    reading:
      "No A2A agent card at /.well-known/agent-card.json or /.well-known/agent.json. Not asked for: a site publishes this only when it does what it describes",
  },
  {
    file: "agents-json/agentsjson-aivillage-array.json",
    origin: "https://corpus.example.org",
    path: "/.well-known/agents.json",
    type: JSON_TYPE,
    check: "a2a_agent_card",
    status: "neutral",
    reading:
      "No A2A agent card at /.well-known/agent-card.json or /.well-known/agent.json. Not asked for: a site publishes this only when it does what it describes",
  },
  {
    file: "llms-txt/llms-pkgdown-geovizr.txt",
    origin: "https://riatelab.r-universe.dev",
    path: "/llms.txt",
    type: TEXT,
    check: "llms_full_txt",
    status: "fail",
    reading: "an llms.txt, with no /llms-full.txt beside it",
  },
  {
    file: "llms-txt/llms-laisky-section.txt",
    origin: "https://blog.laisky.com",
    path: "/docs/llms.txt",
    type: TEXT,
    check: "llms_full_txt",
    status: "fail",
    reading: "an llms.txt, with no /llms-full.txt beside it",
  },
  {
    file: "html-webmcp/html-webmcp-forest-both.html",
    origin: "https://forest.example.org",
    path: "/",
    type: HTML,
    check: "webmcp",
    status: "pass",
    reading: "The home page declares WebMCP tools on its forms (returnToHallway)",
  },
  {
    file: "html-jsonld-action/html-pokerhud-mcp-noaction.html",
    origin: "https://pokerhud.ai",
    path: "/",
    type: HTML,
    check: "schema_org_actions",
    status: "fail",
    reading: "The home page's JSON-LD declares no potentialAction",
  },
  {
    file: "html-jsonld-action/html-webmcp-result-jsonld-message.html",
    origin: "https://bistro.example.org",
    path: "/",
    type: HTML,
    check: "schema_org_actions",
    status: "fail",
    reading: "The home page's JSON-LD declares no potentialAction",
  },
  {
    file: "mcp-server-card/msc-aossie-template-todo.json",
    origin: "https://aossie.example.org",
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    check: "mcp_server_card",
    status: "fail",
    reading: "/.well-known/mcp.json is not an MCP server card (no remotes or serverInfo)",
  },
];

describe.skipIf(!existsSync(CORPUS))("the checklist over real documents", () => {
  it.each(CASES)("$file → $check $status ($reading)", async (entry) => {
    const answers = answersFor(entry.origin, { [entry.path]: { body: corpus(entry.file), type: entry.type } });
    const { checks } = await judgeChecklist(answers, null);
    const check = checks.find((each) => each.id === entry.check)!;
    expect({ status: check.status, reason: check.reason }).toMatchObject({ status: entry.status });
    if (check.status === "pass") expect(check.fix).toBeUndefined();
    if (check.status === "fail" || check.status === "warn") expect(check.fix).toMatch(/\S/);
  });

  it("covers every document of the corpus and agrees on at least 95% of them (reported)", async () => {
    const sources = readFileSync(new URL("SOURCES.tsv", CORPUS), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split("\t")[0]!);
    const agreeing = new Set(sources);
    for (const entry of CASES) {
      const answers = answersFor(entry.origin, { [entry.path]: { body: corpus(entry.file), type: entry.type } });
      const { checks } = await judgeChecklist(answers, null);
      if (checks.find((each) => each.id === entry.check)?.status !== entry.status) agreeing.delete(entry.file);
    }
    const covered = new Set(CASES.map((entry) => entry.file));
    const uncovered = sources.filter((file) => !covered.has(file));
    for (const file of uncovered) agreeing.delete(file);
    console.info(`the 2026 corpus: ${agreeing.size} of ${sources.length} documents agree with their readings`);
    expect(uncovered).toEqual([]);
    expect(agreeing.size / sources.length).toBeGreaterThanOrEqual(0.95);
  });
});
