/**
 * Fault proxies seen from inside workerd: a proxy in front of one of the stack's endpoints, which
 * a test switches between answering and the ways a store goes away (scripts/fault-proxy.ts).
 */
import { inject } from "vitest";
import type { FaultMode } from "../../scripts/fault-proxy.ts";

export interface TestFaultProxy {
  /** `http://127.0.0.1:<port>`, to use in place of the endpoint. */
  url: string;
  port: number;
  setMode(mode: FaultMode, delayMs?: number): Promise<void>;
  /** Requests the proxy received so far. */
  requests(): Promise<number>;
  stop(): Promise<void>;
}

async function control(path: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${inject("faultProxyControl")}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fault proxy control ${method} ${path}: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A new proxy in front of `target` (an http origin), answering normally until told otherwise. */
export async function startTestFaultProxy(target: string): Promise<TestFaultProxy> {
  const { port, url } = (await control("/proxies", "POST", { target })) as { port: number; url: string };
  return {
    url,
    port,
    setMode: async (mode, delayMs) => {
      await control(`/proxies/${port}`, "PUT", { mode, delayMs });
    },
    requests: async () => Number((await control(`/proxies/${port}`, "GET")).requests),
    stop: async () => {
      await control(`/proxies/${port}`, "DELETE");
    },
  };
}
