/**
 * The checklist and MCP endpoint health of each demo site (scripts/seed-demo.ts), so the adoption
 * rollups, /state and the site reports have every check to show on `npm start`. Deterministic: a
 * site's own random stream is seeded by its domain. Checks that restate a signal follow the site's
 * flag (the has_llms_txt signal is the llms_txt check); the others pass with a fixed base rate per
 * check, opt-in checks read `neutral` when absent, and a few documents are flawed (`warn`).
 */
import {
  CHECK_IDS,
  CHECKS,
  type CheckId,
  type CheckResult,
  type CheckStatus,
  packPresentStatuses,
  type SiteKind,
  summarizeChecklist,
} from "../../src/domain/checklist/checklist-definition.ts";
import { MCP_ENDPOINT_HEALTH } from "../../src/domain/signals/mcp-health.ts";
import type { SignalField } from "../../src/domain/sites/site-fields.ts";
import type { NewSiteRow, StoredChecklist } from "../schema/sites.ts";
import { demoSiteSignals, hashText, seededRandom } from "./demo-index.ts";

/** The checks that restate a signal. */
const SIGNAL_CHECKS: Partial<Record<CheckId, SignalField>> = {
  llms_txt: "has_llms_txt",
  schema_org: "has_schema_org",
  ai_bot_rules: "has_robots_ai",
  openapi: "has_openapi",
  structured_api: "has_structured_api",
  mcp_server: "has_mcp_server",
  ai_plugin: "has_ai_plugin",
};

/** How often each other check passes on an average demo site. */
const PASS_RATE: Partial<Record<CheckId, number>> = {
  robots_txt: 0.82,
  sitemap: 0.64,
  link_headers: 0.07,
  markdown_negotiation: 0.05,
  llms_full_txt: 0.12,
  schema_org_actions: 0.09,
  content_signals: 0.11,
  content_usage: 0.03,
  web_bot_auth: 0.01,
  api_catalog: 0.04,
  ai_catalog: 0.02,
  mcp_server_card: 0.05,
  a2a_agent_card: 0.02,
  agent_skills: 0.01,
  webmcp: 0.01,
  oauth_protected_resource: 0.04,
  oauth_authorization_server: 0.06,
};

/** The demo site with its checklist, packed statuses and MCP endpoint health filled in. */
export function withDemoChecklist(site: NewSiteRow): NewSiteRow {
  const random = seededRandom(hashText(`checklist:${site.domain}`));
  const signals = demoSiteSignals(site);
  // An MCP server is nearly always advertised (a card or catalog names it); a few sites advertise
  // an endpoint that does not work.
  const advertised = signals.has_mcp_server ? random() < 0.8 : random() < 0.05;
  const health = !advertised
    ? null
    : signals.has_mcp_server
      ? random() < 0.75
        ? "handshake"
        : "auth_gated"
      : (["auth_gated", "not_mcp", "not_mcp", "unreachable"] as const)[Math.floor(random() * 4)]!;
  const checks: CheckResult[] = CHECK_IDS.map((id) => {
    const definition = CHECKS[id];
    const signal = SIGNAL_CHECKS[id];
    let status: CheckStatus;
    if (signal) status = signals[signal] ? "pass" : "fail";
    else if (id === "mcp_server_card") status = advertised ? (random() < 0.7 ? "pass" : "warn") : "fail";
    else {
      const roll = random();
      const rate = PASS_RATE[id] ?? 0.05;
      status = roll < rate ? "pass" : roll < rate * 1.3 ? "warn" : definition.optIn ? "neutral" : "fail";
    }
    const seen =
      status === "pass" ? "was found and is valid" : status === "warn" ? "was found, with flaws" : "was not found";
    return {
      id,
      category: definition.category,
      status,
      title: definition.title,
      reason: `Demo site: the ${definition.title} ${seen} (synthetic data, not a crawl).`,
      evidence: [],
      ...(status === "pass" ? {} : { fix: `Demo site: publish a valid ${definition.title}.` }),
      applies_to: [...definition.appliesTo],
    };
  });
  const kind: SiteKind = signals.has_structured_api || signals.has_openapi ? "api" : "content";
  const checklist: StoredChecklist = {
    checks,
    summary: summarizeChecklist(checks, kind, "Demo site: the kind follows its synthetic signals."),
  };
  return {
    ...site,
    checklist,
    checklistStatuses: packPresentStatuses(checks),
    mcpEndpointHealth: health === null ? null : MCP_ENDPOINT_HEALTH.indexOf(health),
  };
}
