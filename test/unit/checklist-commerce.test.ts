/**
 * The December commerce checks (x402, mpp, ucp, acp) and the signed A2A agent card, each on
 * hand-made sites built from documents (no network), with the standards' own examples as vectors:
 * x402's v1 body and v2 PAYMENT-REQUIRED header (x402 specs/transports-v1 and -v2), MPP's
 * `WWW-Authenticate: Payment` challenge (draft-httpauth-payment), a UCP business profile with a
 * P-256 signing key, ACP's minimal discovery document (rfcs/rfc.discovery.md, example 5.2), and a
 * card signed by the A2A JS SDK. Commerce applies to stores; absent elsewhere it is neutral, but a
 * published document that is broken fails on every kind of site, and undecided is error.
 */
import { generateAgentCardSignature } from "@a2a-js/sdk";
import { exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import type { ChecklistAnswers } from "../../src/domain/checklist/checklist-answers.ts";
import type { CheckId, CheckResult } from "../../src/domain/checklist/checklist-definition.ts";
import { CHECKLIST_REQUESTS, followUpUrls } from "../../src/domain/checklist/checklist-requests.ts";
import { judgeChecklist } from "../../src/domain/checklist/run-checklist.ts";
import { readPaidOperations } from "../../src/domain/readers/openapi.ts";
import { parseAuthChallenges } from "../../src/domain/readers/payment-required.ts";
import type { ProbeResponse, SignalFinding } from "../../src/domain/signals/types.ts";
import { answersFor, type Served } from "../support/checklist-answers.ts";

const ORIGIN = "https://shop.acme.test";
const json = (value: unknown): Served => ({ body: JSON.stringify(value), type: "application/json" });

const PRODUCT = `<script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: "Kettle" })}</script>`;

/** A home page linking its paid endpoint (rel="payment"); a store's when `store`. */
const home = (store: boolean, paid = "/paid"): Served => ({
  type: "text/html; charset=utf-8",
  body: `<!doctype html><html><head><title>Acme</title><link rel="payment" href="${paid}">${store ? PRODUCT : ""}</head><body><h1>Acme</h1></body></html>`,
});

function answer(url: string, status: number, headers: Record<string, string>, body = ""): ProbeResponse {
  const type = headers["content-type"] ?? "application/json";
  return {
    ok: true,
    url,
    finalUrl: url,
    redirects: [],
    status,
    headers: new Headers({ "content-type": type, ...headers }),
    contentType: type.split(";")[0]!,
    body,
  };
}

function failed(url: string, failure: "network" | "timeout" = "timeout", unresolvedHost?: string): ProbeResponse {
  return {
    ok: false,
    url,
    finalUrl: url,
    redirects: [],
    failure,
    message: `${failure} failure`,
    ...(unresolvedHost ? { unresolvedHost } : {}),
  };
}

async function check(answers: ChecklistAnswers, id: CheckId): Promise<CheckResult> {
  const { checks } = await judgeChecklist(answers, null);
  return checks.find((each) => each.id === id)!;
}

/** x402 v1 (transports-v1/http.md's example), in the body. */
const X402_V1 = {
  x402Version: 1,
  error: "Payment required to access this resource",
  accepts: [
    {
      scheme: "exact",
      network: "base-sepolia",
      maxAmountRequired: "10000",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      resource: "https://api.example.com/premium-data",
      maxTimeoutSeconds: 60,
    },
  ],
};

/** x402 v2 (transports-v2/http.md's example), for the PAYMENT-REQUIRED header. */
const X402_V2 = {
  x402Version: 2,
  error: "PAYMENT-SIGNATURE header is required",
  resource: { url: "https://api.example.com/premium-data", description: "Access to premium market data" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      amount: "10000",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      maxTimeoutSeconds: 60,
    },
  ],
};

const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

/** draft-httpauth-payment's example challenge (request: {"amount": "1000", "currency": "usd"}). */
const MPP_CHALLENGE =
  'Payment id="nR5tYuIoP8qWe", realm="api.example.com", method="example", intent="charge", request="eyJhbW91bnQiOiIxMDAwIiwiY3VycmVuY3kiOiJ1c2QifQ"';

/** A site whose home page names /paid, with /paid answered by `paid`. */
function paidSite(store: boolean, paid: (url: string) => ProbeResponse): ChecklistAnswers {
  const answers = answersFor(ORIGIN, { "/": home(store) });
  answers.get.set(`${ORIGIN}/paid`, paid(`${ORIGIN}/paid`));
  return answers;
}

