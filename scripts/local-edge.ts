/**
 * The local stand-in for Cloudflare's edge in front of `wrangler dev`: it passes every request on
 * unchanged, except that CF-Connecting-IP is set to the address of the TCP peer, replacing
 * whatever the client sent, as Cloudflare does for a deployed Worker.
 *
 * `wrangler dev` alone (Miniflare) sets CF-Connecting-IP from the peer only when the request has
 * none, so there a client could name any address and be counted as someone else. Behind this
 * edge the Worker sees in local runs exactly what it sees in production, and the service trusts
 * the header in both (src/http/client-identity.ts).
 *
 * It also shields `wrangler dev` from what it cannot take, as Cloudflare's edge does for a
 * deployed Worker (docs/operations.md, "The local edge"):
 * - A body over the Worker's limit (MAX_BODY_BYTES) never reaches wrangler whole: wrangler's
 *   proxy answers a large upload the Worker refuses unread with "Your worker restarted
 *   mid-request" (503), or drops it (502), and disturbs other requests in flight. A declared
 *   Content-Length over the limit is answered at once by the edge with the Worker's own 413
 *   problem (src/http/problem.ts), whether or not the body follows, and without a 100 Continue
 *   to a client that asked for one (RFC 9110 section 10.1.1); a body streamed without a length
 *   is passed on up to MAX_BODY_BYTES + 1 bytes, so the Worker reads them all and answers its
 *   own 413, which the edge relays. Either way the rest of the upload is read and dropped.
 * - `Expect: 100-continue` gets its 100 Continue before the body is passed on; any other
 *   expectation a 417 problem.
 * - Only loopback names and the configured public origin are served (`Host`, and `Origin` when a
 *   browser sends one): a web page whose name an attacker rebinds to 127.0.0.1 cannot drive a
 *   developer's local service (DNS rebinding). Another Host gets 421, another Origin 403.
 * - A request the runtime cannot turn into a URL (a Host that is not a host, an absolute-form
 *   target naming another host, `OPTIONS *`, CONNECT, or bytes that are not HTTP) gets a 400
 *   problem+json from the edge itself, where wrangler would answer a plain-text 500 or nothing.
 */
import { randomUUID } from "node:crypto";
import { Agent, createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { MAX_BODY_BYTES } from "../src/http/middleware/request-size.ts";
import { contentTooLargeProblem, HttpProblem, problemBody } from "../src/http/problem.ts";
import { close, listen } from "./local-stack/http.ts";

// Headers of one hop, not to be passed on (RFC 9110 section 7.6.1). Expect is answered here: the
// edge takes the body (Node sends 100 Continue) and decides what of it goes on.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "expect",
]);

/** How much of a refused upload the edge still reads and drops, so the client reads the 413. */
const DISCARDED_BYTES_BEFORE_CLOSE = 64 * 1024 * 1024;

// host = IP-literal / IPv4address / reg-name, then an optional port (RFC 9110 section 7.2,
// RFC 3986 section 3.2.2); reg-name as DNS names are spelt. No userinfo, path or anything else.
const HOST_HEADER =
  /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?)(:\d{1,5})?$/;

/** The address the edge reports for a peer: IPv4-mapped IPv6 addresses in their IPv4 form. */
export function peerAddress(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? "";
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}

/**
 * Why the runtime could not make a URL of this request head, or the origin-form target to pass
 * on (an absolute-form target naming the Host's own authority becomes its path and query).
 */
export function requestTargetOf(
  method: string | undefined,
  target: string | undefined,
  host: string | undefined,
): { path: string } | { refusal: string } {
  if (method === "CONNECT") return { refusal: "CONNECT is not served: this is an origin server, not a proxy." };
  if (host === undefined || host === "") return { refusal: "The request has no Host header." };
  if (!HOST_HEADER.test(host) || Number(host.split(":").at(-1)) > 65535) {
    return { refusal: "The Host header is not a host name or address with an optional port." };
  }
  if (target === "*") return { refusal: "The asterisk-form request target (OPTIONS *) is not served." };
  if (target?.startsWith("/")) return { path: target };
  let absolute: URL;
  try {
    absolute = new URL(target ?? "");
  } catch {
    return { refusal: "The request target is not a path." };
  }
  if (
    (absolute.protocol !== "http:" && absolute.protocol !== "https:") ||
    absolute.username ||
    absolute.password ||
    absolute.host !== new URL(`http://${host}`).host
  ) {
    return { refusal: "The absolute-form request target names another host than this one." };
  }
  return { path: `${absolute.pathname}${absolute.search}` };
}

interface EdgeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One of the edge's own problems, in the service's problem shape (src/http/problem.ts). */
function problemAnswer(origin: string, problem: HttpProblem, close = true): EdgeAnswer {
  const requestId = randomUUID();
  const body = JSON.stringify(problemBody(problem, { requestId, origin }));
  return {
    status: problem.status,
    headers: {
      "content-type": "application/problem+json",
      "content-length": String(Buffer.byteLength(body)),
      "x-request-id": requestId,
      "cache-control": "no-store",
      ...(close ? { connection: "close" } : {}),
    },
    body,
  };
}

