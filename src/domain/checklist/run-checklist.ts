/**
 * The checklist of one crawl: the kind of site, then each check's verdict made into the
 * contract's shape. A missing document fails only where the check applies to the site's kind and
 * is not opt-in; elsewhere it is neutral ("does not apply", "not asked for"). Nothing here
 * touches the score: the checks read the signals, never the other way round.
 */

import { sha256Hex } from "../sha256.ts";
import { isHtmlAnswer } from "../signals/blocking.ts";
import { findSchemaOrgMarkup } from "../signals/detect-schema-org.ts";
import type { Category, SignalField } from "../sites/site-fields.ts";
import { answerAt, type ChecklistAnswers } from "./checklist-answers.ts";
import {
  CHECK_IDS,
  CHECKS,
  type CheckId,
  type ChecklistSummary,
  type CheckResult,
  SITE_KIND_LABELS,
  type SiteKind,
  summarizeChecklist,
} from "./checklist-definition.ts";
import { proveChecklist } from "./checklist-proofs.ts";
import { checkAgentSkills, type DigestsByUrl, type Judgement, SYNC_CHECKS, skillArtifactUrls } from "./checks.ts";

/** schema.org types that mark a page as a shop's. */
const STORE_TYPES = new Set([
  "Product",
  "ProductGroup",
  "Offer",
  "AggregateOffer",
  "Store",
  "OnlineStore",
  "ShoppingCenter",
  "ProductCollection",
]);

/**
 * The kind of site, from the crawl: a store when the home page marks up products or offers (or
 * the site is classified as e-commerce); an API site when an API, OpenAPI document or MCP server
 * was found; a content site otherwise.
 */
export function inferSiteKind(
  answers: Pick<ChecklistAnswers, "signals" | "get" | "origin">,
  category: Category | null,
): { kind: SiteKind; reason: string } {
  const home = answerAt(answers as ChecklistAnswers, "/");
  const types = home?.ok && home.status === 200 && isHtmlAnswer(home) ? findSchemaOrgMarkup(home.body).types : [];
  const storeType = types.find((type) => STORE_TYPES.has(type));
  if (storeType) return { kind: "store", reason: `The home page marks up schema.org ${storeType}.` };
  if (category === "ecommerce") return { kind: "store", reason: "The site is classified as e-commerce." };
  const apiSignals: [SignalField, string][] = [
    ["has_openapi", "an OpenAPI document"],
    ["has_structured_api", "a structured API"],
    ["has_mcp_server", "an MCP server"],
  ];
  const found = apiSignals.filter(([field]) => answers.signals[field].status === "present").map(([, what]) => what);
  if (found.length > 0) return { kind: "api", reason: `The crawl found ${found.join(" and ")}.` };
  return { kind: "content", reason: "The crawl found no API and no product markup, so the site is read as content." };
}

function toResult(id: CheckId, judgement: Judgement, kind: SiteKind): CheckResult {
  const definition = CHECKS[id];
  const base = { id, category: definition.category, title: definition.title, applies_to: [...definition.appliesTo] };
  if ("missing" in judgement) {
    const applies = definition.appliesTo.includes(kind) && !definition.optIn;
    if (applies)
      return { ...base, status: "fail", reason: judgement.reason, evidence: judgement.evidence, fix: judgement.fix };
    const why = definition.optIn
      ? "Not asked for: a site publishes this only when it does what it describes."
      : `Does not apply to ${SITE_KIND_LABELS[kind]}.`;
    return {
      ...base,
      status: "neutral",
      reason: `${judgement.reason} ${why}`,
      evidence: judgement.evidence,
      fix: judgement.fix,
    };
  }
  return {
    ...base,
    status: judgement.status,
    reason: judgement.reason,
    evidence: judgement.evidence,
    ...(judgement.status !== "pass" && judgement.fix ? { fix: judgement.fix } : {}),
  };
}

/** The digests of the skill files fetched, for the agent_skills check. */
async function skillDigests(answers: ChecklistAnswers): Promise<DigestsByUrl> {
  const digests: DigestsByUrl = new Map();
  for (const url of skillArtifactUrls(answers)) {
    const response = answers.get.get(url);
    if (response?.ok && response.status === 200) digests.set(url, await sha256Hex(response.body));
  }
  return digests;
}

/** Judges every check from gathered answers (pure but for hashing). */
export async function judgeChecklist(
  answers: ChecklistAnswers,
  category: Category | null,
): Promise<{ checks: CheckResult[]; summary: ChecklistSummary }> {
  const { kind, reason } = inferSiteKind(answers, category);
  const digests = await skillDigests(answers);
  answers.proofs ??= await proveChecklist(answers);
  const checks = CHECK_IDS.map((id) =>
    toResult(id, id === "agent_skills" ? checkAgentSkills(answers, digests) : SYNC_CHECKS[id](answers), kind),
  );
  return { checks, summary: summarizeChecklist(checks, kind, reason) };
}
