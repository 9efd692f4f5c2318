/**
 * The checklist's cryptographic proofs, computed once per crawl before the checks are judged
 * (WebCrypto is asynchronous; the checks are pure, synchronous functions of the answers): whether
 * each JWK a UCP profile publishes parses (jose `importJWK`), and whether a signed A2A agent card's
 * JWS verifies over the canonical card (RFC 7515 flattened JWS with a detached payload, the
 * payload the RFC 8785 (JCS) canonical card without `signatures`; the key from the header's `jwk`,
 * or from the JWK Set its `jku` names, by `kid`). Nothing is fetched here: the JWK Sets were asked
 * for by the follow-ups (commerce.ts, agents.ts), through the crawl's fetcher and its budget.
 */
import canonicalize from "canonicalize";
import { base64url, flattenedVerify, importJWK, type JWK } from "jose";
import { readCardSignatures, withoutDefaults } from "../readers/a2a-card.ts";
import { readUcpProfile } from "../readers/commerce-profiles.ts";
import { isRecord, parseJson } from "../signals/blocking.ts";
import { linkedOutcome, readJsonAnswer, standingOf } from "./check-helpers.ts";
import {
  answerAt,
  type CardSignatureProof,
  CHECKLIST_PATHS,
  type ChecklistAnswers,
  type ChecklistProofs,
  type ProbedAnswers,
} from "./checklist-answers.ts";

/** JWS algorithms a key type and curve imply when the JWK names none (RFC 7518, RFC 8037). */
function algorithmFor(jwk: Record<string, unknown>): string | null {
  if (typeof jwk.alg === "string") return jwk.alg;
  if (jwk.kty === "EC") return ({ "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" } as const)[jwk.crv as "P-256"];
  if (jwk.kty === "OKP") return jwk.crv === "Ed25519" ? "EdDSA" : null;
  if (jwk.kty === "RSA") return "RS256";
  return null;
}

/** Why a JWK does not import, or null when it does (an unknown key type is not a failure: see commerce.ts). */
async function importProblem(jwk: Record<string, unknown>): Promise<string | null> {
  const known =
    (jwk.kty === "EC" && ["P-256", "P-384", "P-521"].includes(String(jwk.crv))) ||
    (jwk.kty === "OKP" && jwk.crv === "Ed25519") ||
    jwk.kty === "RSA";
  const alg = known ? algorithmFor(jwk) : null;
  if (!alg) return `a key type this checker does not verify (kty ${String(jwk.kty)}, crv ${String(jwk.crv)})`;
  try {
    await importJWK(jwk as JWK, alg);
    return null;
  } catch (error) {
    return `does not parse as a JWK (${error instanceof Error ? error.message.slice(0, 80) : "rejected"})`;
  }
}

/** The JCS of a JWK, the key of `ChecklistProofs.jwks`. */
export function jwkKey(jwk: Record<string, unknown>): string {
  return canonicalize(jwk) ?? "";
}

/** The JWK Set URLs the signed agent cards name (for the follow-ups). */
export function cardKeySetUrls(answers: ProbedAnswers): string[] {
  const urls: string[] = [];
  for (const path of [CHECKLIST_PATHS.a2aCard, CHECKLIST_PATHS.a2aLegacy]) {
    const response = answerAt(answers, path);
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") continue;
    const read = readCardSignatures(parseJson(standing.answer.body), standing.answer.finalUrl || standing.answer.url);
    if (read && "signatures" in read) for (const each of read.signatures) if (each.jku) urls.push(each.jku);
  }
  return [...new Set(urls)];
}

