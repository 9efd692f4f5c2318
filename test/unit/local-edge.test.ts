/**
 * The local edge in front of `wrangler dev` does what Cloudflare's does with CF-Connecting-IP:
 * sets it from the connection, whatever the client sent, and passes everything else through.
 * It keeps from wrangler what wrangler cannot take: a body over the Worker's limit reaches the
 * Worker as at most the limit plus one byte, so the client gets the Worker's own 413 and nothing
 * else is disturbed; a request head the runtime could not make a URL of gets the edge's 400.
 */

import { createServer, type IncomingMessage, request, type Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  isLoopbackHostName,
  type LocalEdge,
  peerAddress,
  requestTargetOf,
  startLocalEdge,
} from "../../scripts/local-edge.ts";
import { close, listen } from "../../scripts/local-stack/http.ts";
import { MAX_BODY_BYTES } from "../../src/http/middleware/request-size.ts";

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

/** What the Worker-like upstream saw of each request. */
interface Seen {
  method?: string;
  path?: string;
  bytes: number;
  contentLength?: string;
  transferEncoding?: string;
}

/**
 * An upstream that refuses bodies as the Worker does (src/http/middleware/request-size.ts): a
 * declared length over the limit is refused unread, a streamed body once its bytes pass it; each
 * refusal is a 413 problem with its own request id. Bodies within the limit are echoed with 201.
 */
async function startWorkerLike(seen: Seen[]): Promise<number> {
  let counter = 0;
  upstream = createServer((incoming, outgoing) => {
    const record: Seen = {
      method: incoming.method,
      path: incoming.url,
      bytes: 0,
      contentLength: incoming.headers["content-length"],
      transferEncoding: incoming.headers["transfer-encoding"],
    };
    seen.push(record);
    const requestId = `upstream-${++counter}`;
    const refuse = () => {
      const body = JSON.stringify({ status: 413, code: "CONTENT_TOO_LARGE", request_id: requestId });
      outgoing.writeHead(413, { "content-type": "application/problem+json", "x-request-id": requestId });
      outgoing.end(body);
    };
    if (Number(incoming.headers["content-length"]) > MAX_BODY_BYTES) {
      refuse();
      incoming.resume();
      return;
    }
    incoming.on("data", (chunk: Buffer) => {
      record.bytes += chunk.length;
    });
    incoming.on("end", () => {
      if (record.bytes > MAX_BODY_BYTES) return refuse();
      outgoing.writeHead(201, { "content-type": "application/json", "x-request-id": requestId });
      outgoing.end(JSON.stringify({ bytes: record.bytes }));
    });
  });
  return listen(upstream, 0);
}

/** Sends `size` bytes of body through the edge, with a Content-Length or chunked. */
function upload(size: number, framing: "length" | "chunked", method = "POST") {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: edge?.port,
        path: "/api/v1/check",
        method,
        headers: {
          "content-type": "application/json",
          ...(framing === "length" ? { "content-length": String(size) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    // The client may still be sending when its answer comes: that is not a failure.
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    const piece = Buffer.alloc(64 * 1024, "x");
    let left = size;
    const pump = () => {
      while (left > 0) {
        const part = piece.subarray(0, Math.min(left, piece.length));
        left -= part.length;
        if (!outgoing.write(part)) return outgoing.once("drain", pump);
      }
      outgoing.end();
    };
    pump();
  });
}

/** One raw exchange: `head` written as is; the answer read until the edge closes. */
function raw(head: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(edge?.port ?? 0, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
    socket.setTimeout(5_000, () => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    socket.write(head);
  });
}

/**
 * One raw exchange: `head` written as is, the connection kept open; resolves with what came once
 * a whole answer (head and its Content-Length of body) has arrived, or when the edge closes.
 * `then` is written after the first interim (1xx) answer, as a client waiting for 100 Continue does.
 */
function rawAnswer(head: string, then?: string) {
  return new Promise<{ text: string; closed: boolean }>((resolve, reject) => {
    const socket = connect(edge?.port ?? 0, "127.0.0.1");
    let text = "";
    let continued = false;
    const finish = (closed: boolean) => {
      socket.destroy();
      resolve({ text, closed });
    };
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (then !== undefined && !continued && /^HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n/.test(text)) {
        continued = true;
        socket.write(then);
      }
      // The final answer: after any interim ones, complete by its length or its last chunk.
      const start = text.search(/(?:^|\r\n\r\n)HTTP\/1\.1 [2-5]\d\d /);
      const final = start < 0 ? "" : text.slice(start).replace(/^\r\n\r\n/, "");
      const [head = "", ...rest] = final.split("\r\n\r\n");
      const body = rest.join("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)/i.exec(head)?.[1];
      const chunked = /\r\ntransfer-encoding: chunked/i.test(head);
      if (
        rest.length > 0 &&
        (length ? Buffer.byteLength(body) >= Number(length) : chunked && body.endsWith("0\r\n\r\n"))
      )
        finish(false);
    });
    socket.on("end", () => finish(true));
    socket.on("error", reject);
    socket.setTimeout(10_000, () => finish(true));
    socket.write(head);
  });
}

