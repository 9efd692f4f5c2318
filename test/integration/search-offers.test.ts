/**
 * Offers beside organic results: which offers a search discloses (active offers of verified and
 * fresh claims whose domain is on that page, only after the receipt committed), the public offer
 * record, the disclosure recorded per receipt, and the neutrality property: for random indexes,
 * queries and offer sets, the organic part of every answer is byte-identical with offers present
 * and absent.
 */
import { describe, expect, it } from "vitest";
import { insertClaimOf, insertOfferOf } from "../support/offers.ts";
import { type SearchBody, searchOk } from "../support/search.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient } from "../support/worker.ts";

const search = (params: Record<string, string | number | boolean>) => searchOk(asClient(), params);

/** Everything of a search answer but the offers and the per-search receipt. */
const organicPart = (body: SearchBody) =>
  JSON.stringify({
    results: body.results,
    total: body.total,
    total_exact: body.total_exact,
    page: body.page,
    per_page: body.per_page,
    has_next: body.has_next,
    eligible_domains: body.action_interest.eligible_domains,
  });

const disclosedTo = (searchId: string) =>
  sqlRows<{ offer_id: string; domain: string; offer_version: number }>(
    "select offer_id, domain, offer_version from search_offer_disclosures where search_id = $1",
    [searchId],
  );

const PUBLIC_OFFER_FIELDS = [
  "offer_id",
  "offer_version",
  "provider_domain",
  "name",
  "summary",
  "action_type",
  "charge_event",
  "bounty_cents",
  "currency",
  "principal_price_mode",
  "principal_currency",
  "billing_mode",
  "commercial_terms_contract_version",
  "commercial_terms_sha256",
  "sponsored",
  "charge_disclosure",
  "organic_rank_affected",
].sort();

describe("paid_offers in GET /search", () => {
  it("discloses only active offers of fresh verified claims on the page, records each disclosure, hides no bounty", async () => {
    const token = uniqueToken();
    const domains = ["a", "b", "c", "d", "e"].map((label) => `${label}${token}.example`);
    await insertSites(domains.map((domain, index) => ({ domain, name: `Site ${token}`, agenticScore: 90 - index })));
    const [fresh, stale, revoked, paused] = await Promise.all([
      insertClaimOf(domains[0]!),
      insertClaimOf(domains[1]!, { lastSucceededSecondsAgo: 604_800 }),
      insertClaimOf(domains[2]!, { revoked: true }),
      insertClaimOf(domains[3]!),
    ]);
    const shown = await insertOfferOf(fresh, domains[0]!, "active", 1234);
    await insertOfferOf(fresh, domains[0]!, "draft");
    await insertOfferOf(stale, domains[1]!, "active");
    await insertOfferOf(revoked, domains[2]!, "paused");
    await insertOfferOf(paused, domains[3]!, "paused");

    const body = await search({ q: token });
    expect(body.results.map((site) => site.domain)).toEqual(domains);
    expect(body.receipt_recorded).toBe(true);
    expect(body.paid_offers_available).toBe(true);
    expect(body.paid_offers).toHaveLength(1);
    const offer = body.paid_offers[0] as Record<string, unknown>;
    expect(Object.keys(offer).sort()).toEqual(PUBLIC_OFFER_FIELDS);
    expect(offer).toMatchObject({
      offer_id: shown,
      offer_version: 1,
      provider_domain: domains[0],
      bounty_cents: 1234,
      charge_event: "activated",
      sponsored: true,
      organic_rank_affected: false,
    });
    expect(offer.charge_disclosure).toContain("1234 USD cents");
    expect(JSON.stringify(offer)).not.toContain("https://");
    expect(await disclosedTo(body.search_id)).toEqual([{ offer_id: shown, domain: domains[0], offer_version: 1 }]);

    // Another page of the same query, without the offer's domain: nothing disclosed.
    const filtered = await search({ q: token, min_score: 89 });
    expect(filtered.results.map((site) => site.domain)).toEqual([domains[0], domains[1]]);
    const elsewhere = await search({ q: `${token}`, min_score: 0, category: "finance" });
    expect(elsewhere.results).toEqual([]);
    expect(elsewhere).toMatchObject({ paid_offers_available: false, paid_offers: [] });
  });

  it("says paid_offers_available false with an empty list when no offer qualifies, and records nothing", async () => {
    const token = uniqueToken();
    const domain = `solo${token}.example`;
    await insertSites([{ domain, name: `Site ${token}` }]);
    const claim = await insertClaimOf(domain);
    await insertOfferOf(claim, domain, "draft");
    const body = await search({ q: token });
    expect(body).toMatchObject({ receipt_recorded: true, paid_offers_available: false, paid_offers: [] });
    expect(await disclosedTo(body.search_id)).toEqual([]);
  });

  it("is offered by the MCP search tool from the same operation", async () => {
    const token = uniqueToken();
    const domain = `mcp${token}.example`;
    await insertSites([{ domain, name: `Site ${token}` }]);
    const offerId = await insertOfferOf(await insertClaimOf(domain), domain, "active");
    const response = await asClient()("/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_sites", arguments: { q: token } },
      }),
    });
    const text = await response.text();
    expect(text).toContain(offerId);
  });
});

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

