/**
 * The six non-MCP detectors against the basic fixture sites, over real HTTP on 127.0.0.1: each
 * site is probed through one memoised plain fetcher, as a crawl would, and every signal status,
 * and the name, category and tags where the expectations give them, must match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifySite } from "../../src/domain/classification/classify-site.ts";
import { extractSiteMetadata } from "../../src/domain/classification/site-metadata.ts";
import type { Signals } from "../../src/domain/scoring/agentic-score.ts";
import { detectAiPlugin } from "../../src/domain/signals/detect-ai-plugin.ts";
import { detectLlmsTxt } from "../../src/domain/signals/detect-llms-txt.ts";
import { detectOpenApi } from "../../src/domain/signals/detect-openapi.ts";
import { detectRobotsAi } from "../../src/domain/signals/detect-robots-ai.ts";
import { detectSchemaOrg } from "../../src/domain/signals/detect-schema-org.ts";
import { detectStructuredApi } from "../../src/domain/signals/detect-structured-api.ts";
import type {
  ProbeAnswer,
  ProbeRequest,
  ProbeResponse,
  SignalDetector,
  SignalFinding,
  SiteFetcher,
} from "../../src/domain/signals/types.ts";
import type { SignalField } from "../../src/domain/sites/site-fields.ts";
import { BASIC_EXPECTATIONS } from "../fixtures/web/basic-expectations.ts";
import { fixtureWebBasePort } from "../fixtures/web/expectations.ts";
import { type FixtureWeb, startFixtureWeb } from "../fixtures/web/server.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

/**
 * The fixture web holds about 75 sites: each unit test that serves it gets its own 100 ports,
 * beside the integration tests' (TEST_FIXTURE_PORT, one worktree's range when set).
 */
const BASE_PORT = fixtureWebBasePort(2);

/** The guarded fetcher's body cap, imitated: the plain fetcher has none. */
const MAX_BODY_CHARS = 1_048_576;

const DETECTORS: Readonly<Record<Exclude<SignalField, "has_mcp_server">, SignalDetector>> = {
  has_llms_txt: detectLlmsTxt,
  has_ai_plugin: detectAiPlugin,
  has_openapi: detectOpenApi,
  has_structured_api: detectStructuredApi,
  has_robots_ai: detectRobotsAi,
  has_schema_org: detectSchemaOrg,
};

/** One crawl's fetcher: each method, URL, headers and body fetched once, bodies capped. */
function createCrawlLikeFetcher(): { fetch: SiteFetcher; requests: string[] } {
  const plain = createPlainFetcher();
  const answers = new Map<string, Promise<ProbeResponse>>();
  const requests: string[] = [];
  const capped = async (url: string, request?: ProbeRequest): Promise<ProbeResponse> => {
    const response = await plain(url, request);
    if (!response.ok || response.body.length <= MAX_BODY_CHARS) return response;
    const { url: asked, finalUrl, redirects } = response;
    return {
      ok: false,
      url: asked,
      finalUrl,
      redirects,
      failure: "too_large",
      message: `the body is larger than ${MAX_BODY_CHARS} bytes`,
    };
  };
  const fetch: SiteFetcher = (url, request = {}) => {
    const key = JSON.stringify([request.method ?? "GET", url, request.headers ?? {}, request.body ?? null]);
    let answer = answers.get(key);
    if (!answer) {
      requests.push(key);
      answer = capped(url, request);
      answers.set(key, answer);
    }
    return answer;
  };
  return { fetch, requests };
}

interface SiteResult {
  findings: Record<string, SignalFinding>;
  home: ProbeResponse;
  requests: string[];
}

async function probeSite(origin: string): Promise<SiteResult> {
  const { fetch, requests } = createCrawlLikeFetcher();
  const context = { origin, fetch };
  const fields = Object.keys(DETECTORS) as (keyof typeof DETECTORS)[];
  const [home, ...findings] = await Promise.all([
    fetch(`${origin}/`),
    ...fields.map((field) => DETECTORS[field](context)),
  ]);
  return { home, findings: Object.fromEntries(fields.map((field, i) => [field, findings[i]!])), requests };
}

const SITE_NAMES = Object.keys(BASIC_EXPECTATIONS).sort();
let web: FixtureWeb;
const results = new Map<string, SiteResult>();

beforeAll(async () => {
  web = await startFixtureWeb(BASE_PORT);
  // A few sites at a time: some 700 requests at once starve a shared machine into timeouts.
  for (let i = 0; i < SITE_NAMES.length; i += 4) {
    const batch = SITE_NAMES.slice(i, i + 4);
    const probed = await Promise.all(batch.map((name) => probeSite(web.origins[name]!)));
    for (const [j, name] of batch.entries()) results.set(name, probed[j]!);
  }
}, 120_000);

afterAll(async () => {
  await web?.stop();
});

describe("the six detectors on the basic fixture sites", () => {
  it("covers at least 16 sites", () => {
    expect(SITE_NAMES.length).toBeGreaterThanOrEqual(16);
  });

  it.each(SITE_NAMES)("%s", (name) => {
    const expectation = BASIC_EXPECTATIONS[name]!;
    const { findings, home, requests } = results.get(name)!;
    const statuses = Object.fromEntries(Object.entries(findings).map(([field, finding]) => [field, finding.status]));
    const { has_mcp_server: _mcp, ...expected } = expectation.signals;
    const reasons = Object.entries(findings).map(([field, finding]) => `${field}: ${finding.reason}`);
    expect(statuses, reasons.join("\n")).toEqual(expected);
    expect(new Set(requests).size).toBe(requests.length);

    const homeAnswer: ProbeAnswer | null = home.ok && home.status === 200 ? home : null;
    const metadata = extractSiteMetadata(homeAnswer, web.origins[name]!);
    const flags = Object.fromEntries(
      Object.entries(expectation.signals).map(([field, status]) => [field, status === "present"]),
    ) as unknown as Signals;
    const { category, tags } = classifySite({
      name: metadata.name,
      description: metadata.description,
      bodyText: homeAnswer?.body ?? "",
      signals: flags,
    });
    if (expectation.name !== undefined) expect(metadata.name).toBe(expectation.name);
    if (expectation.category !== undefined) expect(category).toBe(expectation.category);
    for (const tag of expectation.tags ?? []) expect(tags).toContain(tag);
  });
});