describe("bodies over the Worker's limit", () => {
  it("streamed without a length, reach the Worker as the limit plus one byte, and the client gets the Worker's own 413", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen));
    for (const size of [MAX_BODY_BYTES + 1, 70_000, 300 * 1024, 2 * 1024 * 1024, 10 * 1024 * 1024]) {
      seen.length = 0;
      const answer = await upload(size, "chunked");
      expect(answer.status, `${size}`).toBe(413);
      expect(answer.headers["content-type"]).toBe("application/problem+json");
      const body = JSON.parse(answer.body) as { code: string; request_id: string };
      expect(body.code).toBe("CONTENT_TOO_LARGE");
      // The Worker's answer, relayed: its request id, in the body and the header.
      expect(answer.headers["x-request-id"]).toBe(body.request_id);
      expect(body.request_id).toMatch(/^upstream-/);
      expect(seen).toEqual([
        { method: "POST", path: "/api/v1/check", bytes: MAX_BODY_BYTES + 1, transferEncoding: "chunked" },
      ]);
    }
  });

  it("declared over the limit, get the Worker's 413 problem from the edge, and never reach the Worker", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen), { origin: "http://svc.test" });
    for (const size of [MAX_BODY_BYTES + 1, 70_000, 2 * 1024 * 1024, 10 * 1024 * 1024]) {
      const answer = await upload(size, "length");
      expect(answer.status, `${size}`).toBe(413);
      expect(answer.headers["content-type"]).toBe("application/problem+json");
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(body).toEqual({
        type: "http://svc.test/problems/content-too-large",
        title: "Content too large",
        status: 413,
        detail: `The request body is larger than ${MAX_BODY_BYTES} bytes, the most this service reads.`,
        code: "CONTENT_TOO_LARGE",
        request_id: answer.headers["x-request-id"],
        limit_bytes: MAX_BODY_BYTES,
      });
    }
    expect(seen).toEqual([]);
  });

  it("declared but never sent, get the 413 at once, the connection still open", async () => {
    edge = await startLocalEdge(0, await startWorkerLike([]));
    const answer = await rawAnswer(
      `POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{"url":`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.text).toContain('"code":"CONTENT_TOO_LARGE"');
    // Answered before the client sent the body or closed: it was the answer that came, not the end.
    expect(answer.closed).toBe(false);
  });

  it("pass bodies within the limit on whole, with their length", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen));
    for (const size of [1, 1000, MAX_BODY_BYTES]) {
      seen.length = 0;
      const answer = await upload(size, "length");
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toEqual({ bytes: size });
      expect(seen[0]).toMatchObject({ bytes: size, contentLength: String(size) });
    }
    const streamed = await upload(MAX_BODY_BYTES, "chunked", "PUT");
    expect(JSON.parse(streamed.body)).toEqual({ bytes: MAX_BODY_BYTES });
  });

  it("do not disturb small requests in flight at the same time", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen));
    const big = [upload(10 * 1024 * 1024, "length"), upload(5 * 1024 * 1024, "chunked")];
    const small = Array.from({ length: 40 }, (_, i) => upload(100 + i, "length"));
    const answers = await Promise.all([...big, ...small]);
    expect(answers.slice(0, 2).map((answer) => answer.status)).toEqual([413, 413]);
    expect(answers.slice(2).map((answer) => answer.status)).toEqual(small.map(() => 201));
    expect(Math.max(...seen.map((record) => record.bytes))).toBe(MAX_BODY_BYTES + 1);
  });

  it("keep the connection usable for the next request after a refused upload", async () => {
    edge = await startLocalEdge(0, await startWorkerLike([]));
    const agent = new (await import("node:http")).Agent({ keepAlive: true, maxSockets: 1 });
    const send = (size: number) =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request(
          {
            host: "127.0.0.1",
            port: edge?.port,
            path: "/x",
            method: "POST",
            agent,
            headers: { "content-length": size },
          },
          (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          },
        );
        outgoing.on("error", reject);
        outgoing.end(Buffer.alloc(size, "y"));
      });
    expect(await send(200_000)).toBe(413);
    expect(await send(10)).toBe(201);
    agent.destroy();
  });
});

