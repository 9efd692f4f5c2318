/**
 * The crawl consumer and a site whose host name does not exist, with real message batches and the
 * production resolver path (DNS over HTTPS, DOH_URL: the test resolver answers NXDOMAIN for every
 * name it does not list): the outcome is recorded at the first attempt, counted in
 * sites.unresolved_crawls, and not retried within minutes.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../support/all-in-one-jobs.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";

/** One delivery of a crawl job, with what the consumer did to it. */
async function deliver(domain: string, attempts: number) {
  const outcome: { acked: boolean; retried: (QueueRetryOptions | undefined)[] } = { acked: false, retried: [] };
  const message = {
    id: `unresolved-${uniqueToken()}`,
    timestamp: new Date(),
    attempts,
    body: { domain, url: `https://${domain}`, reason: "recrawl", requested_at: new Date().toISOString() },
    ack: () => {
      outcome.acked = true;
    },
    retry: (options?: QueueRetryOptions) => void outcome.retried.push(options),
  };
  const batch = { queue: "crawl-jobs", messages: [message], ackAll() {}, retryAll() {} } as unknown as MessageBatch;
  await worker.queue(batch, env, createExecutionContext());
  return outcome;
}

async function siteState(domain: string) {
  const [row] = await sqlRows<{ crawl_status: string; unresolved_crawls: number; agentic_score: number }>(
    "select crawl_status, unresolved_crawls, agentic_score from sites where domain = $1",
    [domain],
  );
  return row;
}

describe("a site whose name does not resolve", () => {
  it("is recorded at its first attempt, without retries, and counted once per crawl", async () => {
    const domain = `gone-${uniqueToken()}.zz`;
    await insertSites([{ domain, url: `https://${domain}/`, agenticScore: 55, lastCrawledAt: new Date("2020-01-01") }]);

    const first = await deliver(domain, 1);
    expect(first).toEqual({ acked: true, retried: [] });
    expect(await siteState(domain)).toEqual({ crawl_status: "unreachable", unresolved_crawls: 1, agentic_score: 55 });

    const second = await deliver(domain, 1);
    expect(second).toEqual({ acked: true, retried: [] });
    expect(await siteState(domain)).toEqual({ crawl_status: "unreachable", unresolved_crawls: 2, agentic_score: 55 });
  });

  it("is not added to the index when it was never indexed", async () => {
    const domain = `never-${uniqueToken()}.zz`;
    expect(await deliver(domain, 1)).toEqual({ acked: true, retried: [] });
    expect(await sqlRows("select 1 from sites where domain = $1", [domain])).toEqual([]);
  });

  it("is not confused with a name refused for its address, which is an ordinary failure", async () => {
    // loopback-alias.example resolves (to 127.0.0.1): refused, retried like any unreachable site.
    const outcome = await deliver("loopback-alias.example", 1);
    expect(outcome.acked).toBe(false);
    expect(outcome.retried.map((options) => options?.delaySeconds)).toEqual([30]);
  });
});
