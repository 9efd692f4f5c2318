/**
 * The local edge in front of `wrangler dev` does what Cloudflare's does with CF-Connecting-IP:
 * sets it from the connection, whatever the client sent, and passes everything else through.
 */
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type LocalEdge, peerAddress, startLocalEdge } from "../../scripts/local-edge.ts";
import { close, listen } from "../../scripts/local-stack/http.ts";

let upstream: Server | undefined;
let edge: LocalEdge | undefined;
afterEach(async () => {
  await edge?.stop();
  if (upstream) await close(upstream);
  edge = undefined;
  upstream = undefined;
});

/** An upstream that answers with what it received. */
async function startEcho(): Promise<number> {
  upstream = createServer((incoming: IncomingMessage, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      outgoing.writeHead(201, { "content-type": "application/json", "x-upstream": "yes" });
      outgoing.end(
        JSON.stringify({
          method: incoming.method,
          path: incoming.url,
          host: incoming.headers.host,
          clientIp: incoming.headers["cf-connecting-ip"],
          custom: incoming.headers["x-custom"],
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
  });
  return listen(upstream, 0);
}

function send(options: { localAddress: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }>(
    (resolve, reject) => {
      const outgoing = request(
        {
          host: "127.0.0.1",
          port: edge?.port,
          path: "/api/v1/search?q=x",
          method: options.body ? "POST" : "GET",
          localAddress: options.localAddress,
          headers: options.headers,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
            }),
          );
        },
      );
      outgoing.on("error", reject);
      outgoing.end(options.body);
    },
  );
}

describe("the local edge", () => {
  it("sets CF-Connecting-IP from the connection, replacing a client's own", async () => {
    edge = await startLocalEdge(0, await startEcho());
    const spoofed = await send({ localAddress: "127.0.0.7", headers: { "CF-Connecting-IP": "203.0.113.9" } });
    expect(spoofed.body.clientIp).toBe("127.0.0.7");
    const plain = await send({ localAddress: "127.0.0.8" });
    expect(plain.body.clientIp).toBe("127.0.0.8");
  });

  it("passes method, path, host, other headers, body and the answer through unchanged", async () => {
    edge = await startLocalEdge(0, await startEcho());
    const answer = await send({ localAddress: "127.0.0.1", headers: { "X-Custom": "kept" }, body: '{"a":1}' });
    expect(answer.status).toBe(201);
    expect(answer.headers["x-upstream"]).toBe("yes");
    expect(answer.body).toMatchObject({
      method: "POST",
      path: "/api/v1/search?q=x",
      host: `127.0.0.1:${edge.port}`,
      custom: "kept",
      body: '{"a":1}',
    });
  });

  it("reports IPv4-mapped peers in their IPv4 form", () => {
    expect(peerAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(peerAddress("2001:db8::1")).toBe("2001:db8::1");
    expect(peerAddress("127.0.0.1")).toBe("127.0.0.1");
  });
});
