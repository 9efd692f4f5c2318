/** Calls the Worker under test exactly as a client would. */
import { exports } from "cloudflare:workers";

const worker = (exports as unknown as { default: { fetch: (request: Request) => Promise<Response> } }).default;

let nextClient = 1;

/** A distinct client address per call site, so per-client limits never leak between tests. */
export function newClientIp(): string {
  const n = nextClient++;
  return `198.51.${(n >> 8) & 255}.${n & 255}`;
}

export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return worker.fetch(new Request(`http://svc.test${path}`, init));
}
