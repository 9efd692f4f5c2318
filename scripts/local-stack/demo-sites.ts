/**
 * Three small sites `npm start` serves on 127.0.0.1, so the main feature, checking a site's
 * readiness, can be tried with no network: the live check (`POST /api/v1/check`, the pages'
 * "Check a site" form), the command-line checker and the MCP `check_site` tool all reach them.
 * The Worker fetches them, and only them, although they are loopback: `npm start` names their
 * hosts in LOCAL_DEMO_HOSTS (src/config.ts), honoured only on the local stack.
 *
 * - ready: llms.txt, robots.txt with AI rules, a Content-Signal and a sitemap, schema.org JSON-LD,
 *   an OpenAPI document named by an RFC 9727 API catalog, and a JSON API at /api.
 * - half-ready: an llms.txt and robots.txt only; the rest answers 404.
 * - soft-404: every path answers 200 with the same HTML page (a catch-all), which a check must
 *   not count as an llms.txt, an OpenAPI document or anything else.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { close, listen } from "./http.ts";

export type DemoSiteName = "ready" | "half-ready" | "soft-404";

type Page = { status: number; type: string; body: string; headers?: Record<string, string> };

const text = (body: string, type = "text/plain; charset=utf-8"): Page => ({ status: 200, type, body });
const json = (value: unknown, type = "application/json"): Page => ({ status: 200, type, body: JSON.stringify(value) });
const notFound: Page = { status: 404, type: "text/plain; charset=utf-8", body: "Not found\n" };

function readySite(origin: string): Record<string, Page> {
  const home = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ready Demo Shop API</title>
<meta name="description" content="A local demo site that agents can use: llms.txt, OpenAPI, an API catalog.">
<script type="application/ld+json">${JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Organization",
    name: "Ready Demo",
    url: `${origin}/`,
  })}</script></head><body><h1>Ready Demo</h1><p>Everything an agent looks for.</p></body></html>`;
  return {
    "/": {
      ...text(home, "text/html; charset=utf-8"),
      headers: { link: '</.well-known/api-catalog>; rel="api-catalog"' },
    },
    "/llms.txt": text(
      "# Ready Demo\n\n> A local demo site with an API for agents.\n\n## Docs\n\n- [API](/openapi.json)\n",
      "text/markdown; charset=utf-8",
    ),
    "/robots.txt": text(
      `User-agent: GPTBot\nAllow: /\n\nUser-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`,
    ),
    "/sitemap.xml": text(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url></urlset>\n`,
      "application/xml",
    ),
    "/openapi.json": json({
      openapi: "3.1.0",
      info: { title: "Ready Demo API", version: "1.0.0" },
      servers: [{ url: `${origin}/api` }],
      paths: {
        "/items": {
          get: {
            operationId: "listItems",
            summary: "List the demo items",
            tags: ["items"],
            responses: { "200": { description: "The items" } },
          },
        },
      },
    }),
    "/.well-known/api-catalog": json(
      {
        linkset: [
          {
            anchor: `${origin}/api`,
            "service-desc": [{ href: `${origin}/openapi.json`, type: "application/openapi+json" }],
          },
        ],
      },
      "application/linkset+json",
    ),
    "/api": json({ items: `${origin}/api/items` }),
    "/api/items": json({ items: [{ id: 1, name: "demo" }] }),
  };
}

function halfReadySite(): Record<string, Page> {
  return {
    "/": text(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Half-ready Demo</title></head><body><h1>Half-ready Demo</h1><p>Some of what agents look for.</p></body></html>',
      "text/html; charset=utf-8",
    ),
    "/llms.txt": text(
      "# Half-ready Demo\n\n> A local demo site with an llms.txt and little else.\n",
      "text/markdown; charset=utf-8",
    ),
    "/robots.txt": text("User-agent: ClaudeBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n"),
  };
}

const SOFT_404_PAGE = text(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Soft 404 Demo</title></head><body><h1>Welcome</h1><p>Every address of this site shows this page, with 200 OK.</p></body></html>',
  "text/html; charset=utf-8",
);

/** The page `site` answers for `path`. */
export function demoPage(site: DemoSiteName, origin: string, path: string): Page {
  if (site === "soft-404") return SOFT_404_PAGE;
  const pages = site === "ready" ? readySite(origin) : halfReadySite();
  return pages[path] ?? notFound;
}

export interface DemoSites {
  /** Each site's origin (http://127.0.0.1:<port>) by name. */
  origins: Record<DemoSiteName, string>;
  stop(): Promise<void>;
}

/** Serves the three demo sites on 127.0.0.1, on `ports` (0: a free one each). */
export async function serveDemoSites(ports: Partial<Record<DemoSiteName, number>> = {}): Promise<DemoSites> {
  const names: DemoSiteName[] = ["ready", "half-ready", "soft-404"];
  const servers: Server[] = [];
  const origins = {} as Record<DemoSiteName, string>;
  for (const name of names) {
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const path = new URL(request.url ?? "/", "http://demo").pathname;
      const page = demoPage(name, origins[name], path);
      response.writeHead(page.status, { "content-type": page.type, ...page.headers });
      response.end(request.method === "HEAD" ? undefined : page.body);
    });
    servers.push(server);
    const port = await listen(server, ports[name] ?? 0);
    origins[name] = `http://127.0.0.1:${port}`;
  }
  return {
    origins,
    async stop() {
      await Promise.all(servers.map(close));
    },
  };
}
