/**
 * agentic_score: 0-100 from the seven signals, by a fixed, versioned weighting.
 *
 * Version 1 weights what lets an agent act over what only helps it read:
 * - MCP server 20 and OpenAPI 20: a callable, described tool surface is the most direct use.
 * - structured API 15: callable, but an agent must learn its shape elsewhere.
 * - llms.txt 15: the curated entry point agents read first.
 * - AI plugin manifest 10: a machine description of the API and its auth, now legacy.
 * - schema.org 10: structured facts about the site's content.
 * - AI rules in robots.txt 10: explicit terms for agents, so they can act without guessing.
 * The weights add up to 100: a site with every signal scores 100, one with none 0.
 */
import type { SignalField } from "../sites/site-fields.ts";

export const SCORE_VERSION = 1;

export const SIGNAL_WEIGHTS: Readonly<Record<SignalField, number>> = {
  has_mcp_server: 20,
  has_openapi: 20,
  has_structured_api: 15,
  has_llms_txt: 15,
  has_ai_plugin: 10,
  has_schema_org: 10,
  has_robots_ai: 10,
};

export type Signals = Readonly<Record<SignalField, boolean>>;

/** The score of a set of signals: the sum of the weights of those present. */
export function agenticScore(signals: Signals): number {
  let score = 0;
  for (const [field, weight] of Object.entries(SIGNAL_WEIGHTS) as [SignalField, number][]) {
    if (signals[field]) score += weight;
  }
  return score;
}
