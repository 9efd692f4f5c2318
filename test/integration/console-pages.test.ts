/**
 * The provider console inside workerd, as a browser reaches it: every console page and action
 * without a live session is the sign-in page with status 401; another account's claim is a 404 page
 * for every page and action, and nothing of it changes; a POST from another site, or one without
 * any browser origin header, is a 403 page and changes nothing; a GET never changes anything. The
 * owner's own forms work (the baseline, so no refusal passes by the page failing for everyone),
 * the DNS challenge and the key appear once, and what the owner typed is shown as text.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  insertAccount,
  insertSession,
  insertSite,
  insertVerifiedClaim,
  OWN_ORIGIN,
  SESSION_COOKIE,
  sha256Hex,
  type TestSession,
} from "../support/accounts.ts";
import { insertReceipts } from "../support/receipts.ts";
import { sqlRows } from "../support/sites.ts";
import { asClient } from "../support/worker.ts";

/** The browser headers of a form POST from the service's own page. */
const SAME_ORIGIN = { "Sec-Fetch-Site": "same-origin", Origin: OWN_ORIGIN };

function request(
  method: "GET" | "POST",
  path: string,
  token: string | undefined,
  browser: Record<string, string> = SAME_ORIGIN,
  fields: Record<string, string> = {},
) {
  const headers = new Headers(method === "POST" ? browser : {});
  if (token !== undefined) headers.set("Cookie", `${SESSION_COOKIE}=${token}`);
  if (method === "GET") return asClient()(path, { headers, redirect: "manual" });
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  return asClient()(path, { method, headers, body: new URLSearchParams(fields).toString(), redirect: "manual" });
}

async function expectPage(response: Response, status: number): Promise<string> {
  const page = await response.text();
  expect(response.status, page.slice(0, 1500)).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  expect(response.headers.get("cache-control")).toContain("no-store");
  expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  return page;
}

/** What a claim holds that an action could change: its row and its keys. */
async function claimState(claimId: string) {
  const [claim] = await sqlRows<Record<string, unknown>>(
    "select status, challenge_sha256, revoked_at, verification_last_attempted_at, updated_at from provider_claims where id = $1",
    [claimId],
  );
  const keys = await sqlRows<Record<string, unknown>>(
    "select id, revoked_at from provider_api_keys where claim_id = $1 order by id",
    [claimId],
  );
  return { claim, keys };
}

/** Every console page and action, for a claim id. */
const consoleRoutes = (claimId: string) =>
  [
    ["GET", "/console"],
    ["POST", "/console/claims"],
    ["POST", "/console/sign-out"],
    ["GET", `/console/claims/${claimId}`],
    ["POST", `/console/claims/${claimId}/verify`],
    ["POST", `/console/claims/${claimId}/challenge`],
    ["GET", `/console/claims/${claimId}/keys/rotate`],
    ["POST", `/console/claims/${claimId}/keys/rotate`],
    ["GET", `/console/claims/${claimId}/revoke`],
    ["POST", `/console/claims/${claimId}/revoke`],
  ] as const;

/** The claim pages and actions only (the ones another account's claim id reaches). */
const claimRoutes = (claimId: string) => consoleRoutes(claimId).filter(([, path]) => path.includes(claimId));

describe("the provider console without a live session", () => {
  let claimId: string;
  let expired: TestSession;
  let ended: TestSession;

  beforeAll(async () => {
    ({ claimId } = await insertVerifiedClaim());
    expired = await insertSession({ expiresInSeconds: -60 });
    ended = await insertSession({ ended: true });
  });

  it("answers every page and action with the sign-in page and status 401, changing nothing", async () => {
    const before = await claimState(claimId);
    const tokens = [undefined, "not a token", `svcss_${"x".repeat(43)}`, () => expired.token, () => ended.token];
    for (const [method, path] of consoleRoutes(claimId)) {
      for (const token of tokens) {
        const value = typeof token === "function" ? token() : token;
        const page = await expectPage(await request(method, path, value), 401);
        expect(page, `${method} ${path}`).toContain("Sign in to open the provider console.");
        expect(page).toContain('action="/sign-in/email"');
      }
    }
    expect(await claimState(claimId)).toEqual(before);
  });
});

