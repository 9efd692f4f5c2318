/**
 * The authentication middleware (session, provider key, same-origin, idempotency) on a test app
 * with in-memory credentials, through the shared security cases and their own rules.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { ProviderKeyVerification } from "../../src/domain/accounts/credentials.ts";
import type { ProviderKeyActor, SessionActor } from "../../src/domain/actor.ts";
import type { AppEnv, Dependencies } from "../../src/http/context.ts";
import { idempotent, type LockStore } from "../../src/http/middleware/idempotent.ts";
import { providerKeyIdempotent } from "../../src/http/middleware/provider-key-idempotent.ts";
import { requireProviderKey } from "../../src/http/middleware/require-provider-key.ts";
import { requireSameOrigin } from "../../src/http/middleware/require-same-origin.ts";
import { requireSession } from "../../src/http/middleware/require-session.ts";
import { HttpProblem, internalProblem, problemResponse } from "../../src/http/problem.ts";
import { runSecurityCases } from "../support/security-cases.ts";

const ORIGIN = "https://svc.test";

/** A lock store with Redis's SET NX PX and the compare-and-delete script, in memory. */
class MemoryLocks implements LockStore {
  readonly held = new Map<string, string>();
  failing = false;
  /** Every SET NX asked for, in order. */
  readonly asked: string[] = [];
  async set(key: string, value: string, _options: { nx: true; px: number }) {
    this.asked.push(key);
    if (this.failing) throw new Error("redis down");
    if (this.held.has(key)) return null;
    this.held.set(key, value);
    return "OK";
  }
  async eval(_script: string, keys: string[], args: string[]) {
    if (this.held.get(keys[0] as string) === args[0]) this.held.delete(keys[0] as string);
    return 1;
  }
}

const token = (label: string) => `${label.padEnd(12, "x")}${"A".repeat(20)}`;

function session(id: string, accountId: string): SessionActor {
  return {
    kind: "session",
    accountId,
    email: `${accountId}@example.com`,
    sessionId: id,
    expiresAt: new Date(Date.now() + 3600_000),
  };
}

function providerKey(keyId: string, claimId: string): ProviderKeyActor {
  return { kind: "provider_key", keyId, claimId, accountId: `acct-${claimId}`, domain: `${claimId}.example` };
}

/** Live sessions and keys; what is not here is unknown, ended, revoked or stale. */
const sessions = new Map<string, SessionActor>([
  [token("alice"), session("s1", "alice")],
  [token("bob"), session("s2", "bob")],
]);
const keys = new Map<string, ProviderKeyVerification>([
  [token("key-claim-1"), { status: "active", actor: providerKey("1", "claim-1") }],
  [token("key-claim-2"), { status: "active", actor: providerKey("2", "claim-2") }],
  [token("key-stale"), { status: "claim_not_fresh" }],
]);
const things = new Map([["thing-1", { owner: "alice", name: "first" }]]);
const receipts = new Map([["receipt-1", { claimId: "claim-1" }]]);
const acceptances = new Map<string, { body: string; id: number }>();
let verifyFails = false;
const locks = new MemoryLocks();
/** The check of the key "key-gated" waits for this gate; its answer is claim-1's key. */
let gate: { opened: Promise<void>; open: () => void } | undefined;

function createTestApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", async (c, next) => {
    const deps = { origin: ORIGIN, redis: locks, config: { REDIS_KEY_PREFIX: "t" } } as unknown as Dependencies;
    c.set("deps", deps);
    c.set("requestId", "r-1");
    await next();
  });
  const verifySession = async (_ctx: unknown, value: string) => sessions.get(value) ?? null;
  const verifyKey = async (_ctx: unknown, value: string): Promise<ProviderKeyVerification> => {
    if (verifyFails) throw new Error("database down");
    if (value === token("key-gated") && gate) {
      await gate.opened;
      return { status: "active", actor: providerKey("1", "claim-1") };
    }
    return keys.get(value) ?? { status: "invalid" };
  };

  app.get("/things/:id", requireSession({ verify: verifySession }), (c) => {
    const thing = things.get(c.req.param("id"));
    if (!thing || thing.owner !== c.var.actor.accountId) throw new HttpProblem(404, "NOT_FOUND", "No such thing.");
    return c.json(thing);
  });
  app.post("/things/:id/rename", requireSession({ verify: verifySession }), requireSameOrigin(), (c) => {
    const thing = things.get(c.req.param("id"));
    if (!thing || thing.owner !== c.var.actor.accountId) throw new HttpProblem(404, "NOT_FOUND", "No such thing.");
    return c.json({ ...thing, renamed: true });
  });
  app.get("/provider/receipts/:id", requireProviderKey({ verify: verifyKey, whenClaimNotFresh: 404 }), (c) => {
    const receipt = receipts.get(c.req.param("id"));
    if (!receipt || receipt.claimId !== c.var.actor.claimId)
      throw new HttpProblem(404, "NOT_FOUND", "No such receipt.");
    return c.json(receipt);
  });
  app.post(
    "/provider/acceptances",
    requireProviderKey({ verify: verifyKey, whenClaimNotFresh: 409 }),
    idempotent<AppEnv & { Variables: { actor: ProviderKeyActor } }>({
      name: "acceptance",
      scope: (c) => c.var.actor.claimId,
      header: "Idempotency-Key",
      minLength: 8,
      maxLength: 128,
      waitMs: 2_000,
    }),
    async (c) => {
      const body = await c.req.text();
      const stored = `${c.var.idempotency.scope}\n${c.var.idempotency.key}`;
      const prior = acceptances.get(stored);
      if (prior && prior.body !== body) throw new HttpProblem(409, "IDEMPOTENCY_CONFLICT", "Other body.");
      if (prior) return c.json({ id: prior.id, replay: true }, 200);
      // A pause between the read and the write: racing duplicates would both write without the lock.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const id = acceptances.size + 1;
      acceptances.set(stored, { body, id });
      return c.json({ id, replay: false }, 201);
    },
  );
  app.post(
    "/provider/outcomes",
    providerKeyIdempotent({
      key: { verify: verifyKey, whenClaimNotFresh: 409 },
      idempotency: { name: "outcome", header: "Idempotency-Key", minLength: 8, maxLength: 200, waitMs: 2_000 },
    }),
    async (c) => {
      const body = await c.req.text();
      // The database's unique key is the claim's, whatever scope the lock had.
      const stored = `outcome:${c.var.actor.claimId}\n${c.var.idempotency.key}`;
      const prior = acceptances.get(stored);
      if (prior && prior.body !== body) throw new HttpProblem(409, "IDEMPOTENCY_CONFLICT", "Other body.");
      if (prior) return c.json({ id: prior.id, replay: true }, 200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const id = acceptances.size + 1;
      acceptances.set(stored, { body, id });
      return c.json({ id, replay: false }, 201);
    },
  );
  app.onError((error, c) =>
    problemResponse(error instanceof HttpProblem ? error : internalProblem(), {
      requestId: c.get("requestId"),
      origin: ORIGIN,
    }),
  );
  return app;
}

const app = createTestApp();
const send = async (method: string, path: string, headers: Headers, body?: string) =>
  app.request(`${ORIGIN}${path}`, { method, headers, body });

// Ended, expired and revoked credentials are simply absent from the live maps above.
runSecurityCases(
  {
    name: "GET /things/{id} (session)",
    scheme: "session",
    mutation: false,
    okStatus: 200,
    staleStatus: 401,
    setup: async () => ({
      valid: token("alice"),
      revoked: token("ended"),
      otherOwner: token("bob"),
      stale: token("expired"),
    }),
    send: (headers) => send("GET", "/things/thing-1", headers),
  },
  { ownOrigin: ORIGIN },
);

runSecurityCases(
  {
    name: "POST /things/{id}/rename (session mutation)",
    scheme: "session",
    mutation: true,
    okStatus: 200,
    staleStatus: 401,
    setup: async () => ({
      valid: token("alice"),
      revoked: token("ended"),
      otherOwner: token("bob"),
      stale: token("expired"),
    }),
    send: (headers) => send("POST", "/things/thing-1/rename", headers),
  },
  { ownOrigin: ORIGIN },
);

runSecurityCases(
  {
    name: "GET /provider/receipts/{id} (provider key)",
    scheme: "provider_key",
    mutation: false,
    okStatus: 200,
    staleStatus: 404,
    setup: async () => ({
      valid: token("key-claim-1"),
      revoked: token("key-rotated"),
      otherOwner: token("key-claim-2"),
      stale: token("key-stale"),
    }),
    send: (headers) => send("GET", "/provider/receipts/receipt-1", headers),
  },
  { ownOrigin: ORIGIN },
);

describe("requireSameOrigin", () => {
  it("accepts an Origin equal to the service's when Sec-Fetch-Site is absent (older browsers)", async () => {
    const headers = new Headers({ Cookie: `svc_session=${token("alice")}`, Origin: ORIGIN });
    expect((await send("POST", "/things/thing-1/rename", headers)).status).toBe(200);
  });

  it("trusts Sec-Fetch-Site over Origin: same-site is not same-origin", async () => {
    const headers = new Headers({
      Cookie: `svc_session=${token("alice")}`,
      Origin: ORIGIN,
      "Sec-Fetch-Site": "same-site",
    });
    expect((await send("POST", "/things/thing-1/rename", headers)).status).toBe(403);
  });
});

describe("requireProviderKey", () => {
  it("answers 503 PROVIDER_AUTH_UNAVAILABLE, not 401, when keys cannot be checked", async () => {
    verifyFails = true;
    try {
      const response = await send(
        "GET",
        "/provider/receipts/receipt-1",
        new Headers({ "X-SVC-Provider-Key": token("key-claim-1") }),
      );
      expect(response.status).toBe(503);
      expect(((await response.json()) as { code: string }).code).toBe("PROVIDER_AUTH_UNAVAILABLE");
      expect(response.headers.get("retry-after")).toBe("5");
    } finally {
      verifyFails = false;
    }
  });

  it("answers a stale claim's key with the route's own status (409 on acceptances)", async () => {
    const headers = new Headers({ "X-SVC-Provider-Key": token("key-stale"), "Idempotency-Key": "key-12345678" });
    const response = await send("POST", "/provider/acceptances", headers, "{}");
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe("CLAIM_NOT_FRESH");
  });
});