describe("request heads the runtime cannot make a URL of", () => {
  const HOSTILE = [
    "POST /api/v1/quote HTTP/1.1\r\nHost: 127.0.0.1:8787@evil.example\r\nContent-Length: 2\r\n\r\n{}",
    "GET /api/v1/ HTTP/1.1\r\nHost: evil.example/path\r\n\r\n",
    "GET /api/v1/ HTTP/1.1\r\nHost: a b\r\n\r\n",
    "GET /api/v1/ HTTP/1.1\r\nHost: example.com:99999\r\n\r\n",
    "GET http://evil.example/api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "GET http://user@127.0.0.1/api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n",
    "GET /api/v1/ HTTP/1.1\r\n\r\n",
    "GET /\x01 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
  ];

  it("get the edge's 400 problem+json, and never reach the Worker", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen), { origin: "http://svc.test" });
    for (const head of HOSTILE) {
      const answer = await raw(head);
      expect(answer, head).toMatch(/^HTTP\/1\.1 400 /);
      const [headers = "", body = ""] = answer.split("\r\n\r\n");
      expect(headers.toLowerCase()).toContain("content-type: application/problem+json");
      const problem = JSON.parse(body) as Record<string, unknown>;
      expect(problem).toMatchObject({
        type: "http://svc.test/problems/bad-request",
        status: 400,
        code: "BAD_REQUEST",
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(headers.toLowerCase()).toContain(`x-request-id: ${problem.request_id}`);
    }
    expect(seen).toEqual([]);
  });

  it("pass an absolute-form target naming this host on as its path", async () => {
    edge = await startLocalEdge(0, await startEcho());
    const answer = await raw(
      `GET http://127.0.0.1:${edge.port}/api/v1/search?q=x HTTP/1.1\r\nHost: 127.0.0.1:${edge.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer).toContain('"path":"/api/v1/search?q=x"');
  });

  it("reads targets and hosts as the runtime would", () => {
    expect(requestTargetOf("GET", "/a?b", "example.com")).toEqual({ path: "/a?b" });
    expect(requestTargetOf("GET", "/", "[2001:db8::1]:8787")).toEqual({ path: "/" });
    expect(requestTargetOf("GET", "http://example.com/x?y", "example.com")).toEqual({ path: "/x?y" });
    expect(requestTargetOf("GET", "http://EXAMPLE.com:80/x", "example.com")).toEqual({ path: "/x" });
    for (const [method, target, host] of [
      ["GET", "/", "127.0.0.1:8787@evil.example"],
      ["GET", "/", undefined],
      ["GET", "https://other.example/", "example.com"],
      ["OPTIONS", "*", "example.com"],
      ["CONNECT", "example.com:443", "example.com:443"],
      ["GET", "example.com", "example.com"],
    ] as const) {
      expect(requestTargetOf(method, target, host), `${method} ${target} ${host}`).toHaveProperty("refusal");
    }
  });
});

describe("Expect: 100-continue", () => {
  it("gets 100 Continue, then the Worker's answer to the body sent after it", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen));
    const answer = await rawAnswer(
      "POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n",
      "hello",
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expect(answer.text).toContain('{"bytes":5}');
    expect(seen).toMatchObject([{ bytes: 5 }]);
  });

  it("gets the 413 instead of 100 Continue when the declared body is over the limit", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen));
    const answer = await rawAnswer(
      `POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${MAX_BODY_BYTES * 4}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.text).toContain('"code":"CONTENT_TOO_LARGE"');
    expect(seen).toEqual([]);
  });

  it("answers another expectation with a 417 problem", async () => {
    edge = await startLocalEdge(0, await startWorkerLike([]));
    const answer = await rawAnswer(
      "POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nExpect: 200-ok\r\n\r\n{}",
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 417 /);
    expect(answer.text.toLowerCase()).toContain("content-type: application/problem+json");
    expect(answer.text).toContain('"code":"EXPECTATION_FAILED"');
  });
});