describe("another account's claim", () => {
  let owner: { claimId: string; domain: string };
  let stranger: TestSession;

  beforeAll(async () => {
    owner = await insertVerifiedClaim();
    stranger = await insertSession();
  });

  it("is a 404 page for every page and action, and nothing of it changes", async () => {
    const before = await claimState(owner.claimId);
    for (const [method, path] of claimRoutes(owner.claimId)) {
      const page = await expectPage(await request(method, path, stranger.token), 404);
      expect(page, `${method} ${path}`).toContain("No such claim.");
      expect(page).not.toContain(owner.domain);
    }
    expect(await claimState(owner.claimId)).toEqual(before);
  });

  it("is not listed on the stranger's console, and a path that is no claim id is a 404 page too", async () => {
    const home = await expectPage(await request("GET", "/console", stranger.token), 200);
    expect(home).not.toContain(owner.domain);
    expect(home).toContain("No claims yet.");
    await expectPage(await request("GET", "/console/claims/not-a-uuid", stranger.token), 404);
    await expectPage(await request("POST", "/console/claims/not-a-uuid/revoke", stranger.token), 404);
  });
});

describe("changes from other sites", () => {
  let session: TestSession;
  let claimId: string;

  beforeAll(async () => {
    const { accountId, email } = await insertAccount();
    session = await insertSession({ accountId, email });
    ({ claimId } = await insertVerifiedClaim({ accountId }));
  });

  const refusedBrowsers: [string, Record<string, string>][] = [
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }],
    ["Sec-Fetch-Site: same-site", { "Sec-Fetch-Site": "same-site", Origin: OWN_ORIGIN }],
    ["a foreign Origin (no fetch metadata)", { Origin: "https://evil.example" }],
    ["Origin: null (no fetch metadata)", { Origin: "null" }],
    ["neither header", {}],
  ];

  it.each(refusedBrowsers)("refuses every POST with %s: a 403 page, nothing changed", async (_, browser) => {
    const before = await claimState(claimId);
    const claimsBefore = await sqlRows("select id from provider_claims where account_id = $1", [session.accountId]);
    for (const [method, path] of consoleRoutes(claimId).filter(([method]) => method === "POST")) {
      const page = await expectPage(await request(method, path, session.token, browser, { domain: "x.example" }), 403);
      expect(page, `${method} ${path}`).toContain("This change can only be made from the service");
    }
    expect(await claimState(claimId)).toEqual(before);
    expect(await sqlRows("select id from provider_claims where account_id = $1", [session.accountId])).toEqual(
      claimsBefore,
    );
    // The session survived the refused sign-out.
    await expectPage(await request("GET", "/console", session.token), 200);
  });

  it("never changes anything on a GET, the confirmation steps included", async () => {
    const before = await claimState(claimId);
    for (const [, path] of consoleRoutes(claimId).filter(([method]) => method === "GET")) {
      await expectPage(await request("GET", path, session.token), 200);
    }
    // The addresses of actions, opened again, lead to their page without acting.
    for (const action of ["verify", "challenge"]) {
      const response = await request("GET", `/console/claims/${claimId}/${action}`, session.token);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`/console/claims/${claimId}`);
    }
    expect(await claimState(claimId)).toEqual(before);
  });
});

