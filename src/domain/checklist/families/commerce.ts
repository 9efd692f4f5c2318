/**
 * The commerce family: the protocols agents pay and buy through. Nothing is ever paid, no
 * account registered, no POST sent: every request is a GET through the crawl's fetcher.
 * - `ap2`: the A2A agent card declares the Agent Payments Protocol extension (AP2's
 *   docs/a2a-extension.md: the extension URI `https://github.com/google-agentic-commerce/ap2/tree/v0.1`
 *   in `capabilities.extensions[]`, with `params.roles`, at least one of the AP2 roles). Read from
 *   the agent card the agents family fetched (no request of its own).
 * - `x402`, `mpp`: an endpoint the site's own documents name as paid (the home page itself, a
 *   `rel="payment"` link of it, an OpenAPI operation with a `402` response or `x-payment-info`, an
 *   ARD entry whose type or identifier names x402, MPP or payment) answers a GET with `402` and an
 *   x402 payment requirement, or an MPP `WWW-Authenticate: Payment` challenge (readers/payment-required.ts).
 * - `ucp`: `/.well-known/ucp` is a UCP business profile with https endpoints and signing keys
 *   that parse as JWKs (readers/commerce-profiles.ts; the keys by jose, checklist-proofs.ts).
 * - `acp`: `/.well-known/acp.json` is an ACP discovery document whose `api_base_url` answers.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */
import { readAcpDiscovery, readUcpProfile } from "../../readers/commerce-profiles.ts";
import { htmlLinks } from "../../readers/html.ts";
import { parseDocument, readPaidOperations } from "../../readers/openapi.ts";
import { readPaymentChallenges, readX402 } from "../../readers/payment-required.ts";
import { displayUrl, isHtmlAnswer, isRecord, isUndecidedStatus, resolveHttpUrl } from "../../signals/blocking.ts";
import type { ProbeAnswer, ProbeResponse } from "../../signals/types.ts";
import {
  evidenceOf,
  findPlaceholder,
  fixWith,
  isErrorBody,
  isPlaceholder,
  type Judge,
  type Judgement,
  missing,
  parseLinkHeader,
  readJsonAnswer,
  standingOf,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS, type ChecklistAnswers, FOLLOW_UP_CAP } from "../checklist-answers.ts";
import { jwkKey } from "../checklist-proofs.ts";
import { aiCatalogEntries } from "./ard.ts";

const FIX = {
  ap2: fixWith(
    "If your agent takes or makes payments, declare the AP2 extension in its A2A agent card's capabilities, with the roles it performs.",
    '"capabilities": {"extensions": [{"uri": "https://github.com/google-agentic-commerce/ap2/tree/v0.1",\n  "required": true, "params": {"roles": ["merchant"]}}]}',
  ),
  x402: fixWith(
    "If you sell to agents per request, answer an unpaid GET of a paid endpoint with 402 and an x402 payment requirement (the PAYMENT-REQUIRED header of x402 v2), and name the endpoint in your OpenAPI document (a 402 response).",
    'HTTP/1.1 402 Payment Required\nPAYMENT-REQUIRED: <base64 of {"x402Version": 2, "accepts": [{"scheme": "exact",\n  "network": "eip155:8453", "amount": "10000", "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",\n  "payTo": "0xYourAddress", "maxTimeoutSeconds": 60}]}>',
  ),
  mpp: fixWith(
    "If you sell to agents per request, answer an unpaid GET of a paid endpoint with 402 and a Machine Payments Protocol challenge (WWW-Authenticate: Payment with id, realm, method, intent and a base64url request), and name the endpoint in your OpenAPI document (x-payment-info or a 402 response).",
    'HTTP/1.1 402 Payment Required\nWWW-Authenticate: Payment id="kM9xPqWvT2nJrHsY4aDfEb", realm="api.example.com", method="tempo",\n  intent="charge", request="eyJhbW91bnQiOiIxMDAwIiwiY3VycmVuY3kiOiJ1c2QifQ"',
  ),
  ucp: fixWith(
    "Publish a Universal Commerce Protocol business profile at /.well-known/ucp: its version, each service with an https endpoint, and the public keys (JWK) your signatures verify with.",
    '{"ucp": {"version": "2026-04-08", "services": {"dev.ucp.shopping": [{"version": "2026-04-08",\n  "transport": "rest", "endpoint": "https://shop.example.com/ucp/v1",\n  "spec": "https://ucp.dev/2026-04-08/specification/overview"}]}},\n "signing_keys": [{"kid": "key-1", "kty": "EC", "crv": "P-256", "x": "<x>", "y": "<y>", "alg": "ES256"}]}',
  ),
  acp: fixWith(
    "Publish an Agentic Commerce Protocol discovery document at /.well-known/acp.json naming your API base (https), the protocol versions, transports and services.",
    '{"protocol": {"name": "acp", "version": "2026-01-30", "supported_versions": ["2026-01-30"]},\n "api_base_url": "https://shop.example.com/api", "transports": ["rest"],\n "capabilities": {"services": ["checkout"]}}',
  ),
} as const;