/** The edge's own 400 problem, as bytes of a whole response. */
function badRequest(origin: string, detail: string): EdgeAnswer {
  return problemAnswer(origin, new HttpProblem(400, "BAD_REQUEST", detail));
}

/** A host name's bare form: lower case, without port, IPv6 brackets or a final dot. */
function bareHostName(authority: string): string {
  const name = authority.startsWith("[") ? authority.slice(1, authority.indexOf("]")) : authority.split(":")[0]!;
  return name.toLowerCase().replace(/\.$/, "");
}

/**
 * A name that reaches this machine only: `localhost` and its subdomains (RFC 6761 section 6.3),
 * 127.0.0.0/8 and ::1. No DNS answer of an attacker's can make a browser send one of these as the
 * Host of a page of the attacker's own name.
 */
export function isLoopbackHostName(name: string): boolean {
  const bare = name
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return (
    bare === "localhost" ||
    bare.endsWith(".localhost") ||
    bare === "::1" ||
    bare === "0:0:0:0:0:0:0:1" ||
    /^127\.(?:\d{1,3}\.){2}\d{1,3}$/.test(bare)
  );
}

/**
 * Why the edge will not serve a request with this `Host` and `Origin` (a problem), or undefined
 * when it will: the Host must be a loopback name (any port) or the host of one of `publicOrigins`;
 * an Origin, when sent, a loopback http(s) origin or one of `publicOrigins` exactly (`null`, the
 * origin of a sandboxed or local-file page, is refused).
 */
export function hostOrOriginRefusal(
  host: string,
  origin: string | undefined,
  publicOrigins: readonly string[],
): HttpProblem | undefined {
  const publicHosts = new Set(publicOrigins.map((entry) => new URL(entry).host.toLowerCase()));
  const hostName = bareHostName(host);
  if (!isLoopbackHostName(hostName) && !publicHosts.has(host.toLowerCase().replace(/\.(?=:|$)/, ""))) {
    return new HttpProblem(
      421,
      "MISDIRECTED_REQUEST",
      `This local server answers for loopback names (localhost, 127.0.0.1, [::1]) and ${publicOrigins.join(", ") || "no other origin"} only, not for the Host ${JSON.stringify(host)}: a name that resolves here is not enough (DNS rebinding).`,
    );
  }
  if (origin === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  const allowed =
    parsed !== undefined &&
    (parsed.protocol === "http:" || parsed.protocol === "https:") &&
    (isLoopbackHostName(parsed.hostname) || publicOrigins.some((entry) => new URL(entry).origin === parsed.origin));
  if (allowed) return undefined;
  return new HttpProblem(
    403,
    "ORIGIN_NOT_ALLOWED",
    `This local server takes browser requests from its own pages only (loopback origins and ${publicOrigins.join(", ") || "no other"}), not from ${JSON.stringify(origin)}.`,
  );
}

/** Whether a request declares a body over MAX_BODY_BYTES (chunked ones are counted as they come). */
function declaresTooLong(incoming: IncomingMessage): boolean {
  const declared = incoming.headers["content-length"];
  if (incoming.method === "GET" || incoming.method === "HEAD") return false;
  return (
    incoming.headers["transfer-encoding"] === undefined && declared !== undefined && Number(declared) > MAX_BODY_BYTES
  );
}

/** Writes a whole 400 problem on a raw socket (a CONNECT, or bytes Node could not parse as HTTP). */
function refuseOnSocket(socket: Duplex, origin: string, detail: string): void {
  if (!socket.writable) return;
  const answer = badRequest(origin, detail);
  const head = Object.entries(answer.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.end(`HTTP/1.1 400 Bad Request\r\n${head}\r\n${answer.body}`);
}

export interface LocalEdge {
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/**
 * Answers `answer` at once and reads the rest of the request's body, dropping it, so the client
 * (which may still be sending) reads the answer and the connection stays usable; past
 * DISCARDED_BYTES_BEFORE_CLOSE it is closed.
 */
function answerAndDrop(incoming: IncomingMessage, outgoing: ServerResponse, answer: EdgeAnswer): void {
  outgoing.writeHead(answer.status, answer.headers);
  outgoing.end(answer.body);
  let dropped = 0;
  incoming.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARDED_BYTES_BEFORE_CLOSE) incoming.socket.destroy();
  });
  incoming.resume();
}

/**
 * Serves the edge on 127.0.0.1:`port` (0: any free one), in front of 127.0.0.1:`upstreamPort`.
 * `origin` is where its own problems' types point (default: the edge's own address);
 * `publicOrigins` the origins besides loopback ones it serves (npm start: PUBLIC_ORIGIN).
 */
