/**
 * A few sites of the fixture web, each on a free port of 127.0.0.1 (Node only): for tests that need
 * some fixture sites beside another stack, without claiming the whole web's fixed port range.
 */
import { createServer, type Server } from "node:http";
import { BASIC_SITES } from "../fixtures/web/basic-sites.ts";
import { CHECKLIST_SITES } from "../fixtures/web/checklist-sites.ts";
import { DECEMBER_SITES } from "../fixtures/web/december-sites.ts";
import { DISCOVERY_SITES } from "../fixtures/web/discovery-sites.ts";
import { NESTED_DISCOVERY_SITES } from "../fixtures/web/discovery-sites-2.ts";
import { MCP_SITES } from "../fixtures/web/mcp-sites.ts";
import type { FixtureHandler } from "../fixtures/web/types.ts";

const HANDLERS: Record<string, FixtureHandler> = {
  ...DECEMBER_SITES,
  ...BASIC_SITES,
  ...MCP_SITES,
  ...DISCOVERY_SITES,
  ...NESTED_DISCOVERY_SITES,
  ...CHECKLIST_SITES,
};

export interface FixtureSites {
  /** Each served site's origin by its fixture name. */
  origins: Record<string, string>;
  stop(): Promise<void>;
}

/** Serves the named fixture sites until `stop`. */
export async function serveFixtureSites(names: string[]): Promise<FixtureSites> {
  const servers: Server[] = [];
  const origins: Record<string, string> = {};
  for (const name of names) {
    const handler = HANDLERS[name];
    if (!handler) throw new Error(`no fixture site named ${name}`);
    const site = { origin: "" };
    const server = createServer((request, response) => {
      Promise.resolve(handler(request, response, site)).catch((error) => {
        console.error(`fixture ${name} failed`, error);
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
        response.end("fixture error");
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    site.origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    servers.push(server);
    origins[name] = site.origin;
  }
  return {
    origins,
    stop: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
