/** Small helpers shared by the local stack's two HTTP endpoints. */
import type { IncomingMessage, Server, ServerResponse } from "node:http";

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export class BadRequest extends Error {}

/** Reads and parses a JSON request body, refusing bodies over 16 MiB. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest("request body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BadRequest("request body is not valid JSON");
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
  });
  response.end(payload);
}

/**
 * Starts listening and resolves with the port actually bound (0 picks a free one). Idle
 * connections are left for the client to close: Node's default closes them after 5 s, and a
 * client (workerd) reusing one at that moment loses its request with "Network connection lost",
 * a failure of the local stack, not of the store it stands for. The accept queue is as long as
 * the system allows, so a burst of new connections waits to be accepted instead of being dropped
 * by the kernel (which the client only notices after minutes of retransmission).
 */
export function listen(server: Server, port: number, host = "127.0.0.1"): Promise<number> {
  server.keepAliveTimeout = 0;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, backlog: 4096 }, () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}

export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