/** The AP2 extension URI's stem (versions are path segments after it). */
const AP2_URI = /^https:\/\/github\.com\/google-agentic-commerce\/ap2(?:\/|$)/i;

/** The roles of AP2's AgentCard extension parameters. */
const AP2_ROLES = new Set([
  "merchant",
  "shopper",
  "credentials-provider",
  "payment-processor",
  "micropayment-provider",
  "streaming-payment-consumer",
]);

export const checkAp2: Judge = (answers) => {
  const paths = [CHECKLIST_PATHS.a2aCard, CHECKLIST_PATHS.a2aLegacy];
  const responses: (ProbeResponse | undefined)[] = paths.map((path) => answerAt(answers, path));
  const evidence = evidenceOf(...responses);
  for (const [i, response] of responses.entries()) {
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") continue;
    const read = readJsonAnswer(standing.answer, paths[i]!);
    if ("problem" in read || isErrorBody(read.document) || !isRecord(read.document)) continue;
    const capabilities = isRecord(read.document.capabilities) ? read.document.capabilities : null;
    const extensions = Array.isArray(capabilities?.extensions) ? capabilities.extensions : [];
    const ap2 = extensions.find((each) => isRecord(each) && typeof each.uri === "string" && AP2_URI.test(each.uri));
    if (!isRecord(ap2))
      return missing(`the A2A agent card at ${paths[i]} declares no AP2 extension`, evidence, FIX.ap2);
    const params = isRecord(ap2.params) ? ap2.params : null;
    const roles = Array.isArray(params?.roles) ? params.roles.filter((role) => typeof role === "string") : [];
    const known = roles.filter((role) => AP2_ROLES.has(role));
    if (known.length === 0)
      return verdict(
        "fail",
        `the A2A agent card at ${paths[i]} declares the AP2 extension without an AP2 role (params.roles)`,
        evidence,
        FIX.ap2,
      );
    if (known.length < roles.length)
      return verdict(
        "warn",
        `the A2A agent card at ${paths[i]} declares AP2 (${known.join(", ")}) with roles AP2 does not define (${roles.filter((role) => !AP2_ROLES.has(role)).join(", ")})`,
        evidence,
        FIX.ap2,
      );
    return verdict("pass", `the A2A agent card at ${paths[i]} declares AP2 as ${known.join(", ")}`, evidence);
  }
  for (const response of responses) {
    const standing = standingOf(response, answers);
    if (response && (standing.kind === "blocked" || standing.kind === "error"))
      return verdict(standing.kind, standing.clause, evidence, FIX.ap2);
  }
  return missing("no A2A agent card, so no AP2 extension", evidence, FIX.ap2);
};

/** An endpoint the site's documents name as paid, with which document named it. */
export interface PaymentEndpoint {
  /** The URL a GET asks, or null when only a POST (or a templated path) would reach it. */
  url: string | null;
  via: string;
}

const PAYMENT_ENTRY = /x402|\bmpp\b|payment/i;

/**
 * The paid endpoints the site's own documents name, in this order: the home page when it answered
 * 402 itself, `rel="payment"` links of the home page (Link header, then HTML), the OpenAPI
 * document's paid operations, ARD entries naming a payment protocol.
 */
