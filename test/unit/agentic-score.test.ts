import { describe, expect, it } from "vitest";
import { agenticScore, SIGNAL_WEIGHTS, type Signals } from "../../src/domain/scoring/agentic-score.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";

const none: Signals = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, false])) as unknown as Signals;
const all: Signals = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, true])) as unknown as Signals;

describe("agenticScore v1", () => {
  it("scores no signal 0 and every signal 100", () => {
    expect(agenticScore(none)).toBe(0);
    expect(agenticScore(all)).toBe(100);
  });

  it("weights each signal as documented", () => {
    expect(SIGNAL_WEIGHTS).toEqual({
      has_mcp_server: 20,
      has_openapi: 20,
      has_structured_api: 15,
      has_llms_txt: 15,
      has_ai_plugin: 10,
      has_schema_org: 10,
      has_robots_ai: 10,
    });
    expect(agenticScore({ ...none, has_llms_txt: true, has_schema_org: true })).toBe(25);
    expect(agenticScore({ ...none, has_mcp_server: true, has_openapi: true, has_robots_ai: true })).toBe(50);
  });

  it("stays within 0-100 and grows with every added signal, for all 128 signal sets", () => {
    for (let mask = 0; mask < 128; mask++) {
      const signals = Object.fromEntries(SIGNAL_FIELDS.map((field, i) => [field, Boolean(mask & (1 << i))]));
      const score = agenticScore(signals as unknown as Signals);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(100);
      for (let i = 0; i < 7; i++) {
        if (mask & (1 << i)) continue;
        const more = { ...signals, [SIGNAL_FIELDS[i] as string]: true } as unknown as Signals;
        expect(agenticScore(more)).toBeGreaterThan(score);
      }
    }
  });
});
