/** The free search limit: 240 searches per hour per client, then 429 until the window moves. */
import { describe, expect, it } from "vitest";
import { uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, expectProblem } from "../support/worker.ts";

describe("GET /api/v1/search rate limit", () => {
  it("answers the 241st search of an hour from one client with 429 RATE_LIMITED and Retry-After", async () => {
    await awayFromWindowEdge(3600, 60);
    const get = asClient();
    const q = uniqueToken();
    const remaining: number[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const responses = await Promise.all(Array.from({ length: 40 }, () => get(`/api/v1/search?q=${q}`)));
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.headers.get("ratelimit-limit")).toBe("240");
        remaining.push(Number(response.headers.get("ratelimit-remaining")));
        await response.body?.cancel();
      }
    }
    // Counted atomically: each of the 240 saw a different remaining figure.
    expect(new Set(remaining).size).toBe(240);
    expect(Math.min(...remaining)).toBe(0);

    const refused = await get(`/api/v1/search?q=${q}`);
    const body = await expectProblem(refused, 429, "RATE_LIMITED");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(body).toMatchObject({ title: "Too many requests", limit: 240, retry_after_seconds: retryAfter });
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");

    // The limit is per client: another address still searches.
    expect((await asClient()(`/api/v1/search?q=${q}`)).status).toBe(200);
  }, 180_000);
});