/** The key a signature names, from its header or from the JWK Set at its `jku`. */
function keyFor(
  signature: { jwk: Record<string, unknown> | null; jku: string | null; kid: string | null },
  answers: ChecklistAnswers,
): { key: Record<string, unknown> } | { state: "failed" | "undecided"; clause: string } {
  if (signature.jwk) return { key: signature.jwk };
  if (!signature.jku) return { state: "failed", clause: "the signature names no key (no jwk, no jku)" };
  const outcome = linkedOutcome(answers.get.get(signature.jku), answers);
  if (outcome.state !== "answer")
    return {
      state: outcome.state === "dead" ? "failed" : "undecided",
      clause: `its key set (jku) ${outcome.clause}`,
    };
  const read = readJsonAnswer(outcome.answer, signature.jku);
  const keys =
    "document" in read && isRecord(read.document) && Array.isArray(read.document.keys) ? read.document.keys : null;
  if (!keys) return { state: "failed", clause: `its key set (jku) at ${signature.jku} is not a JWK Set` };
  const match = keys.filter(isRecord).find((key) => signature.kid === null || key.kid === signature.kid);
  if (!match) return { state: "failed", clause: `its key set (jku) holds no key with kid ${signature.kid}` };
  return { key: match };
}

async function proveCard(
  document: Record<string, unknown>,
  cardUrl: string,
  answers: ChecklistAnswers,
): Promise<CardSignatureProof | null> {
  const read = readCardSignatures(document, cardUrl);
  if (!read) return null;
  if ("problem" in read) return { state: "failed", clause: `the card ${read.problem}` } as const;
  const { signatures: _signatures, ...unsigned } = document;
  const forms = [
    ["as served", canonicalize(unsigned)],
    ["defaults omitted", canonicalize(withoutDefaults(unsigned))],
  ] as const;
  let undecided: string | null = null;
  let failed: string | null = null;
  for (const signature of read.signatures) {
    const found = keyFor(signature, answers);
    if (!("key" in found)) {
      if (found.state === "undecided") undecided ??= found.clause;
      else failed ??= found.clause;
      continue;
    }
    const alg = signature.alg ?? algorithmFor(found.key);
    let key: Awaited<ReturnType<typeof importJWK>>;
    try {
      key = await importJWK(found.key as JWK, alg ?? undefined);
    } catch {
      failed ??= `its key (kid ${signature.kid}) does not parse as a JWK`;
      continue;
    }
    for (const [form, payload] of forms) {
      if (!payload) continue;
      try {
        await flattenedVerify(
          { protected: signature.protected, signature: signature.signature, payload: base64url.encode(payload) },
          key,
        );
        return { state: "verified", kid: signature.kid, form } as const;
      } catch {
        // Not over this form of the card: the other is tried, then the next signature.
      }
    }
    failed ??= `the signature (kid ${signature.kid}) does not verify over the canonical card`;
  }
  if (undecided && !failed) return { state: "undecided", clause: undecided } as const;
  return { state: "failed", clause: failed ?? undecided ?? "no signature verifies" } as const;
}

/** Computes the proofs the checks read (see the module comment). */
export async function proveChecklist(answers: ChecklistAnswers): Promise<ChecklistProofs> {
  const proofs: ChecklistProofs = { jwks: new Map(), cardSignatures: new Map() };
  const profile = answerAt(answers, CHECKLIST_PATHS.ucp);
  const standing = standingOf(profile, answers);
  if (standing.kind === "answer") {
    const reading = readUcpProfile(parseJson(standing.answer.body), answers.origin);
    for (const key of reading.keys) proofs.jwks.set(jwkKey(key), await importProblem(key));
  }
  for (const path of [CHECKLIST_PATHS.a2aCard, CHECKLIST_PATHS.a2aLegacy]) {
    const response = answerAt(answers, path);
    const card = standingOf(response, answers);
    if (card.kind !== "answer") continue;
    const document = parseJson(card.answer.body);
    if (!isRecord(document)) continue;
    const proof = await proveCard(document, card.answer.finalUrl || card.answer.url, answers);
    if (proof) proofs.cardSignatures.set(card.answer.url, proof);
  }
  return proofs;
}
