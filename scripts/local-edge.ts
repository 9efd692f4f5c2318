/**
 * The local stand-in for Cloudflare's edge in front of `wrangler dev`: it passes every request on
 * unchanged, except that CF-Connecting-IP is set to the address of the TCP peer, replacing
 * whatever the client sent, as Cloudflare does for a deployed Worker.
 *
 * `wrangler dev` alone (Miniflare) sets CF-Connecting-IP from the peer only when the request has
 * none, so there a client could name any address and be counted as someone else. Behind this
 * edge the Worker sees in local runs exactly what it sees in production, and the service trusts
 * the header in both (src/http/client-identity.ts).
 */
import { Agent, createServer, request, type Server } from "node:http";
import { close, listen } from "./local-stack/http.ts";

// Headers of one hop, not to be passed on (RFC 9110 section 7.6.1).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** The address the edge reports for a peer: IPv4-mapped IPv6 addresses in their IPv4 form. */
export function peerAddress(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? "";
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}

export interface LocalEdge {
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/** Serves the edge on 127.0.0.1:`port` (0: any free one), in front of 127.0.0.1:`upstreamPort`. */
export async function startLocalEdge(port: number, upstreamPort: number): Promise<LocalEdge> {
  // One connection per request: the Worker runtime may close idle ones at any moment.
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const server = createServer((incoming, outgoing) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== "cf-connecting-ip") headers[name] = value;
    }
    headers["cf-connecting-ip"] = peerAddress(incoming.socket.remoteAddress);
    const proxied = request(
      { host: "127.0.0.1", port: upstreamPort, method: incoming.method, path: incoming.url, headers, agent },
      (answer) => {
        const answerHeaders = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
        ) as Record<string, string | string[]>;
        outgoing.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(outgoing);
      },
    );
    proxied.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end("The Worker behind the local edge did not answer.");
    });
    incoming.pipe(proxied);
  });
  const bound = await listen(server, port);
  return {
    port: bound,
    server,
    async stop() {
      await close(server);
      agent.destroy();
    },
  };
}