describe("x402", () => {
  it("passes a v1 body and a v2 PAYMENT-REQUIRED header on a store, and never pays", async () => {
    for (const paid of [
      (url: string) => answer(url, 402, {}, JSON.stringify(X402_V1)),
      (url: string) => answer(url, 402, { "payment-required": base64(X402_V2) }, "{}"),
    ]) {
      const result = await check(paidSite(true, paid), "x402");
      expect(result.status, result.reason).toBe("pass");
      expect(result.reason).toMatch(/nothing was paid/);
      expect(result.reason).toMatch(/named by the home page \(rel=payment\)/);
    }
    const v2 = await check(
      paidSite(true, (url) => answer(url, 402, { "payment-required": base64(X402_V2) })),
      "x402",
    );
    expect(v2.reason).toContain("x402 v2 payment requirement in its PAYMENT-REQUIRED header (exact on eip155:84532");
  });

  it("fails a broken payment requirement on every kind of site", async () => {
    const broken = [
      (url: string) => answer(url, 402, { "payment-required": "%%%not base64" }),
      (url: string) => answer(url, 402, {}, JSON.stringify({ ...X402_V1, accepts: [] })),
      (url: string) =>
        answer(url, 402, {}, JSON.stringify({ ...X402_V1, accepts: [{ ...X402_V1.accepts[0], payTo: undefined }] })),
    ];
    for (const store of [true, false])
      for (const paid of broken) {
        const result = await check(paidSite(store, paid), "x402");
        expect(result.status, result.reason).toBe("fail");
      }
  });

  it("is error when the named endpoint timed out or answered 503, never fail", async () => {
    for (const paid of [(url: string) => failed(url), (url: string) => answer(url, 503, {}, "")]) {
      const result = await check(paidSite(true, paid), "x402");
      expect(result.status, result.reason).toBe("error");
    }
  });

  it("is neutral where no document names a paid endpoint, unless the site is a store", async () => {
    const content = answersFor(ORIGIN, {});
    expect((await check(content, "x402")).status).toBe("neutral");
    const store = answersFor(ORIGIN, { "/": { type: "text/html", body: `<html><head>${PRODUCT}</head></html>` } });
    expect((await check(store, "x402")).status).toBe("fail");
    // A named endpoint that answers 200 asks for nothing: absent, so neutral on a content site.
    const free = await check(
      paidSite(false, (url) => answer(url, 200, {}, "{}")),
      "x402",
    );
    expect(free.status).toBe("neutral");
    expect(free.reason).toMatch(/answered 200, not 402/);
  });

  it("finds paid GETs in an OpenAPI document and asks them as follow-ups, never a POST", () => {
    const document = {
      openapi: "3.1.0",
      info: { title: "Acme", version: "1" },
      servers: [{ url: "https://api.acme.test/v1" }],
      paths: {
        "/weather": { get: { responses: { "402": { description: "Pay" } } } },
        "/forecast/{city}": { get: { responses: { "402": { description: "Pay" } } } },
        "/report": { post: { "x-payment-info": { price: "0.20", protocols: ["mpp"] }, responses: {} } },
        "/free": { get: { responses: { "200": { description: "Free" } } } },
      },
    };
    expect(readPaidOperations(document, `${ORIGIN}/openapi.json`)).toEqual([
      { method: "get", path: "/weather", url: "https://api.acme.test/v1/weather", marker: "402 response" },
      { method: "get", path: "/forecast/{city}", url: null, marker: "402 response" },
      { method: "post", path: "/report", url: null, marker: "x-payment-info" },
    ]);
    const openapi: SignalFinding = {
      status: "present",
      reason: "Found.",
      fetched: [],
      details: { url: `${ORIGIN}/openapi.json` },
    };
    const answers = answersFor(ORIGIN, { "/openapi.json": json(document) }, { has_openapi: openapi });
    expect(followUpUrls(CHECKLIST_REQUESTS, answers)).toContain("https://api.acme.test/v1/weather");
  });
});

describe("mpp", () => {
  it("passes the draft's Payment challenge, beside a Bearer one", async () => {
    const result = await check(
      paidSite(true, (url) => answer(url, 402, { "www-authenticate": `Bearer realm="api", ${MPP_CHALLENGE}` }, "{}")),
      "mpp",
    );
    expect(result.status, result.reason).toBe("pass");
    expect(result.reason).toContain("example charge");
  });

  it("fails a challenge without id or with a request that is not base64url JSON, on any kind", async () => {
    for (const challenge of [
      MPP_CHALLENGE.replace('id="nR5tYuIoP8qWe", ', ""),
      MPP_CHALLENGE.replace(/request="[^"]+"/, 'request="not json"'),
      MPP_CHALLENGE.replace('method="example"', 'method="Example"'),
    ])
      for (const store of [true, false]) {
        const result = await check(
          paidSite(store, (url) => answer(url, 402, { "www-authenticate": challenge })),
          "mpp",
        );
        expect(result.status, `${challenge}: ${result.reason}`).toBe("fail");
      }
  });

  it("reads auth challenges as RFC 9110 gives them: schemes, token68, quoted params with commas", () => {
    expect(
      parseAuthChallenges(
        'Bearer realm="a, b", error="invalid_token", Payment id="x\\"y", method=tempo, Basic Zm9vOmJhcg==',
      ),
    ).toEqual([
      { scheme: "Bearer", params: { realm: "a, b", error: "invalid_token" } },
      { scheme: "Payment", params: { id: 'x"y', method: "tempo" } },
      { scheme: "Basic", params: {}, token68: "Zm9vOmJhcg==" },
    ]);
  });
});