export async function startLocalEdge(
  port: number,
  upstreamPort: number,
  options: { origin?: string; publicOrigins?: string[] } = {},
): Promise<LocalEdge> {
  // One connection per request: the Worker runtime may close idle ones at any moment.
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  let origin = options.origin ?? "";
  const publicOrigins = (options.publicOrigins ?? []).map((entry) => new URL(entry).origin);

  /** The edge's own answer to a request it does not pass on, or undefined to pass it on. */
  function refusal(incoming: IncomingMessage): EdgeAnswer | undefined {
    const target = requestTargetOf(incoming.method, incoming.url, incoming.headers.host);
    if ("refusal" in target) return badRequest(origin, target.refusal);
    const notServed = hostOrOriginRefusal(incoming.headers.host ?? "", incoming.headers.origin, publicOrigins);
    if (notServed) return problemAnswer(origin, notServed);
    // Decided from the declared length, at once: the body may never come (a client waiting for
    // 100 Continue, or one that declared more than it sends).
    if (declaresTooLong(incoming)) return problemAnswer(origin, contentTooLargeProblem(MAX_BODY_BYTES), false);
    return undefined;
  }

  function proxy(incoming: IncomingMessage, outgoing: ServerResponse) {
    const refused = refusal(incoming);
    if (refused) {
      answerAndDrop(incoming, outgoing, refused);
      return;
    }
    const target = requestTargetOf(incoming.method, incoming.url, incoming.headers.host) as { path: string };
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== "cf-connecting-ip") headers[name] = value;
    }
    headers["cf-connecting-ip"] = peerAddress(incoming.socket.remoteAddress);
    // A body streamed without a length goes on as at most the limit plus one byte (the Worker
    // counts it and refuses it as it reads).
    const chunked = incoming.headers["transfer-encoding"] !== undefined;
    // The Fetch API gives GET and HEAD no body: whatever a client sent with one is dropped here.
    const bodyless = incoming.method === "GET" || incoming.method === "HEAD";
    if (bodyless) delete headers["content-length"];
    // Named, so Node frames the body in chunks whatever the method (it would not for DELETE).
    else if (chunked) headers["transfer-encoding"] = "chunked";

    const proxied = request(
      { host: "127.0.0.1", port: upstreamPort, method: incoming.method, path: target.path, headers, agent },
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

    // Pass the body on up to MAX_BODY_BYTES + 1 bytes; past that, end what wrangler gets and drop
    // the rest of the upload (up to DISCARDED_BYTES_BEFORE_CLOSE, then the connection is closed).
    let passed = 0;
    let dropped = 0;
    let cut = false;
    if (bodyless) {
      cut = true;
      proxied.end();
    }
    incoming.on("data", (chunk: Buffer) => {
      if (cut) {
        dropped += chunk.length;
        if (dropped > DISCARDED_BYTES_BEFORE_CLOSE) incoming.socket.destroy();
        return;
      }
      const room = MAX_BODY_BYTES + 1 - passed;
      if (chunk.length < room) {
        passed += chunk.length;
        if (!proxied.write(chunk)) {
          incoming.pause();
          proxied.once("drain", () => incoming.resume());
        }
        return;
      }
      cut = true;
      passed += room;
      dropped += chunk.length - room;
      proxied.end(chunk.subarray(0, room));
    });
    incoming.on("end", () => {
      if (!cut) proxied.end();
    });
    incoming.on("error", () => proxied.destroy());
    outgoing.on("close", () => {
      // The client went away before its answer: the Worker's request goes with it.
      if (!outgoing.writableFinished) proxied.destroy();
    });
  }

  const server = createServer({ requireHostHeader: false }, proxy);
  // Expect: 100-continue: the client waits for the go-ahead before it sends the body. A request
  // the edge refuses gets its final answer instead (no 100: the body is not wanted).
  server.on("checkContinue", (incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (!refusal(incoming)) outgoing.writeContinue();
    proxy(incoming, outgoing);
  });
  server.on("checkExpectation", (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const expectation = new HttpProblem(
      417,
      "EXPECTATION_FAILED",
      `The only expectation this server meets is 100-continue, not ${JSON.stringify(incoming.headers.expect)}.`,
    );
    answerAndDrop(incoming, outgoing, problemAnswer(origin, expectation));
  });
  server.on("connect", (_incoming: IncomingMessage, socket: Duplex) =>
    refuseOnSocket(socket, origin, "CONNECT is not served: this is an origin server, not a proxy."),
  );
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection reset or timed out has nobody to answer.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    refuseOnSocket(socket, origin, "The request is not well-formed HTTP/1.1.");
  });
  const bound = await listen(server, port);
  origin ||= `http://127.0.0.1:${bound}`;
  return {
    port: bound,
    server,
    async stop() {
      await close(server);
      agent.destroy();
    },
  };
}
