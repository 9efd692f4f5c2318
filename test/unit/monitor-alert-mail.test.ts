/**
 * The score-drop rules that need no database: which domains a monitor accepts, the unsubscribe
 * headers of every alert, and the alert's words for each way a signal can be lost.
 */
import { describe, expect, it } from "vitest";
import { type DropAlert, unsubscribeHeaders } from "../../src/domain/monitors/drop-alerts.ts";
import { parseMonitorDomain } from "../../src/domain/monitors/register-monitor.ts";
import { composeDropAlert } from "../../src/web/monitor-alert-mail.ts";

describe("parseMonitorDomain", () => {
  it("normalises a domain as the index keys it", () => {
    expect(parseMonitorDomain(" Example.COM. ", false)).toBe("example.com");
    expect(parseMonitorDomain("bücher.example", false)).toBe("xn--bcher-kva.example");
  });

  it.each([
    "https://example.com",
    "http://example.com/",
    "example.com/path",
    "localhost",
    "10.0.0.1",
    "",
    "a b.example",
  ])("refuses %j with INVALID_DOMAIN", (input) => {
    expect(() => parseMonitorDomain(input, false)).toThrowError(expect.objectContaining({ code: "INVALID_DOMAIN" }));
  });
});

describe("parseMonitorDomain: names that are not public sites", () => {
  it.each([
    ["x.internal", "belongs to a private network"],
    ["metadata.google.internal", "belongs to a private network"],
    ["host.docker.internal", "belongs to a private network"],
    ["x.local", "multicast DNS"],
    ["localhost.localdomain", "belongs to a private network"],
    ["1.0.0.127.in-addr.arpa", "arpa"],
    ["router.home.arpa", "home network (RFC 8375)"],
    ["kubernetes.default.svc", "a cluster's service names"],
    ["api.localhost", "local machine"],
    ["nothing.invalid", "never exists"],
    ["hidden.onion", "onion"],
  ])("refuses %s with DOMAIN_NOT_ALLOWED and the reason", (input, reason) => {
    expect(() => parseMonitorDomain(input, false)).toThrowError(
      expect.objectContaining({ code: "DOMAIN_NOT_ALLOWED", message: expect.stringContaining(reason) }),
    );
  });

  it("keeps public names, and the documentation names the demo uses", () => {
    for (const domain of ["example.com", "weather.example", "shop.test", "internal.example.com", "local.news"]) {
      expect(parseMonitorDomain(domain, false)).toBe(domain);
    }
  });

  it("lifts the name rule with FETCH_ALLOW_PRIVATE, as for URLs", () => {
    expect(parseMonitorDomain("x.internal", true)).toBe("x.internal");
  });
});

describe("unsubscribeHeaders", () => {
  it("names the link in angle brackets and offers RFC 8058 one-click", () => {
    expect(unsubscribeHeaders("https://svc.example/monitor/unsubscribe?token=svcmu_x")).toEqual({
      "List-Unsubscribe": "<https://svc.example/monitor/unsubscribe?token=svcmu_x>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });
});

const alert = (overrides: Partial<DropAlert>): DropAlert => ({
  email: "owner@example.com",
  domain: "shop.example",
  siteName: "Shop <b>&amp;</b>",
  previousScore: 60,
  score: 40,
  lostSignals: ["has_openapi"],
  evidence: {
    has_openapi: {
      status: "blocked",
      reason: "The site answered 403 to our crawler.",
      fetched: [{ url: "https://shop.example/openapi.json", status: 403, content_type: "text/html" }],
    },
  },
  history: [
    { recordedAt: "2026-11-23T04:00:00.000Z", score: 40 },
    { recordedAt: "2026-11-16T04:00:00.000Z", score: 60 },
  ],
  unsubscribeUrl: "https://svc.example/monitor/unsubscribe?token=svcmu_abc",
  origin: "https://svc.example",
  ...overrides,
});

describe("composeDropAlert", () => {
  it("explains a signal lost to blocking with the evidence and the advice for a blocked signal", () => {
    const { subject, text } = composeDropAlert(alert({}));
    expect(subject).toBe("Score drop: shop.example 60 → 40");
    expect(text).toContain("* OpenAPI document: now blocked");
    expect(text).toContain("Why: The site answered 403 to our crawler.");
    expect(text).toContain("Fetched: https://shop.example/openapi.json (status 403, text/html)");
    expect(text).toContain("How to fix it: The site refused our crawler here");
    expect(text).toContain("Standard: OpenAPI Specification, https://spec.openapis.org/oas/latest.html");
    expect(text).toContain("Score history (newest first):\n  2026-11-23 04:00 UTC  40\n  2026-11-16 04:00 UTC  60");
    expect(text).toContain("https://svc.example/sites/shop.example");
    expect(text).toContain("Stop them with one click: https://svc.example/monitor/unsubscribe?token=svcmu_abc");
  });

  it("says so when points dropped without a lost signal, and names a signal lost at an equal score", () => {
    expect(composeDropAlert(alert({ lostSignals: [], evidence: {} })).text).toContain("No signal was lost");
    const same = composeDropAlert(alert({ previousScore: 40, score: 40 }));
    expect(same.text.split("\n")[0]).toBe("shop.example lost a signal (score 40).");
  });
});
