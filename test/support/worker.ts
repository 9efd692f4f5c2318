/** Calls the Worker under test exactly as a client would. */
import { env, exports } from "cloudflare:workers";
import { expect, inject, onTestFinished, vi } from "vitest";
import { createApp } from "../../src/app.ts";
import { PROBLEM_TYPES, type ProblemCode } from "../../src/domain/problem-types.ts";
import { API_PREFIX, ARD_PREFIX } from "../../src/http/routes.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { assertConforms, type Contract, type ContractDocument, createContract } from "./openapi-contract.ts";

const worker = (exports as unknown as { default: { fetch: (request: Request) => Promise<Response> } }).default;

/**
 * A client address no other test uses, so per-client limits never leak between tests: a random
 * /64 of the IPv6 documentation prefix (limits count IPv6 clients by their /64). Random rather
 * than counted, because test files run as separate module instances that share one Redis.
 */
export function newClientIp(): string {
  const [a = 0, b = 0] = crypto.getRandomValues(new Uint16Array(2));
  return `2001:db8:${a.toString(16)}:${b.toString(16)}::1`;
}

let contract: Contract | undefined;

/**
 * The Worker's published document, built once for the whole run by the global setup with the
 * function GET /openapi.json serves (test/support/integration-stack.ts); the served document is
 * compared with it in test/integration/openapi-responses.test.ts.
 */
function publishedContract(): Contract {
  contract ??= createContract(JSON.parse(inject("openApiDocument")) as ContractDocument);
  return contract;
}

/**
 * Sends `init` to `path` as a client would. Every answer of an API path is held to the published
 * OpenAPI document (status, content type, body schema: test/support/openapi-contract.ts), so a
 * test fails on any answer the document does not describe.
 */
export async function call(
  path: string,
  init: RequestInit = {},
  fetchWorker: (request: Request) => Promise<Response> = (request) => worker.fetch(request),
): Promise<Response> {
  const request = new Request(`http://svc.test${path}`, init);
  const response = await fetchWorker(request);
  // Pages, /openapi.json and /mcp are not API operations: no document to hold them to.
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(API_PREFIX) && !pathname.startsWith(ARD_PREFIX)) return response;
  const checked = publishedContract();
  if (checked.covers(request.url)) {
    assertConforms(checked, {
      method: request.method,
      url: request.url,
      status: response.status,
      contentType: response.headers.get("content-type"),
      body: await response.clone().text(),
    });
  }
  return response;
}

/** `call` as one client: every request carries that client's CF-Connecting-IP. */
export function asClient(ip: string = newClientIp()) {
  return (path: string, init: RequestInit = {}) => call(path, asClientInit(ip, init));
}

/**
 * `asClient` against an all-in-one Worker with a Redis namespace of its own (REDIS_KEY_PREFIX),
 * and so caches of its own, Redis and edge alike: a test of cached answers starts from empty
 * caches instead of choosing query parameters no other test happens to use.
 */
export function asClientWithOwnCaches(ip: string = newClientIp()) {
  const app = createApp(createGroups());
  const [a = 0, b = 0] = crypto.getRandomValues(new Uint32Array(2));
  const bindings = {
    ...(env as Record<string, unknown>),
    REDIS_KEY_PREFIX: `test-own-${a.toString(36)}${b.toString(36)}`,
  };
  return (path: string, init: RequestInit = {}) =>
    call(path, asClientInit(ip, init), async (request) => app.fetch(request, bindings));
}

function asClientInit(ip: string, init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", ip);
  return { ...init, headers };
}

export type ProblemBody = Record<string, unknown> & {
  status: number;
  code: string;
  request_id: string;
  errors?: { location: string; field: string; message: string }[];
};

/** Asserts a problem+json reply with this status and code, and returns its body. */
export async function expectProblem(response: Response, status: number, code: ProblemCode): Promise<ProblemBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as ProblemBody;
  expect(body).toMatchObject({
    status,
    code,
    type: `http://svc.test/problems/${code.toLowerCase().replaceAll("_", "-")}`,
    // The type's own title, the same for every occurrence (RFC 9457 §3.1.4).
    title: PROBLEM_TYPES[code].title,
  });
  expect(body.request_id).toBe(response.headers.get("x-request-id"));
  return body;
}

/** Asserts a 400 VALIDATION_FAILED naming exactly these fields, and returns its body. */
export async function expectInvalid(response: Response, location: string, fields: string[]): Promise<ProblemBody> {
  const body = await expectProblem(response, 400, "VALIDATION_FAILED");
  expect(body.errors?.map((error) => error.field).sort()).toEqual([...fields].sort());
  for (const error of body.errors ?? []) expect(error.location).toBe(location);
  return body;
}

/**
 * Makes sure the next `seconds` fit inside one fixed window of `windowSeconds`. A sliding-window
 * limit weighs in the previous window rounded down, so a burst straddling a window edge would be
 * let through once more than the limit: a count-exact test must not straddle one. Rather than
 * wait for the next window, the clock jumps there: the tests and the Worker under test run in one
 * isolate and share its `Date`, so from here until the test ends both read a clock moved past the
 * edge (still ticking in real time, so timeouts behave).
 */
export async function awayFromWindowEdge(windowSeconds: number, seconds: number): Promise<void> {
  const intoWindow = (Date.now() / 1000) % windowSeconds;
  if (intoWindow + seconds < windowSeconds) return;
  const jumpMs = (windowSeconds - intoWindow + 1) * 1000;
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + jumpMs);
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