describe("idempotent", () => {
  const post = (idempotencyKey: string | undefined, body: string, key = token("key-claim-1")) => {
    const headers = new Headers({ "X-SVC-Provider-Key": key });
    if (idempotencyKey !== undefined) headers.set("Idempotency-Key", idempotencyKey);
    return send("POST", "/provider/acceptances", headers, body);
  };

  it("refuses a missing or malformed key with 400 before the handler runs", async () => {
    const before = acceptances.size;
    for (const bad of [undefined, "short", "-starts-with-dash", "has space inside", "x".repeat(129)]) {
      const response = await post(bad, "{}");
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe("INVALID_IDEMPOTENCY_KEY");
    }
    expect(acceptances.size).toBe(before);
  });

  it("accepts keys at both length bounds", async () => {
    expect((await post("a".repeat(8), "{}")).status).toBe(201);
    expect((await post("b".repeat(128), "{}")).status).toBe(201);
  });

  it("lets racing identical requests write once: one 201, the rest replays", async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => post("race-key-1", '{"a":1}')));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    expect(locks.held.size).toBe(0);
  });

  it("scopes keys by claim: another claim's identical key is its own write", async () => {
    expect((await post("shared-key-1", "{}")).status).toBe(201);
    expect((await post("shared-key-1", "{}", token("key-claim-2"))).status).toBe(201);
    expect((await post("shared-key-1", '{"other":true}')).status).toBe(409);
  });

  it("fails closed with 503 when the lock store is down", async () => {
    locks.failing = true;
    try {
      const response = await post("down-key-1", "{}");
      expect(response.status).toBe(503);
      expect(((await response.json()) as { code: string }).code).toBe("IDEMPOTENCY_UNAVAILABLE");
      expect(acceptances.has("claim-1\ndown-key-1")).toBe(false);
    } finally {
      locks.failing = false;
    }
  });
});

describe("providerKeyIdempotent", () => {
  /** A null key sends no X-SVC-Provider-Key header. */
  const post = (idempotencyKey: string | undefined, body: string, key: string | null = token("key-claim-1")) => {
    const headers = new Headers();
    if (key !== null) headers.set("X-SVC-Provider-Key", key);
    if (idempotencyKey !== undefined) headers.set("Idempotency-Key", idempotencyKey);
    return send("POST", "/provider/outcomes", headers, body);
  };
  const code = async (response: Response) => ((await response.json()) as { code: string }).code;

  it("asks for the lock while the key is being checked, not after", async () => {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    gate = { opened, open };
    try {
      const asked = locks.asked.length;
      const answer = post("gated-key-1", "{}", token("key-gated"));
      // The key's check cannot answer until the gate opens; the lock is asked for meanwhile.
      await expect.poll(() => locks.asked.length).toBe(asked + 1);
      open();
      expect((await answer).status).toBe(201);
      expect(locks.held.size).toBe(0);
    } finally {
      gate = undefined;
    }
  });

  it("tells a missing or bad key (401) before a bad Idempotency-Key (400), and holds no lock after", async () => {
    expect((await post("short", "{}", null)).status).toBe(401);
    expect((await post("short", "{}", token("key-unknown"))).status).toBe(401);
    expect((await post("fine-key-1", "{}", token("key-unknown"))).status).toBe(401);
    const bad = await post("short", "{}");
    expect(bad.status).toBe(400);
    expect(await code(bad)).toBe("INVALID_IDEMPOTENCY_KEY");
    expect(locks.held.size).toBe(0);
  });

  it("answers a stale claim with the route's status, and an unreadable key store with 503", async () => {
    expect(await code(await post("stale-key-1", "{}", token("key-stale")))).toBe("CLAIM_NOT_FRESH");
    verifyFails = true;
    try {
      const response = await post("auth-down-1", "{}");
      expect(response.status).toBe(503);
      expect(await code(response)).toBe("PROVIDER_AUTH_UNAVAILABLE");
    } finally {
      verifyFails = false;
    }
    expect(locks.held.size).toBe(0);
  });

  it("lets racing identical requests write once: one 201, the rest replays", async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => post("race-outcome-1", '{"a":1}')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    expect(locks.held.size).toBe(0);
    expect((await post("race-outcome-1", '{"other":true}')).status).toBe(409);
  });

  it("fails closed with 503 when the lock store is down, and a bad key is still a 401", async () => {
    locks.failing = true;
    try {
      const response = await post("lock-down-1", "{}");
      expect(response.status).toBe(503);
      expect(await code(response)).toBe("IDEMPOTENCY_UNAVAILABLE");
      expect(acceptances.has("outcome:claim-1\nlock-down-1")).toBe(false);
      expect((await post("lock-down-2", "{}", token("key-unknown"))).status).toBe(401);
    } finally {
      locks.failing = false;
    }
  });
});
