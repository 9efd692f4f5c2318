/**
 * The crawl plan (src/domain/checklist/checklist-requests.ts and the detectors' own conditions):
 * a request is asked only where the crawl's answers call for it. Each site here is served from
 * memory; the test reads which requests its crawl made.
 */
import { describe, expect, it } from "vitest";
import { CHECK_IDS } from "../../src/domain/checklist/checklist-definition.ts";
import { CHECKLIST_REQUESTS, probePaths } from "../../src/domain/checklist/checklist-requests.ts";
import { createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite } from "../../src/domain/crawling/crawl-site.ts";
import { OPENAPI_FRAMEWORK_PATHS } from "../../src/domain/signals/detect-openapi.ts";
import type { ProbeAnswer, SiteFetcher } from "../../src/domain/signals/types.ts";

const ORIGIN = "https://plan.example.org";

interface Served {
  status?: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

const HOME: Served = {
  type: "text/html; charset=utf-8",
  body: "<!DOCTYPE html><html><head><title>Plan</title></head><body><h1>Plan</h1></body></html>",
};

/** Crawls a site serving `routes` (GET by path; 404 elsewhere) and returns the paths it asked. */
async function crawlOf(
  routes: Record<string, Served>,
  notFound: Served = { status: 404, type: "text/plain", body: "Not found" },
): Promise<{ asked: string[]; count: number }> {
  const asked: string[] = [];
  const fetcher: SiteFetcher = async (url, request = {}) => {
    const { pathname } = new URL(url);
    asked.push(`${request.method ?? "GET"} ${pathname}`);
    const served = (request.method ?? "GET") === "GET" ? routes[pathname] : undefined;
    const reply: Served = served ?? notFound;
    const answer: ProbeAnswer = {
      ok: true,
      url,
      finalUrl: url,
      redirects: [],
      status: reply.status ?? 200,
      headers: new Headers({ "content-type": reply.type, ...reply.headers }),
      contentType: reply.type.split(";")[0]!.trim(),
      body: reply.body,
    };
    return answer;
  };
  const crawl = await crawlSite({ origin: ORIGIN, fetcher, limiter: createConcurrencyLimiter(6) });
  return { asked, count: crawl.requestCount };
}

const SITEMAP: Served = {
  type: "application/xml",
  body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${ORIGIN}/</loc></url></urlset>`,
};

describe("the crawl plan", () => {
  it("declares only checks the checklist has, and no probe twice", () => {
    for (const declaration of CHECKLIST_REQUESTS) {
      for (const id of declaration.checks) expect(CHECK_IDS).toContain(id);
    }
    const paths = probePaths(CHECKLIST_REQUESTS).map((each) => each.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("probes the fixed paths of the commerce and December checks, each for the check that reads it", () => {
    const readers = (path: string) =>
      CHECKLIST_REQUESTS.flatMap((each) => (each.stage === "probe" && each.path === path ? each.checks : []));
    expect(readers("/.well-known/ucp")).toEqual(["ucp"]);
    expect(readers("/.well-known/acp.json")).toEqual(["acp"]);
    expect(readers("/auth.md")).toEqual(["auth_md"]);
    expect(readers("/.well-known/mcp-registry-auth")).toEqual(["mcp_registry_auth"]);
  });

  it("asks no path-suffixed protected-resource metadata beside an /mcp that is no MCP server", async () => {
    const { asked } = await crawlOf({ "/": HOME });
    expect(asked).toContain("POST /mcp");
    expect(asked).toContain("GET /.well-known/oauth-protected-resource");
    expect(asked).not.toContain("GET /.well-known/oauth-protected-resource/mcp");
  });

  it("asks /sitemap.xml only when robots.txt names no usable sitemap", async () => {
    const named = await crawlOf({
      "/": HOME,
      "/robots.txt": { type: "text/plain", body: `User-agent: *\nAllow: /\nSitemap: ${ORIGIN}/maps/site.xml\n` },
      "/maps/site.xml": SITEMAP,
    });
    expect(named.asked).toContain("GET /maps/site.xml");
    expect(named.asked).not.toContain("GET /sitemap.xml");
    const dead = await crawlOf({
      "/": HOME,
      "/robots.txt": { type: "text/plain", body: `User-agent: *\nAllow: /\nSitemap: ${ORIGIN}/maps/gone.xml\n` },
      "/sitemap.xml": SITEMAP,
    });
    expect(dead.asked).toContain("GET /maps/gone.xml");
    expect(dead.asked).toContain("GET /sitemap.xml");
    const none = await crawlOf({ "/": HOME });
    expect(none.asked).toContain("GET /sitemap.xml");
  });

  it("asks an older path only where the current one gave no document", async () => {
    const card = {
      name: "Planner",
      description: "Plans things.",
      version: "1.0.0",
      supportedInterfaces: [{ url: `${ORIGIN}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: {},
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "plan", name: "Plan", description: "Plans.", tags: ["plan"] }],
    };
    const current = await crawlOf({
      "/": HOME,
      "/.well-known/agent-card.json": { type: "application/json", body: JSON.stringify(card) },
    });
    expect(current.asked).not.toContain("GET /.well-known/agent.json");
    const none = await crawlOf({ "/": HOME });
    expect(none.asked).toContain("GET /.well-known/agent.json");
  });

  it("asks an older path once the current one answered, without waiting for the detectors", async () => {
    // /mcp answers only once the older A2A path has been asked (or, failing that, once nothing
    // else is in flight): the order of those two events says whether the checklist waited for
    // the MCP detector, whose handshake it does not read.
    let inFlight = 0;
    let releaseMcp: () => void = () => {};
    const mcpAnswered = new Promise<void>((resolve) => {
      releaseMcp = resolve;
    });
    const events: string[] = [];
    const fallback = () =>
      setTimeout(() => {
        if (inFlight === 1) {
          events.push("mcp released with nothing else in flight");
          releaseMcp();
        }
      }, 50);
    const fetcher: SiteFetcher = async (url, request = {}) => {
      const { pathname } = new URL(url);
      const method = request.method ?? "GET";
      inFlight++;
      try {
        if (method === "POST" && pathname === "/mcp") {
          await mcpAnswered;
          events.push("mcp answered");
        }
        if (pathname === "/.well-known/agent.json") {
          events.push("older path asked");
          releaseMcp();
        }
        const home = method === "GET" && pathname === "/";
        return {
          ok: true,
          url,
          finalUrl: url,
          redirects: [],
          status: home ? 200 : 404,
          headers: new Headers({ "content-type": home ? HOME.type : "text/plain" }),
          contentType: home ? "text/html" : "text/plain",
          body: home ? HOME.body : "Not found",
        };
      } finally {
        inFlight--;
        fallback();
      }
    };
    await crawlSite({ origin: ORIGIN, fetcher, limiter: createConcurrencyLimiter(6) });
    expect(events.slice(0, 2)).toEqual(["older path asked", "mcp answered"]);
  });

  it("guesses the web frameworks' default OpenAPI paths only on a site that shows an application server", async () => {
    const framework = (asked: string[]) => OPENAPI_FRAMEWORK_PATHS.filter((path) => asked.includes(`GET ${path}`));
    // A content site: an HTML home page, plain 404s, nothing that speaks JSON.
    expect(framework((await crawlOf({ "/": HOME })).asked)).toEqual([]);
    // An API host's root answers 404; a framework answers its 404s in JSON; llms.txt names a default path.
    expect(framework((await crawlOf({})).asked)).toEqual([...OPENAPI_FRAMEWORK_PATHS]);
    const json404: Served = { status: 404, type: "application/json", body: '{"status":404,"error":"Not Found"}' };
    expect(framework((await crawlOf({ "/": HOME }, json404)).asked)).toEqual([...OPENAPI_FRAMEWORK_PATHS]);
    const llms = { type: "text/markdown", body: "# Plan\n\n> Plans.\n\n- [API](/swagger/v1/swagger.json)\n" };
    expect(framework((await crawlOf({ "/": HOME, "/llms.txt": llms })).asked)).toEqual([...OPENAPI_FRAMEWORK_PATHS]);
  });
});
