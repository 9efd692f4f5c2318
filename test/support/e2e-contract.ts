/**
 * The e2e suite's half of the response contract (test/support/openapi-contract.ts): every answer
 * fetched from a running `npm start` (an origin test/support/npm-start.ts registered) is held to
 * that service's own /openapi.json, status, content type and body. Loaded before each e2e file
 * (vitest setupFiles), so a test fails on an answer the document does not describe.
 */
import { afterEach } from "vitest";
import { API_PREFIX } from "../../src/http/routes.ts";
import { serviceOrigins } from "./npm-start.ts";
import { assertConforms, type Contract, type ContractDocument, createContract } from "./openapi-contract.ts";

const plainFetch = globalThis.fetch;
const contracts = new Map<string, Promise<Contract>>();
const departures: Error[] = [];

function contractOf(origin: string): Promise<Contract> {
  let contract = contracts.get(origin);
  if (!contract) {
    contract = plainFetch(`${origin}/openapi.json`).then(async (response) =>
      createContract((await response.json()) as ContractDocument),
    );
    contracts.set(origin, contract);
    // A service not up yet is asked again next time.
    contract.catch(() => contracts.delete(origin));
  }
  return contract;
}

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = input instanceof Request ? input.url : String(input);
  const { origin } = new URL(url);
  // Anything else (the Stripe stand-in, the outbox, fixture sites) is passed through untouched.
  if (!serviceOrigins.has(origin)) return plainFetch(input, init);
  const response = await plainFetch(input, init);
  // Pages, /healthz, /openapi.json and /mcp are not API operations: nothing to hold them to.
  if (!new URL(url).pathname.startsWith(API_PREFIX)) return response;
  const contract = await contractOf(origin);
  if (!contract.covers(url)) return response;
  try {
    assertConforms(contract, {
      method: (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase(),
      url,
      status: response.status,
      contentType: response.headers.get("content-type"),
      body: await response.clone().text(),
    });
  } catch (error) {
    departures.push(error as Error);
    throw error;
  }
  return response;
};

// A departure caught by a test's own try/catch still fails that test.
afterEach(() => {
  const found = departures.splice(0);
  if (found.length > 0) throw found[0];
});
