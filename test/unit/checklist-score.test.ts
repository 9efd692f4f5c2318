/**
 * The checklist never moves the score: agentic_score is the sum of the seven signals' weights,
 * and whatever the checklist's answers say, the checks that mirror a signal agree with it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHECK_IDS,
  CHECK_STATUSES,
  packStatuses,
  unpackStatuses,
} from "../../src/domain/checklist/checklist-definition.ts";
import { judgeChecklist } from "../../src/domain/checklist/run-checklist.ts";
import { agenticScore, type Signals } from "../../src/domain/scoring/agentic-score.ts";
import type { SignalFinding } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";
import { answersFor } from "../support/checklist-answers.ts";

const MIRRORS: Record<string, SignalField> = {
  llms_txt: "has_llms_txt",
  schema_org: "has_schema_org",
  ai_bot_rules: "has_robots_ai",
  openapi: "has_openapi",
  structured_api: "has_structured_api",
  mcp_server: "has_mcp_server",
  ai_plugin: "has_ai_plugin",
};

const signalStatus = fc.constantFrom("present", "absent", "blocked", "error") as fc.Arbitrary<SignalFinding["status"]>;
const documentBody = fc.oneof(
  fc.string(),
  fc.constant('{"keys": [{"kty": "OKP"}]}'),
  fc.constant('{"linkset": []}'),
  fc.constant("User-agent: *\nContent-Signal: search=yes\nContent-Usage: train-ai=n\n"),
  fc.constant("<!doctype html><html><body>Not found</body></html>"),
);
const paths = fc.constantFrom(
  "/robots.txt",
  "/sitemap.xml",
  "/llms-full.txt",
  "/.well-known/http-message-signatures-directory",
  "/.well-known/ai-catalog.json",
  "/.well-known/agent-card.json",
  "/.well-known/agent-skills/index.json",
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-authorization-server",
  "/",
);

describe("the checklist and the score", () => {
  it("no checklist answer moves agentic_score, and mirrored checks agree with their signal", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, signalStatus])) as Record<
            SignalField,
            fc.Arbitrary<SignalFinding["status"]>
          >,
        ),
        fc.dictionary(
          paths,
          fc.record({ body: documentBody, type: fc.constantFrom("application/json", "text/plain", "text/html") }),
        ),
        async (statuses, documents) => {
          const signals = Object.fromEntries(
            SIGNAL_FIELDS.map((field): [SignalField, SignalFinding] => [
              field,
              { status: statuses[field], reason: "Seen.", fetched: [] },
            ]),
          ) as Record<SignalField, SignalFinding>;
          const flags = Object.fromEntries(
            SIGNAL_FIELDS.map((field) => [field, statuses[field] === "present"]),
          ) as unknown as Signals;
          const before = agenticScore(flags);
          const { checks } = await judgeChecklist(answersFor("https://site.example.org", documents, signals), null);
          expect(agenticScore(flags)).toBe(before);
          expect(checks.map((check) => check.id)).toEqual([...CHECK_IDS]);
          for (const check of checks) {
            expect(CHECK_STATUSES).toContain(check.status);
            if (check.status === "pass") expect(check.fix).toBeUndefined();
            const field = MIRRORS[check.id];
            if (field) expect(check.status === "pass").toBe(statuses[field] === "present");
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("packs statuses in the stable id order and reads them back", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...CHECK_STATUSES), { minLength: CHECK_IDS.length, maxLength: CHECK_IDS.length }),
        (statuses) => {
          const checks = CHECK_IDS.map((id, index) => ({ id, status: statuses[index]! }));
          const packed = packStatuses(checks);
          expect(packed).toHaveLength(CHECK_IDS.length);
          expect(unpackStatuses(packed)).toEqual(Object.fromEntries(checks.map((check) => [check.id, check.status])));
        },
      ),
    );
  });
});