const CATEGORIES = ["developer", "finance", "data", "ai-tools"] as const;
const TRIALS = 6;

describe("neutrality property", () => {
  it(`keeps the organic part byte-identical with offers present and absent (${TRIALS} random indexes)`, {
    timeout: 120_000,
  }, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const seed = (Date.now() + trial * 7919) >>> 0;
      const rng = random(seed);
      const token = uniqueToken();
      const count = rng.int(3, 45);
      const domains = Array.from({ length: count }, (_, index) => `s${index}${token}.example`);
      await insertSites(
        domains.map((domain) => ({
          domain,
          name: `Site ${token}`,
          agenticScore: rng.int(0, 100),
          category: rng.pick(CATEGORIES),
          hasMcpServer: rng.next() < 0.5,
          hasOpenapi: rng.next() < 0.5,
        })),
      );
      const queries = Array.from({ length: 3 }, () => {
        const query: Record<string, string | number | boolean> = { q: token, page: rng.int(1, 3) };
        if (rng.next() < 0.4) query.min_score = rng.int(0, 80);
        if (rng.next() < 0.3) query.category = rng.pick(CATEGORIES);
        if (rng.next() < 0.3) query.has_mcp = rng.next() < 0.5;
        return query;
      });
      const before = await Promise.all(queries.map(search));

      // A random offer set: fresh, stale and revoked claims; active, draft and paused offers.
      const eligible = new Map<string, string>();
      for (const domain of domains) {
        if (rng.next() < 0.5) continue;
        const kind = rng.pick(["fresh", "fresh", "stale", "revoked"] as const);
        const claimId = await insertClaimOf(domain, {
          lastSucceededSecondsAgo: kind === "stale" ? 604_800 + rng.int(0, 1000) : rng.int(0, 600_000),
          revoked: kind === "revoked",
        });
        for (let offers = rng.int(1, 2); offers > 0; offers--) {
          const status = kind === "revoked" ? "paused" : rng.pick(["active", "active", "draft", "paused"] as const);
          const offerId = await insertOfferOf(claimId, domain, status, rng.int(1, 1_000_000));
          if (kind === "fresh" && status === "active") eligible.set(offerId, domain);
        }
      }
      const after = await Promise.all(queries.map(search));

      for (const [index, query] of queries.entries()) {
        const context = `seed ${seed}, query ${JSON.stringify(query)}`;
        expect(organicPart(after[index]!), context).toBe(organicPart(before[index]!));
        expect(before[index]!.paid_offers, context).toEqual([]);
        const page = new Set(after[index]!.results.map((site) => site.domain));
        const expected = [...eligible].filter(([, domain]) => page.has(domain)).map(([offerId]) => offerId);
        const offers = after[index]!.paid_offers as { offer_id: string; provider_domain: string }[];
        expect(offers.map((offer) => offer.offer_id).sort(), context).toEqual(expected.sort());
        for (const offer of offers) expect(page.has(offer.provider_domain), context).toBe(true);
        expect(after[index]!.paid_offers_available, context).toBe(expected.length > 0);
        const recorded = await disclosedTo(after[index]!.search_id);
        expect(recorded.map((row) => row.offer_id).sort(), context).toEqual(expected.sort());
      }
    }
  });
});