describe("the owner's own forms", () => {
  it("claim a domain (the record shown once), refuse what the API refuses on the form, rotate, revoke, sign out", async () => {
    const session = await insertSession({ email: `owner-${crypto.randomUUID().slice(0, 8)}@example.com` });
    const domain = await insertSite();

    const empty = await expectPage(await request("POST", "/console/claims", session.token, SAME_ORIGIN, {}), 400);
    expect(empty).toContain('aria-invalid="true"');
    const unknown = await expectPage(
      await request("POST", "/console/claims", session.token, SAME_ORIGIN, { domain: "<b>nowhere</b>.example" }),
      400,
    );
    expect(unknown).not.toContain("<b>nowhere</b>");
    expect(unknown).toContain("&lt;b&gt;nowhere&lt;/b&gt;.example");

    const claimed = await expectPage(
      await request("POST", "/console/claims", session.token, SAME_ORIGIN, { domain: ` ${domain.toUpperCase()} ` }),
      200,
    );
    const value = /id="record-value"[^>]*value="(svc-domain-verification=[A-Za-z0-9_-]{43})"/.exec(claimed)?.[1];
    expect(value).toBeDefined();
    const [row] = await sqlRows<{ id: string; challenge_sha256: string }>(
      "select id, challenge_sha256 from provider_claims where account_id = $1 and domain = $2",
      [session.accountId, domain],
    );
    expect(row!.challenge_sha256).toBe(await sha256Hex(value!));
    const claimPage = await expectPage(await request("GET", `/console/claims/${row!.id}`, session.token), 200);
    expect(claimPage).not.toContain(value!);
    expect(claimPage).toContain(`_agent-readiness-challenge.${domain}`);

    // A second live claim is refused on the form with the API's 409.
    const second = await expectPage(
      await request("POST", "/console/claims", session.token, SAME_ORIGIN, { domain: await insertSite() }),
      409,
    );
    expect(second).toContain("already has a live claim");

    // Rotating the key of a pending claim is refused on its page with the API's 409.
    const pendingRotation = await expectPage(
      await request("POST", `/console/claims/${row!.id}/keys/rotate`, session.token),
      409,
    );
    expect(pendingRotation).toContain("Only a verified claim holds provider keys");

    const revoked = await expectPage(await request("POST", `/console/claims/${row!.id}/revoke`, session.token), 200);
    expect(revoked).toContain(`The claim of ${domain} is revoked.`);
    expect((await claimState(row!.id)).claim?.status).toBe("revoked");

    const signedOut = await request("POST", "/console/sign-out", session.token);
    expect(await expectPage(signedOut, 200)).toContain("Signed out.");
    expect(signedOut.headers.get("set-cookie")).toMatch(/^svc_session=;/);
    await expectPage(await request("GET", "/console", session.token), 401);
  });

  it("shows a rotated key once and names the copy script in the page's CSP by its hash", async () => {
    const { accountId, email } = await insertAccount();
    const session = await insertSession({ accountId, email });
    const { claimId } = await insertVerifiedClaim({ accountId });
    const response = await request("POST", `/console/claims/${claimId}/keys/rotate`, session.token);
    const csp = response.headers.get("content-security-policy") ?? "";
    const page = await expectPage(response, 200);
    const key = /id="provider-key"[^>]*value="(svcpk_[A-Za-z0-9_-]{43})"/.exec(page)?.[1];
    expect(key).toBeDefined();
    const [active] = await sqlRows<{ key_sha256: string }>(
      "select key_sha256 from provider_api_keys where claim_id = $1 and revoked_at is null",
      [claimId],
    );
    expect(active!.key_sha256).toBe(await sha256Hex(key!));
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? "";
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script));
    expect(csp).toContain(`script-src 'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
    // Opened again, the page shows the key's prefix only, and runs no script.
    const again = await request("GET", `/console/claims/${claimId}`, session.token);
    expect(again.headers.get("content-security-policy")).not.toContain("script-src");
    const shown = await expectPage(again, 200);
    expect(shown).not.toContain(key!);
    expect(shown).toContain(key!.slice(0, 10));
    expect(shown).not.toContain("<script");
  });

  it("shows the signed-in address as text", async () => {
    const session = await insertSession({ email: `<img src=x onerror=alert(1)>-${crypto.randomUUID()}@example.com` });
    const home = await expectPage(await request("GET", "/console", session.token), 200);
    expect(home).not.toContain("<img src=x");
    expect(home).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("demand on the console", () => {
  it("shows the owner's verified claim's demand as the API computes it, thresholds kept, with its chart", async () => {
    const { accountId, email } = await insertAccount();
    const session = await insertSession({ accountId, email });
    const { claimId, domain } = await insertVerifiedClaim({ accountId });
    await insertReceipts({ domain, count: 30, surface: "web", topic: "payments", selections: 25, interests: 3 });
    await insertReceipts({ domain, count: 25, surface: "mcp", topic: "email" });

    const claimPage = await expectPage(await request("GET", `/console/claims/${claimId}`, session.token), 200);
    expect(claimPage).toContain(`href="${OWN_ORIGIN}/console/claims/${claimId}/demand"`);
    const response = await request("GET", `/console/claims/${claimId}/demand?days=7`, session.token);
    expect(response.headers.get("ratelimit-policy")).toBeTruthy();
    const page = await expectPage(response, 200);
    const text = page.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain(`Demand for ${domain}`);
    expect(text).toContain("Searches returning the domain 55");
    // 25 selections are shown (threshold 20); 3 interests are not.
    expect(text).toContain("Results chosen 25 (45.5 %)");
    expect(text).toMatch(/Action interests hidden \(under 20\)/);
    expect(text).toContain("payments 30 1 25");
    expect(text).toContain("email 25 1");
    expect(page).toMatch(/<svg[^>]*role="img"/);
    expect(text).toContain("Web pages: 30; REST API: 0; MCP: 25; Unknown: 0");
    expect(page).toMatch(/<option value="7" selected/);
  });

  it("is a 404 page for another account's claim or a claim no longer fresh, and 400 for a wrong period", async () => {
    const { accountId, email } = await insertAccount();
    const session = await insertSession({ accountId, email });
    const stale = await insertVerifiedClaim({ accountId, lastSucceededSecondsAgo: 604_800 });
    const other = await insertVerifiedClaim();
    expect(
      await expectPage(await request("GET", `/console/claims/${other.claimId}/demand`, session.token), 404),
    ).toContain("No such claim.");
    expect(
      await expectPage(await request("GET", `/console/claims/${stale.claimId}/demand`, session.token), 404),
    ).toContain("no longer verified and fresh");
    const fresh = await insertSession();
    const own = await insertVerifiedClaim({ accountId: fresh.accountId });
    for (const days of ["0", "31", "1.5", "x"]) {
      await expectPage(await request("GET", `/console/claims/${own.claimId}/demand?days=${days}`, fresh.token), 400);
    }
    await expectPage(await request("GET", `/console/claims/${own.claimId}/demand`, undefined), 401);
  });
});

describe("offers on the console", () => {
  const offerFields = (domain: string, extra: Record<string, string> = {}) => ({
    name: "Book a demo",
    summary: "A 30-minute demo with an engineer.",
    action_type: "demo",
    action_url: `https://${domain}/demo`,
    charge_event: "accepted",
    bounty_cents: "500",
    principal_price_mode: "free",
    principal_price_cents: "",
    terms_credit_limit_cents: "10000",
    terms_period_days: "",
    ...extra,
  });

  it("creates a draft, edits it as new versions with the terms hash of the canonical JSON shown, and pauses an active offer", async () => {
    const { accountId, email } = await insertAccount();
    const session = await insertSession({ accountId, email });
    const { claimId, domain } = await insertVerifiedClaim({ accountId });

    // Refused on the form, by the API's schema and the domain's own rule, with nothing written.
    const badNumber = await expectPage(
      await request("POST", `/console/claims/${claimId}/offers`, session.token, SAME_ORIGIN, {
        ...offerFields(domain, { bounty_cents: "five" }),
      }),
      400,
    );
    expect(badNumber).toMatch(/id="offer-bounty-cents"[^>]*aria-invalid="true"/);
    const offDomain = await expectPage(
      await request("POST", `/console/claims/${claimId}/offers`, session.token, SAME_ORIGIN, {
        ...offerFields(domain, { action_url: "https://elsewhere.example/demo" }),
      }),
      400,
    );
    expect(offDomain).toContain(`must be an HTTPS URL on ${domain}`);
    expect(await sqlRows("select id from provider_offers where claim_id = $1", [claimId])).toEqual([]);

    const created = await expectPage(
      await request("POST", `/console/claims/${claimId}/offers`, session.token, SAME_ORIGIN, offerFields(domain)),
      200,
    );
    expect(created).toContain("Draft created.");
    const [offer] = await sqlRows<{ id: string; commercial_terms_sha256: string }>(
      "select id, commercial_terms_sha256 from provider_offers where claim_id = $1",
      [claimId],
    );
    const canonical = (page: string) =>
      (/<textarea id="canonical-terms"[^>]*>([^<]*)<\/textarea>/.exec(page)?.[1] ?? "").replaceAll("&quot;", '"');
    expect(await sha256Hex(canonical(created))).toBe(offer!.commercial_terms_sha256);
    expect(created).toContain(offer!.commercial_terms_sha256);

    // A new name only: version 2, the same hash. New terms: version 3, a new hash.
    const renamed = await expectPage(
      await request("POST", `/console/offers/${offer!.id}`, session.token, SAME_ORIGIN, {
        ...offerFields(domain, { name: "Book a <b>demo</b>" }),
      }),
      200,
    );
    expect(renamed).toContain("Version 2 saved.");
    expect(renamed).toContain("Book a &lt;b&gt;demo&lt;/b&gt;");
    expect(renamed).toContain(offer!.commercial_terms_sha256);
    const repriced = await expectPage(
      await request("POST", `/console/offers/${offer!.id}`, session.token, SAME_ORIGIN, {
        ...offerFields(domain, { bounty_cents: "700" }),
      }),
      200,
    );
    expect(repriced).toContain("Version 3 saved.");
    const [version3] = await sqlRows<{ commercial_terms_sha256: string }>(
      "select commercial_terms_sha256 from provider_offers where id = $1",
      [offer!.id],
    );
    expect(version3!.commercial_terms_sha256).not.toBe(offer!.commercial_terms_sha256);
    expect(await sha256Hex(canonical(repriced))).toBe(version3!.commercial_terms_sha256);
    expect(
      await sqlRows("select version from provider_offer_versions where offer_id = $1 order by version", [offer!.id]),
    ).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);

    // A draft cannot be paused (409 on its page); an active one can, and then shows no edit form.
    expect(await expectPage(await request("POST", `/console/offers/${offer!.id}/pause`, session.token), 409)).toContain(
      "Only an active offer can be paused",
    );
    await sqlRows("update provider_offers set status = 'active', activated_at = now() where id = $1", [offer!.id]);
    const paused = await expectPage(await request("POST", `/console/offers/${offer!.id}/pause`, session.token), 200);
    expect(paused).toContain("The offer is paused.");
    expect(paused).not.toContain("Save a new version");
    const [state] = await sqlRows<{ status: string }>("select status from provider_offers where id = $1", [offer!.id]);
    expect(state!.status).toBe("paused");

    const list = await expectPage(await request("GET", `/console/claims/${claimId}/offers`, session.token), 200);
    expect(list).toContain(`href="${OWN_ORIGIN}/console/offers/${offer!.id}"`);
  });

  it("keeps another account's offers and claims out of reach (404), and refuses cross-site posts (403)", async () => {
    const { accountId, email } = await insertAccount();
    const owner = await insertSession({ accountId, email });
    const { claimId, domain } = await insertVerifiedClaim({ accountId });
    await expectPage(
      await request("POST", `/console/claims/${claimId}/offers`, owner.token, SAME_ORIGIN, offerFields(domain)),
      200,
    );
    const [offer] = await sqlRows<{ id: string; version: number }>(
      "select id, version from provider_offers where claim_id = $1",
      [claimId],
    );
    const stranger = await insertSession();
    for (const [method, path] of [
      ["GET", `/console/claims/${claimId}/offers`],
      ["GET", `/console/claims/${claimId}/offers/new`],
      ["POST", `/console/claims/${claimId}/offers`],
      ["GET", `/console/offers/${offer!.id}`],
      ["POST", `/console/offers/${offer!.id}`],
      ["POST", `/console/offers/${offer!.id}/pause`],
    ] as const) {
      const page = await expectPage(await request(method, path, stranger.token, SAME_ORIGIN, offerFields(domain)), 404);
      expect(page, `${method} ${path}`).not.toContain(domain);
    }
    const crossSite = { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" };
    for (const path of [
      `/console/claims/${claimId}/offers`,
      `/console/offers/${offer!.id}`,
      `/console/offers/${offer!.id}/pause`,
    ]) {
      await expectPage(
        await request("POST", path, owner.token, crossSite, offerFields(domain, { name: "Changed" })),
        403,
      );
    }
    await expectPage(await request("GET", `/console/offers/${offer!.id}`, undefined), 401);
    expect(await sqlRows("select id, version from provider_offers where claim_id = $1", [claimId])).toEqual([offer]);
  });
});

