/**
 * Input a hostile client sends, answered as bad input rather than as a failure of the service:
 * text Postgres or the request fingerprint cannot hold (NUL, unpaired UTF-16 surrogates), integers
 * beyond their column, MCP params of the wrong shape (JSON-RPC -32602 in plain words), and a body
 * of thousands of unknown fields (a bounded answer, not one entry per field).
 */
import { describe, expect, it } from "vitest";
import { insertSession, insertVerifiedClaim, sessionClient } from "../support/accounts.ts";
import { createOffer, newIdempotencyKey, offerBody, postAcceptance } from "../support/offers.ts";
import { postOutcome } from "../support/tickets.ts";
import { asClient, expectInvalid, expectProblem } from "../support/worker.ts";

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

// JSON.stringify writes a lone surrogate as the escape \ud800, which JSON.parse turns back into one.
const HOSTILE_TEXT = [
  ["a NUL character", "Book\u0000 a demo"],
  ["a lone high surrogate", "Book \ud800 a demo"],
  ["a lone low surrogate", "Book \udfff a demo"],
  ["a reversed surrogate pair", "Book \udc00\ud800 a demo"],
] as const;

async function ownedClaim() {
  const claim = await insertVerifiedClaim();
  const session = await insertSession({ accountId: claim.accountId });
  return { ...claim, session };
}

describe("text that cannot be stored or fingerprinted is a 400 naming the field", () => {
  it.each(HOSTILE_TEXT)("POST /checkout notes with %s", async (_name, text) => {
    const response = await asClient()(
      "/api/v1/checkout",
      json("POST", { host: "weather.example", email: "buyer@example.com", notes: text }),
    );
    const body = await expectInvalid(response, "body", ["notes"]);
    expect(body.errors?.[0]?.message).toBe("must not contain NUL characters or unpaired surrogates");
  });

  it.each(HOSTILE_TEXT)("POST and PUT /provider/offers name and summary with %s", async (_name, text) => {
    const claim = await ownedClaim();
    const client = sessionClient(claim.session.token);
    const created = await client(
      "/api/v1/provider/offers",
      json("POST", offerBody(claim.claimId, claim.domain, { name: text, summary: text })),
    );
    await expectInvalid(created, "body", ["name", "summary"]);
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    const updated = await client(
      `/api/v1/provider/offers/${offer.id}`,
      json("PUT", offerBody(claim.claimId, claim.domain, { name: text, summary: text })),
    );
    await expectInvalid(updated, "body", ["name", "summary"]);
  });

  it("keeps well-formed text from every plane: RTL, emoji (a surrogate pair) and combining marks", async () => {
    const claim = await ownedClaim();
    const name = "\u202eעברית 🧪 e\u0301";
    const offer = await createOffer(claim.session, claim.claimId, claim.domain, { name });
    expect(offer.name).toBe(name);
  });

  it.each(HOSTILE_TEXT)("POST /provider/outcomes attribution_token with %s", async (_name, text) => {
    const claim = await insertVerifiedClaim();
    const response = await postOutcome(claim.key, {
      attribution_token: `svcat_${text}`,
      ticket_id: crypto.randomUUID(),
      outcome: "converted",
    });
    const body = await expectProblem(response, 400, "VALIDATION_FAILED");
    expect(body.errors?.map((error) => error.field)).toContain("attribution_token");
  });

  it("refuses hostile text in query parameters and headers too", async () => {
    const search = await asClient()(`/api/v1/search?q=${encodeURIComponent("a\u0000b")}`);
    await expectInvalid(search, "query", ["q"]);
  });
});

describe("integers stay inside their columns", () => {
  it.each([2147483648, 2 ** 53, 1e300])("offer_version %d is a 400, not an overflow", async (version) => {
    const claim = await insertVerifiedClaim();
    const response = await postAcceptance(claim.key, newIdempotencyKey(), {
      event_type: "terms_acceptance",
      offer_id: crypto.randomUUID(),
      offer_version: version,
      exact_terms_sha256: "0".repeat(64),
      provider_acceptance_reference: "contract-2026-001",
    });
    const body = await expectInvalid(response, "body", ["offer_version"]);
    expect(body.errors?.[0]?.message).toBe("must be an integer from 1 to 2147483647");
  });

  it("accepts the largest offer_version the column holds (then finds no such offer)", async () => {
    const claim = await insertVerifiedClaim();
    const response = await postAcceptance(claim.key, newIdempotencyKey(), {
      event_type: "terms_acceptance",
      offer_id: crypto.randomUUID(),
      offer_version: 2147483647,
      exact_terms_sha256: "0".repeat(64),
      provider_acceptance_reference: "contract-2026-001",
    });
    expect(response.status).not.toBe(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe("a body of thousands of unknown fields gets a bounded answer", () => {
  it("lists the first 20 problems and says how many more there were", async () => {
    const body: Record<string, string> = { url: "https://weather.example" };
    for (let index = 0; index < 5000; index++) body[`k${index}`] = "v";
    const response = await asClient()("/api/v1/check", json("POST", body));
    const text = await response.clone().text();
    expect(text.length).toBeLessThan(8 * 1024);
    const problem = await expectProblem(response, 400, "VALIDATION_FAILED");
    expect(problem.errors).toHaveLength(20);
    expect(problem.errors_omitted).toBe(4980);
    expect(problem.detail).toContain("and 4980 more");
  });

  it("lists every problem when there are 20 or fewer", async () => {
    const body: Record<string, string> = { url: "https://weather.example" };
    for (let index = 0; index < 3; index++) body[`k${index}`] = "v";
    const problem = await expectProblem(
      await asClient()("/api/v1/check", json("POST", body)),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toHaveLength(3);
    expect(problem.errors_omitted).toBeUndefined();
  });
});

/** One JSON-RPC request to /mcp; the parsed answer. */
async function rpc(message: unknown) {
  const response = await asClient()(
    "/mcp",
    json("POST", message, { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18" }),
  );
  expect(response.status).toBeLessThan(500);
  return (await response.json()) as { error?: { code: number; message: string; data?: unknown }; result?: unknown };
}

describe("MCP: params of the wrong shape are -32602 Invalid params in plain words", () => {
  it.each([
    ["tools/call with arguments 1", { method: "tools/call", params: { name: "get_stats", arguments: 1 } }, "arguments"],
    ["tools/call with a numeric name", { method: "tools/call", params: { name: 5 } }, "name"],
    ["tools/call without params", { method: "tools/call" }, "params"],
    ["tools/list with a numeric cursor", { method: "tools/list", params: { cursor: 1 } }, "cursor"],
    [
      "initialize with clientInfo null",
      {
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: null },
      },
      "clientInfo",
    ],
    ["initialize without params", { method: "initialize" }, "params"],
  ])("%s", async (_name, message, field) => {
    const answer = await rpc({ jsonrpc: "2.0", id: 7, ...message });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain(field);
    expect(answer.error?.message).not.toMatch(/received|expected|invalid_type|\[\s*\{/);
  });

  it("keeps a well-formed call working", async () => {
    const answer = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_stats", arguments: {} },
    });
    expect(answer.error).toBeUndefined();
  });
});
