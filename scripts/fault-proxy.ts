/**
 * An HTTP proxy in front of one of the local stack's endpoints that can be switched, while a
 * Worker is using it, between answering normally and the ways a store goes away:
 *
 *   pass     forward every request (the default)
 *   refuse   stop listening: new connections are refused, open ones are cut
 *   drop     read each request, then cut its connection without an answer (a connection lost
 *            mid-request)
 *   hang     read each request and never answer
 *   queue    forward one request at a time, each after `delayMs`: a healthy store behind a
 *            queue, answering steadily but late (what a burst looks like from the Worker)
 *
 * Used by the fault script (`npm run fault:stores`) and, through `startFaultProxyControl`, by
 * the integration tests, which run inside workerd and can only reach it over HTTP.
 */
import { Agent, createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { close, listen, readJson, sendJson } from "./local-stack/http.ts";

export type FaultMode = "pass" | "refuse" | "drop" | "hang" | "queue";

export interface FaultProxy {
  port: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  mode(): FaultMode;
  /** Requests that arrived whole, whatever the mode did with them. */
  requests(): number;
  /** Switches the mode; `refuse` resolves once the port is closed, `pass` once it listens again. */
  setMode(mode: FaultMode, options?: { delayMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a proxy to `target` (an http origin) on `port` (0: any free one), in mode `pass`. */
export async function startFaultProxy(target: string, port = 0): Promise<FaultProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  let mode: FaultMode = "pass";
  let delayMs = 0;
  let received = 0;
  let queueTail: Promise<unknown> = Promise.resolve();

  const forward = (incoming: IncomingMessage, body: Buffer, outgoing: ServerResponse) =>
    new Promise<void>((resolve) => {
      const proxied = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
          agent,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          answer.on("end", resolve);
        },
      );
      proxied.on("error", () => {
        outgoing.socket?.destroy();
        resolve();
      });
      proxied.end(body);
    });

  // Each mode acts once the whole request has arrived, as a store that read it would.
  const handle = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      received += 1;
      if (mode === "pass") void forward(incoming, body, outgoing);
      else if (mode === "drop") outgoing.socket?.destroy();
      else if (mode === "queue") {
        queueTail = queueTail.then(async () => {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          await forward(incoming, body, outgoing);
        });
      }
      // hang: answer nothing; the connection stays open until the client gives up.
    });
  };

  let server: Server = createServer(handle);
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  server.on("connection", track);
  const boundPort = await listen(server, port);

  const proxy: FaultProxy = {
    port: boundPort,
    url: `http://127.0.0.1:${boundPort}`,
    mode: () => mode,
    requests: () => received,
    async setMode(next, options = {}) {
      const wasListening = mode !== "refuse";
      mode = next;
      delayMs = options.delayMs ?? 0;
      if (next === "refuse" && wasListening) {
        for (const socket of sockets) socket.destroy();
        await close(server);
      } else if (next !== "refuse" && !wasListening) {
        server = createServer(handle);
        server.on("connection", track);
        await listen(server, boundPort);
      }
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      if (mode !== "refuse") await close(server);
      agent.destroy();
    },
  };
  return proxy;
}

/**
 * An HTTP API over fault proxies, for tests that run where Node APIs are not (inside workerd):
 * `POST /proxies {target}` starts one and answers `{port, url}`; `PUT /proxies/<port>
 * {mode, delayMs?}` switches it; `GET /proxies/<port>` says `{mode, requests}` (requests it
 * received so far); `DELETE /proxies/<port>` stops it.
 */
export async function startFaultProxyControl(port = 0): Promise<{ url: string; stop(): Promise<void> }> {
  const proxies = new Map<number, FaultProxy>();
  const server = createServer(async (incoming, outgoing) => {
    try {
      const [, collection, id] = (incoming.url ?? "").split("/");
      if (collection !== "proxies") return sendJson(outgoing, 404, { message: "not found" });
      if (incoming.method === "POST" && !id) {
        const { target } = (await readJson(incoming)) as { target: string };
        const proxy = await startFaultProxy(target);
        proxies.set(proxy.port, proxy);
        return sendJson(outgoing, 201, { port: proxy.port, url: proxy.url });
      }
      const proxy = proxies.get(Number(id));
      if (!proxy) return sendJson(outgoing, 404, { message: "no such proxy" });
      if (incoming.method === "GET") return sendJson(outgoing, 200, { mode: proxy.mode(), requests: proxy.requests() });
      if (incoming.method === "PUT") {
        const { mode, delayMs } = (await readJson(incoming)) as { mode: FaultMode; delayMs?: number };
        await proxy.setMode(mode, { delayMs });
        return sendJson(outgoing, 200, { mode });
      }
      if (incoming.method === "DELETE") {
        proxies.delete(proxy.port);
        await proxy.stop();
        return sendJson(outgoing, 200, { stopped: true });
      }
      sendJson(outgoing, 405, { message: "method not allowed" });
    } catch (error) {
      sendJson(outgoing, 500, { message: String(error) });
    }
  });
  const boundPort = await listen(server, port);
  return {
    url: `http://127.0.0.1:${boundPort}`,
    async stop() {
      await Promise.all([...proxies.values()].map((proxy) => proxy.stop()));
      await close(server);
    },
  };
}