describe("pilot status on the console", () => {
  it("shows the owner's claim's pilot status with its offers, and is a 404 page for another's or a stale claim", async () => {
    const { accountId, email } = await insertAccount();
    const session = await insertSession({ accountId, email });
    const { claimId, domain } = await insertVerifiedClaim({ accountId });
    await expectPage(
      await request("POST", `/console/claims/${claimId}/offers`, session.token, SAME_ORIGIN, {
        name: "Start a trial",
        summary: "Fourteen days free.",
        action_type: "trial",
        action_url: `https://${domain}/trial`,
        charge_event: "activated",
        bounty_cents: "250",
        principal_price_mode: "free",
      }),
      200,
    );
    const page = await expectPage(await request("GET", `/console/claims/${claimId}/pilot-status`, session.token), 200);
    const text = page.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain(`Pilot status of ${domain}`);
    expect(text).toContain("Start a trial draft 1 250 no no no");
    expect(text).toContain("No handoffs observed yet.");

    const other = await insertVerifiedClaim();
    await expectPage(await request("GET", `/console/claims/${other.claimId}/pilot-status`, session.token), 404);
    const staleOwner = await insertAccount();
    const staleSession = await insertSession(staleOwner);
    const stale = await insertVerifiedClaim({ accountId: staleOwner.accountId, lastSucceededSecondsAgo: 604_800 });
    expect(
      await expectPage(await request("GET", `/console/claims/${stale.claimId}/pilot-status`, staleSession.token), 404),
    ).toContain("no longer verified and fresh");
    await expectPage(await request("GET", `/console/claims/${claimId}/pilot-status`, undefined), 401);
  });
});
