/**
 * Undecided is not absent in the checklist's OAuth checks: an authorization server whose metadata
 * the crawl did not fetch (its request budget refused it) or could not fetch is `error`, never
 * the `fail` "does not answer" (issue 43).
 */
import { describe, expect, it } from "vitest";
import { judgeChecklist } from "../../src/domain/checklist/run-checklist.ts";
import type { ProbeResponse } from "../../src/domain/signals/types.ts";
import { answersFor } from "../support/checklist-answers.ts";

const ORIGIN = "https://vault.example";
const METADATA = {
  "/.well-known/oauth-protected-resource": {
    type: "application/json",
    body: JSON.stringify({ resource: ORIGIN, authorization_servers: [ORIGIN] }),
  },
};

function refused(url: string, message: string): ProbeResponse {
  return { ok: false, url, finalUrl: url, redirects: [], failure: "refused", message };
}

describe("oauth_protected_resource when the authorization server was not decided", () => {
  it("is error, with the reason, when the budget refused the metadata requests", async () => {
    const answers = answersFor(ORIGIN, METADATA);
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      answers.get.set(
        `${ORIGIN}${path}`,
        refused(`${ORIGIN}${path}`, "not fetched: the crawl's budget of 64 requests was spent"),
      );
    }
    const { checks } = await judgeChecklist(answers, null);
    const check = checks.find((each) => each.id === "oauth_protected_resource")!;
    expect(check.status, check.reason).toBe("error");
    expect(check.reason).toContain("budget");
  });

  it("is error on a 503, and still fail when the server answered 404 to both", async () => {
    const unavailable = answersFor(ORIGIN, {
      ...METADATA,
      "/.well-known/oauth-authorization-server": { type: "text/plain", body: "down", status: 503 },
    });
    const down = (await judgeChecklist(unavailable, null)).checks.find(
      (each) => each.id === "oauth_protected_resource",
    )!;
    expect(down.status, down.reason).toBe("error");
    const missing = (await judgeChecklist(answersFor(ORIGIN, METADATA), null)).checks.find(
      (each) => each.id === "oauth_protected_resource",
    )!;
    expect(missing.status, missing.reason).toBe("fail");
  });
});