async function ucpProfile(overrides: Record<string, unknown> = {}) {
  const { publicKey } = await generateKeyPair("ES256", { extractable: true });
  const key = { ...(await exportJWK(publicKey)), kid: "acme-2026", alg: "ES256" };
  return {
    ucp: {
      version: "2026-04-08",
      services: {
        "dev.ucp.shopping": [
          {
            version: "2026-04-08",
            spec: "https://ucp.dev/2026-04-08/specification/overview",
            transport: "rest",
            endpoint: `${ORIGIN}/ucp/v1`,
          },
        ],
      },
    },
    signing_keys: [key],
    ...overrides,
  };
}

describe("ucp", () => {
  it("passes a profile with https endpoints and a P-256 key that jose imports", async () => {
    const result = await check(answersFor(ORIGIN, { "/.well-known/ucp": json(await ucpProfile()) }), "ucp");
    expect(result.status, result.reason).toBe("pass");
    expect(result.reason).toContain("1 signing key");
  });

  it("fails a key that does not parse, a plain-http endpoint or private key material, on a content site too", async () => {
    const good = await ucpProfile();
    const key = good.signing_keys[0]!;
    for (const profile of [
      { ...good, signing_keys: [{ ...key, x: "AAAA" }] },
      { ...good, signing_keys: [{ ...key, d: "c2VjcmV0" }] },
      {
        ...good,
        ucp: {
          ...good.ucp,
          services: { "dev.ucp.shopping": [{ transport: "rest", endpoint: "http://elsewhere.test/ucp" }] },
        },
      },
      { ucp: { version: "2026-04-08" } },
    ]) {
      const result = await check(answersFor(ORIGIN, { "/.well-known/ucp": json(profile) }), "ucp");
      expect(result.status, result.reason).toBe("fail");
    }
  });

  it("warns without signing keys or with a key type it cannot verify; neutral when absent on a content site", async () => {
    const { signing_keys: _keys, ...unsigned } = await ucpProfile();
    expect((await check(answersFor(ORIGIN, { "/.well-known/ucp": json(unsigned) }), "ucp")).status).toBe("warn");
    const odd = await ucpProfile({ signing_keys: [{ kid: "pq", kty: "AKP", alg: "ML-DSA-44", pub: "AAAA" }] });
    expect((await check(answersFor(ORIGIN, { "/.well-known/ucp": json(odd) }), "ucp")).status).toBe("warn");
    expect((await check(answersFor(ORIGIN, {}), "ucp")).status).toBe("neutral");
  });
});

/** ACP's minimal discovery document (rfc.discovery.md, 5.2), on this origin. */
const ACP = {
  protocol: { name: "acp", version: "2025-09-29", supported_versions: ["2025-09-29"] },
  api_base_url: `${ORIGIN}/api`,
  transports: ["rest"],
  capabilities: { services: ["checkout"] },
};

describe("acp", () => {
  it("passes when the API base answers, even 404 or 401 to a bare GET", async () => {
    for (const status of [200, 401, 404]) {
      const answers = answersFor(ORIGIN, { "/.well-known/acp.json": json(ACP) });
      answers.get.set(`${ORIGIN}/api`, answer(`${ORIGIN}/api`, status, {}));
      const result = await check(answers, "acp");
      expect(result.status, result.reason).toBe("pass");
    }
  });

  it("is error when the API base timed out or answered 5xx, fail when its host does not resolve", async () => {
    const base = "https://acp.acme.test/api";
    for (const [response, status] of [
      [failed(base), "error"],
      [answer(base, 502, {}), "error"],
      [failed(base, "network", "acp.acme.test"), "fail"],
    ] as const) {
      const answers = answersFor(ORIGIN, { "/.well-known/acp.json": json({ ...ACP, api_base_url: base }) });
      answers.get.set(base, response);
      const result = await check(answers, "acp");
      expect(result.status, result.reason).toBe(status);
    }
  });

  it("asks the API base as a follow-up, and fails a document that is not ACP's on any kind", async () => {
    // (The test site answers every path of its own origin: the follow-up is shown for another host.)
    const elsewhere = { ...ACP, api_base_url: "https://api.acme.test/v1" };
    expect(
      followUpUrls(CHECKLIST_REQUESTS, answersFor(ORIGIN, { "/.well-known/acp.json": json(elsewhere) })),
    ).toContain("https://api.acme.test/v1");
    for (const document of [
      { ...ACP, protocol: { name: "ucp", version: "2025-09-29" } },
      { ...ACP, api_base_url: "http://api.elsewhere.test" },
      { ...ACP, capabilities: {} },
    ]) {
      const result = await check(answersFor(ORIGIN, { "/.well-known/acp.json": json(document) }), "acp");
      expect(result.status, result.reason).toBe("fail");
    }
  });
});

