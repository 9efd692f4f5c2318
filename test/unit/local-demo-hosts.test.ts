/**
 * `npm start`'s local demo sites are the only loopback hosts a local Worker fetches
 * (LOCAL_DEMO_HOSTS), and only on the local stack: beside a real database the list is ignored,
 * and it names 127.0.0.1 hosts with their port, nothing wider.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createOutbound } from "../../src/adapters/outbound/create-outbound.ts";
import { ConfigError, parseConfig } from "../../src/config.ts";
import { mayBePrivate } from "../../src/domain/checks/check-context.ts";
import { submitSite } from "../../src/domain/checks/submit-site.ts";
import { verifyMcp } from "../../src/domain/checks/verify-mcp.ts";

const required = {
  DATABASE_URL: "postgres://local:local@127.0.0.1:5480/local",
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:5481",
  UPSTASH_REDIS_REST_TOKEN: "token",
};

describe("LOCAL_DEMO_HOSTS", () => {
  it("lists 127.0.0.1 hosts with their ports, and refuses anything wider", () => {
    expect(parseConfig({ ...required, LOCAL_DEMO_HOSTS: "127.0.0.1:5490, 127.0.0.1:5491" }).LOCAL_DEMO_HOSTS).toEqual([
      "127.0.0.1:5490",
      "127.0.0.1:5491",
    ]);
    expect(parseConfig(required).LOCAL_DEMO_HOSTS).toEqual([]);
    for (const wider of ["10.0.0.1:80", "127.0.0.1", "localhost:5490", "example.com:80", "127.0.0.1:5490/x"]) {
      expect(() => parseConfig({ ...required, LOCAL_DEMO_HOSTS: wider }), wider).toThrow(ConfigError);
    }
  });

  it("is honoured on the local stack only: beside a real database no host is trusted", () => {
    const config = { DOH_URL: "http://127.0.0.1:1/dns-query", FETCH_ALLOW_PRIVATE: false };
    const local = createOutbound({ ...config, LOCAL_DEMO_HOSTS: ["127.0.0.1:5490"], DATABASE_LOCAL_HTTP: true }, "");
    expect(local.trustedHosts).toEqual(["127.0.0.1:5490"]);
    const deployed = createOutbound(
      { ...config, LOCAL_DEMO_HOSTS: ["127.0.0.1:5490"], DATABASE_LOCAL_HTTP: false },
      "",
    );
    expect(deployed.trustedHosts).toEqual([]);
  });

  it("lets a URL name a loopback address only on a listed host and port", async () => {
    const ctx = { allowPrivate: false, trustedHosts: ["127.0.0.1:5490"] };
    expect(mayBePrivate("http://127.0.0.1:5490/", ctx)).toBe(true);
    expect(mayBePrivate("127.0.0.1:5490", ctx)).toBe(true);
    expect(mayBePrivate("http://127.0.0.1:5491/", ctx)).toBe(false);
    expect(mayBePrivate("http://127.0.0.1/", ctx)).toBe(false);
    expect(mayBePrivate("http://localhost:5490/", ctx)).toBe(false);
    expect(mayBePrivate("http://127.0.0.1:5490/", { allowPrivate: false })).toBe(false);
    // The address vetting lets the listed name through; the fetch holds every other host and port
    // to the rules (an IP literal is judged there, by the URL's static checks).
    const config = { DOH_URL: "http://127.0.0.1:1/dns-query", FETCH_ALLOW_PRIVATE: false };
    const outbound = createOutbound({ ...config, LOCAL_DEMO_HOSTS: ["127.0.0.1:5490"], DATABASE_LOCAL_HTTP: true }, "");
    expect(await outbound.vetHost("127.0.0.1")).toBeNull();
    const fetcher = outbound.openFetcher({ deadline: Date.now() + 2_000 });
    const refused = await fetcher("http://127.0.0.1:5491/");
    expect(refused).toMatchObject({ ok: false, failure: "refused" });
  });

  it("lets Submit and /verify-mcp reach a demo host on the local stack, and refuses it in a deployed config", async () => {
    const server = createServer((_request, response) => response.writeHead(404).end("Not found\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
      const config = { DOH_URL: "http://127.0.0.1:1/dns-query", FETCH_ALLOW_PRIVATE: false, LOCAL_DEMO_HOSTS: [host] };
      const local = createOutbound({ ...config, DATABASE_LOCAL_HTTP: true }, "");
      const deployed = createOutbound({ ...config, DATABASE_LOCAL_HTTP: false }, "");
      const url = `http://${host}/mcp`;
      expect(await verifyMcp({ ctx: local, input: { url } })).toMatchObject({ verified: false, endpoint: url });
      await expect(verifyMcp({ ctx: deployed, input: { url } })).rejects.toMatchObject({ code: "URL_NOT_ALLOWED" });
      // A deployed Worker refuses the submission before anything is stored or queued.
      const stores = { db: undefined, cache: undefined, origin: "", crawlQueue: undefined } as unknown as Pick<
        Parameters<typeof submitSite>[0]["ctx"],
        "db" | "cache" | "origin" | "crawlQueue"
      >;
      await expect(
        submitSite({ ctx: { ...stores, ...deployed }, input: { url: `http://${host}/` } }),
      ).rejects.toMatchObject({ code: "URL_NOT_ALLOWED" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