export function paymentEndpoints(answers: ChecklistAnswers): PaymentEndpoint[] {
  const found: PaymentEndpoint[] = [];
  const home = answerAt(answers, "/");
  if (home?.ok) {
    const base = home.finalUrl || home.url;
    if (home.status === 402) found.push({ url: home.url, via: "the home page" });
    for (const link of parseLinkHeader(home.headers.get("link"), base))
      if (link.rels.includes("payment"))
        found.push({ url: link.href, via: "the home page's Link header (rel=payment)" });
    if (isHtmlAnswer(home))
      for (const link of htmlLinks(home.body, base, resolveHttpUrl))
        if (link.rels.includes("payment")) found.push({ url: link.href, via: "the home page (rel=payment)" });
  }
  const openApiUrl = openApiDocumentUrl(answers);
  const document = openApiUrl ? answers.get.get(openApiUrl) : undefined;
  if (openApiUrl && document?.ok && document.status === 200)
    for (const operation of readPaidOperations(parseDocument(document.body), document.finalUrl || openApiUrl))
      found.push({
        url: operation.url,
        via: `the OpenAPI document (${operation.method.toUpperCase()} ${operation.path}, ${operation.marker})`,
      });
  for (const entry of aiCatalogEntries(answers))
    if (entry.url && PAYMENT_ENTRY.test(`${entry.type} ${entry.identifier}`))
      found.push({ url: entry.url, via: `the ARD manifest (${entry.identifier || entry.type})` });
  const seen = new Set<string>();
  return found.filter((each) => {
    if (each.url && isPlaceholder(each.url, answers.origin)) return false;
    const key = each.url ?? each.via;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** The OpenAPI document the has_openapi signal found, if any. */
export function openApiDocumentUrl(answers: ChecklistAnswers): string | null {
  const url = answers.signals.has_openapi.details?.url;
  return answers.signals.has_openapi.status === "present" && typeof url === "string" ? url : null;
}

/** The GETs x402 and mpp ask (each check's share capped), for the follow-ups. */
export function paymentEndpointUrls(answers: ChecklistAnswers): string[] {
  return paymentEndpoints(answers)
    .flatMap((each) => (each.url ? [each.url] : []))
    .slice(0, FOLLOW_UP_CAP);
}

/** What a paid endpoint's answer says for one protocol. */
type PaymentOutcome =
  | { kind: "pass" | "warn" | "fail"; clause: string }
  | { kind: "none" | "blocked" | "undecided"; clause: string };

type ReadPayment = (answer: ProbeAnswer, where: string) => PaymentOutcome;

const readX402Answer: ReadPayment = (answer, where) => {
  const reading = readX402(answer);
  if (!reading) return { kind: "none", clause: `${where} answered 402 without an x402 payment requirement` };
  if ("problem" in reading)
    return {
      kind: "fail",
      clause: `${where} answered 402, but its x402 payment requirement (${reading.where}) ${reading.problem}`,
    };
  const first = reading.options[0]!;
  const offer = `${first.scheme} on ${first.network}: ${first.amount} of ${first.asset.slice(0, 42)} to ${first.payTo.slice(0, 42)}`;
  const others = reading.options.length > 1 ? ` (and ${reading.options.length - 1} more options)` : "";
  return {
    kind: "pass",
    clause: `${where} answers 402 with an x402 v${reading.version} payment requirement in its ${reading.where} (${offer})${others}`,
  };
};

const readMppAnswer: ReadPayment = (answer, where) => {
  const challenges = readPaymentChallenges(answer);
  if (challenges.length === 0)
    return { kind: "none", clause: `${where} answered 402 without a WWW-Authenticate: Payment challenge` };
  const usable = challenges.filter((challenge) => challenge.problems.length === 0);
  if (usable.length === 0)
    return {
      kind: "fail",
      clause: `${where} answered 402 with a Payment challenge that has ${challenges[0]!.problems.join(", ")}`,
    };
  const offers = usable.map((challenge) => `${challenge.method} ${challenge.intent}`).join(", ");
  const warned = usable.find((challenge) => challenge.warnings.length > 0);
  if (warned)
    return {
      kind: "warn",
      clause: `${where} answers 402 with Payment challenges (${offers}), one with ${warned.warnings[0]}`,
    };
  return { kind: "pass", clause: `${where} answers 402 with MPP Payment challenges (${offers})` };
};

/** What one named endpoint's answer says, for the protocol `read` reads. */
function paymentOutcome(answers: ChecklistAnswers, url: string, read: ReadPayment): PaymentOutcome {
  const response = answers.get.get(url);
  const where = displayUrl(url, answers.origin);
  if (!response) return { kind: "undecided", clause: `${where} was not fetched` };
  if (response.ok && response.status === 402) return read(response, where);
  const standing = standingOf(response, answers);
  if (standing.kind === "blocked") return { kind: "blocked", clause: standing.clause };
  if (standing.kind === "error") return { kind: "undecided", clause: standing.clause };
  return { kind: "none", clause: `${where} answered ${response.ok ? response.status : "nothing"}, not 402` };
}

const OUTCOME_ORDER: readonly PaymentOutcome["kind"][] = ["pass", "warn", "fail", "undecided", "blocked", "none"];

function judgePayment(answers: ChecklistAnswers, read: ReadPayment, protocol: string, fix: string): Judgement {
  const endpoints = paymentEndpoints(answers);
  const asked = endpoints.filter((each) => each.url).slice(0, FOLLOW_UP_CAP);
  const evidence = evidenceOf(answerAt(answers, "/"), ...asked.map((each) => answers.get.get(each.url!)));
  if (asked.length === 0) {
    // Nothing to ask: a site that refused the crawler is blocked here too, as every check says.
    const home = answerAt(answers, "/");
    const standing = standingOf(home, answers);
    if (standing.kind === "blocked") return verdict("blocked", standing.clause, evidence, fix);
    const postOnly =
      endpoints.length > 0
        ? ` (${endpoints[0]!.via} names one only a POST or a templated path reaches, and a crawl never sends those)`
        : "";
    return missing(
      `no endpoint the site's documents name (the home page, its OpenAPI document, its ARD manifest) could be asked for an unpaid ${protocol} answer${postOnly}`,
      evidence,
      fix,
    );
  }
  const outcomes = asked.map((each) => ({ each, outcome: paymentOutcome(answers, each.url!, read) }));
  outcomes.sort((a, b) => OUTCOME_ORDER.indexOf(a.outcome.kind) - OUTCOME_ORDER.indexOf(b.outcome.kind));
  const { each, outcome } = outcomes[0]!;
  const named = ` (named by ${each.via})`;
  switch (outcome.kind) {
    case "pass":
    case "warn":
    case "fail":
      return verdict(outcome.kind, `${outcome.clause}${named}; nothing was paid`, evidence, fix);
    case "undecided":
      return verdict(
        "error",
        `whether ${protocol} is offered could not be decided: ${outcome.clause}${named}`,
        evidence,
        fix,
      );
    case "blocked":
      return verdict("blocked", `${outcome.clause}${named}`, evidence, fix);
    case "none":
      return missing(
        outcomes.map((one) => `${one.outcome.clause} (named by ${one.each.via})`).join("; "),
        evidence,
        fix,
      );
  }
}

export const checkX402: Judge = (answers) => judgePayment(answers, readX402Answer, "x402", FIX.x402);

export const checkMpp: Judge = (answers) => judgePayment(answers, readMppAnswer, "MPP", FIX.mpp);

/** A JSON document at a well-known path, or the judgement when there is none to read. */
function wellKnownDocument(
  answers: ChecklistAnswers,
  path: string,
  fix: string,
): { response: ProbeAnswer; document: unknown } | Judgement {
  const response = answerAt(answers, path);
  const early = unanswered(response, answers, fix);
  if (early) return early;
  const read = readJsonAnswer(response as ProbeAnswer, path);
  if ("problem" in read) return missing(read.problem, evidenceOf(response), fix);
  if (isErrorBody(read.document)) return missing(`${path} answered a JSON error body`, evidenceOf(response), fix);
  return { response: response as ProbeAnswer, document: read.document };
}

export const checkUcp: Judge = (answers) => {
  const found = wellKnownDocument(answers, CHECKLIST_PATHS.ucp, FIX.ucp);
  if (!("document" in found)) return found;
  const where = CHECKLIST_PATHS.ucp;
  const evidence = evidenceOf(found.response);
  const profile = readUcpProfile(found.document, answers.origin);
  if (profile.problems.length > 0)
    return verdict(
      "fail",
      `${where} is not a usable UCP profile: it ${profile.problems.slice(0, 3).join("; ")}`,
      evidence,
      FIX.ucp,
    );
  const placeholder = findPlaceholder(found.document, answers.origin);
  if (placeholder)
    return verdict("fail", `${where} holds a placeholder (${placeholder.slice(0, 80)})`, evidence, FIX.ucp);
  const warnings = [...profile.warnings];
  for (const [i, key] of profile.keys.entries()) {
    const proof = answers.proofs?.jwks.get(jwkKey(key));
    const label = `${profile.keysField}[${i}] (kid ${String(key.kid)})`;
    if (proof === undefined) return verdict("error", `${label} could not be checked`, evidence, FIX.ucp);
    if (proof === null) continue;
    // UCP: verifiers tolerate key types they do not know; a known type that does not import is broken.
    if (proof.startsWith("a key type")) warnings.push(`${label} is ${proof}`);
    else return verdict("fail", `${where}: ${label} ${proof}`, evidence, FIX.ucp);
  }
  const summary = `a UCP profile (version ${profile.version}) with ${profile.endpoints.length === 1 ? "1 endpoint" : `${profile.endpoints.length} endpoints`} and ${profile.keys.length === 1 ? "1 signing key" : `${profile.keys.length} signing keys`}`;
  if (warnings.length > 0)
    return verdict("warn", `${where} is ${summary}, but ${warnings.join("; ")}`, evidence, FIX.ucp);
  return verdict("pass", `${where} is ${summary} that parse as JWKs`, evidence);
};

/** The API base an ACP discovery document names (for the follow-ups). */
export function acpApiBase(answers: ChecklistAnswers): string | null {
  const found = wellKnownDocument(answers, CHECKLIST_PATHS.acp, FIX.acp);
  if (!("document" in found)) return null;
  const base = readAcpDiscovery(found.document, answers.origin).apiBaseUrl;
  return base && !isPlaceholder(base, answers.origin) ? base : null;
}

export const checkAcp: Judge = (answers) => {
  const found = wellKnownDocument(answers, CHECKLIST_PATHS.acp, FIX.acp);
  if (!("document" in found)) return found;
  const where = CHECKLIST_PATHS.acp;
  const discovery = readAcpDiscovery(found.document, answers.origin);
  if (discovery.problems.length > 0)
    return verdict(
      "fail",
      `${where} is not a usable ACP discovery document: it ${discovery.problems.slice(0, 3).join("; ")}`,
      evidenceOf(found.response),
      FIX.acp,
    );
  const base = discovery.apiBaseUrl!;
  if (isPlaceholder(base, answers.origin))
    return verdict(
      "fail",
      `${where} names a placeholder API base (${base.slice(0, 80)})`,
      evidenceOf(found.response),
      FIX.acp,
    );
  const api = answers.get.get(base);
  const evidence = evidenceOf(found.response, api);
  // The base answers when any HTTP answer comes back (an API base often answers 404 or 401 to a
  // bare GET); only a name that does not resolve settles that it does not; anything else is undecided.
  if (!api)
    return verdict(
      "error",
      `whether the ACP API base ${base} answers could not be decided: it was not fetched`,
      evidence,
      FIX.acp,
    );
  if (!api.ok) {
    if (api.unresolvedHost)
      return verdict("fail", `the ACP API base ${base} does not resolve (${api.unresolvedHost})`, evidence, FIX.acp);
    return verdict(
      "error",
      `whether the ACP API base ${base} answers could not be decided: ${api.message}`,
      evidence,
      FIX.acp,
    );
  }
  if (isUndecidedStatus(api.status))
    return verdict(
      "error",
      `whether the ACP API base ${base} answers could not be decided: it answered ${api.status}`,
      evidence,
      FIX.acp,
    );
  const summary = `an ACP discovery document (version ${discovery.version}, ${discovery.services.join(", ")} over ${discovery.transports.join(", ")}) whose API base ${displayUrl(base, answers.origin)} answers (${api.status})`;
  if (discovery.warnings.length > 0)
    return verdict("warn", `${where} is ${summary}, but ${discovery.warnings.join("; ")}`, evidence, FIX.acp);
  return verdict("pass", `${where} is ${summary}`, evidence);
};