/** An A2A 1.0 card, signed by the A2A JS SDK with its key in the header (jwk) or at a jku. */
async function signedCard(where: "jwk" | "jku", jku = `${ORIGIN}/.well-known/jwks.json`) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: "card-key" };
  const card = {
    name: "Acme Agent",
    description: "Answers questions about kettles.",
    version: "1.0.0",
    supportedInterfaces: [{ url: `${ORIGIN}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "answer", name: "Answer", description: "Answers", tags: ["support"] }],
  };
  const header =
    where === "jwk"
      ? { alg: "ES256", kid: "card-key", typ: "JOSE", jwk }
      : { alg: "ES256", kid: "card-key", typ: "JOSE", jku };
  // biome-ignore lint/suspicious/noExplicitAny: the card type lives in the SDK's internal chunks
  const signed = (await generateAgentCardSignature(privateKey, header)(card as any)) as unknown as Record<
    string,
    unknown
  >;
  return { signed, jwk };
}

describe("a2a_agent_card: signed cards and 1.0 interfaces", () => {
  it("passes a card the A2A JS SDK signed, with the key in the header or at its jku", async () => {
    const inHeader = await signedCard("jwk");
    const one = await check(
      answersFor(ORIGIN, { "/.well-known/agent-card.json": json(inHeader.signed) }),
      "a2a_agent_card",
    );
    expect(one.status, one.reason).toBe("pass");
    expect(one.reason).toContain("verifies over the canonical card");
    const atJku = await signedCard("jku", "https://keys.acme.test/jwks.json");
    const answers = answersFor(ORIGIN, { "/.well-known/agent-card.json": json(atJku.signed) });
    expect(followUpUrls(CHECKLIST_REQUESTS, answers)).toContain("https://keys.acme.test/jwks.json");
    answers.get.set(
      "https://keys.acme.test/jwks.json",
      answer("https://keys.acme.test/jwks.json", 200, {}, JSON.stringify({ keys: [atJku.jwk] })),
    );
    const two = await check(answers, "a2a_agent_card");
    expect(two.status, two.reason).toBe("pass");
  });

  it("warns when the card was changed after signing or the key is another's; error when the key set is undecided", async () => {
    const { signed, jwk } = await signedCard("jku");
    const other = await generateKeyPair("ES256", { extractable: true });
    for (const [card, keys] of [
      [{ ...signed, description: "Changed after signing." }, [jwk]],
      [signed, [{ ...(await exportJWK(other.publicKey)), kid: "card-key" }]],
      [signed, []],
    ] as const) {
      const result = await check(
        answersFor(ORIGIN, {
          "/.well-known/agent-card.json": json(card),
          "/.well-known/jwks.json": json({ keys }),
        }),
        "a2a_agent_card",
      );
      expect(result.status, result.reason).toBe("warn");
      expect(result.reason).toMatch(/signature does not verify/);
    }
    const undecided = answersFor(ORIGIN, { "/.well-known/agent-card.json": json(signed) });
    undecided.get.set(`${ORIGIN}/.well-known/jwks.json`, failed(`${ORIGIN}/.well-known/jwks.json`));
    const result = await check(undecided, "a2a_agent_card");
    expect(result.status, result.reason).toBe("error");
  });

  it("warns on a 1.0 interface without a protocol binding", async () => {
    const { signed } = await signedCard("jwk");
    const { signatures: _signatures, ...card } = signed;
    const unbound = { ...card, supportedInterfaces: [{ url: `${ORIGIN}/a2a` }] };
    const result = await check(answersFor(ORIGIN, { "/.well-known/agent-card.json": json(unbound) }), "a2a_agent_card");
    expect(result.status, result.reason).toBe("warn");
    expect(result.reason).toMatch(/protocolBinding/);
    expect(
      (await check(answersFor(ORIGIN, { "/.well-known/agent-card.json": json(card) }), "a2a_agent_card")).status,
    ).toBe("pass");
  });
});