describe("Host and Origin (DNS rebinding)", () => {
  const exchange = (host: string, origin?: string) =>
    rawAnswer(
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n${origin === undefined ? "" : `Origin: ${origin}\r\n`}Content-Length: 2\r\n\r\n{}`,
    );

  it("serves loopback names and the public origin, with or without an Origin of theirs", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen), { publicOrigins: ["https://svc.example.com"] });
    const port = edge.port;
    for (const [host, origin] of [
      [`127.0.0.1:${port}`, undefined],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`[::1]:${port}`, `http://[::1]:${port}`],
      [`127.0.0.2:${port}`, "http://127.0.0.1:3000"],
      [`app.localhost:${port}`, undefined],
      ["LOCALHOST.", undefined],
      ["svc.example.com", "https://svc.example.com"],
      [`127.0.0.1:${port}`, "https://svc.example.com"],
    ] as const) {
      const answer = await exchange(host, origin);
      expect(answer.text, `${host} ${origin}`).toMatch(/^HTTP\/1\.1 201 /);
    }
    expect(seen).toHaveLength(8);
  });

  it("refuses another Host with 421 and another Origin with 403, as problems, before the Worker", async () => {
    const seen: Seen[] = [];
    edge = await startLocalEdge(0, await startWorkerLike(seen), {
      origin: "http://svc.test",
      publicOrigins: ["https://svc.example.com"],
    });
    const port = edge.port;
    for (const [host, origin, status, code] of [
      ["evil.example.com", "http://evil.example.com", 421, "MISDIRECTED_REQUEST"],
      [`evil.example.com:${port}`, undefined, 421, "MISDIRECTED_REQUEST"],
      ["192.168.1.20", undefined, 421, "MISDIRECTED_REQUEST"],
      ["localhost.evil.example", undefined, 421, "MISDIRECTED_REQUEST"],
      ["svc.example.com.evil.example", undefined, 421, "MISDIRECTED_REQUEST"],
      [`127.0.0.1:${port}`, "http://evil.example.com", 403, "ORIGIN_NOT_ALLOWED"],
      [`127.0.0.1:${port}`, "null", 403, "ORIGIN_NOT_ALLOWED"],
      [`127.0.0.1:${port}`, "http://svc.example.com", 403, "ORIGIN_NOT_ALLOWED"],
      [`localhost:${port}`, "file://", 403, "ORIGIN_NOT_ALLOWED"],
    ] as const) {
      const answer = await exchange(host, origin);
      expect(answer.text, `${host} ${origin}`).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      const body = JSON.parse(answer.text.split("\r\n\r\n")[1] ?? "") as Record<string, unknown>;
      expect(body).toMatchObject({
        type: `http://svc.test/problems/${code.toLowerCase().replaceAll("_", "-")}`,
        status,
        code,
      });
    }
    expect(seen).toEqual([]);
  });

  it("tells loopback names from others", () => {
    for (const name of ["localhost", "a.b.localhost", "127.0.0.1", "127.255.0.9", "[::1]", "::1", "localhost."]) {
      expect(isLoopbackHostName(name), name).toBe(true);
    }
    for (const name of [
      "localhost.example",
      "0.0.0.0",
      "10.0.0.1",
      "128.0.0.1",
      "[::2]",
      "example.com",
      "127.0.0.1.nip.io",
    ]) {
      expect(isLoopbackHostName(name), name).toBe(false);
    }
  });
});
