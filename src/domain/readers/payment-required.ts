/**
 * The reader of a `402 Payment Required` answer, for the two payment protocols agents meet on it:
 *
 * - **x402** (x402 Foundation, specs/transports-v1/http.md and transports-v2/http.md): v1 puts a
 *   `PaymentRequirementsResponse` in the JSON body (`x402Version: 1`, `accepts[]` of `scheme`,
 *   `network`, `maxAmountRequired`, `asset`, `payTo`); v2 puts a `PaymentRequired` object in the
 *   `PAYMENT-REQUIRED` header as base64 of its JSON (`x402Version: 2`, `accepts[]` with `amount`
 *   instead of `maxAmountRequired`). The header is read first (it is v2's canonical place), then the
 *   body, as the reference clients do.
 * - **MPP**, the Machine Payments Protocol (draft-httpauth-payment, the "Payment" HTTP
 *   authentication scheme): one `WWW-Authenticate: Payment` challenge per payment offer, with the
 *   auth-params `id` (non-empty), `realm`, `method` (lower-case), `intent` and `request` (base64url
 *   of a JSON object); `expires` (RFC 3339) is optional.
 *
 * `WWW-Authenticate` is read by the small RFC 9110 section 11 challenge parser below: no
 * maintained parser of auth challenges is among the project's dependencies, and the grammar
 * (schemes, token68, auth-params with quoted strings, challenges and params both separated by
 * commas) is small. Nothing here pays: the reader only reads what a server asked for.
 */
import { isRecord, parseJson } from "../signals/blocking.ts";
import type { ProbeAnswer } from "../signals/types.ts";

/** One payment option of an x402 payment requirement, as read. */
export interface X402Option {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
}

/** An x402 payment requirement read from a 402, or the departures that make it unusable. */
export type X402Reading =
  | { version: number; where: "PAYMENT-REQUIRED header" | "body"; options: X402Option[] }
  | { where: "PAYMENT-REQUIRED header" | "body"; problem: string };

/** One HTTP authentication challenge (RFC 9110 section 11.3). */
export interface AuthChallenge {
  scheme: string;
  /** Auth-params by lower-case name (values unquoted). */
  params: Record<string, string>;
  token68?: string;
}

/** One MPP `Payment` challenge as read, with its problems (empty when usable) and warnings. */
export interface PaymentChallenge {
  id: string | null;
  method: string | null;
  intent: string | null;
  request: Record<string, unknown> | null;
  problems: string[];
  warnings: string[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/**
 * Parses a `WWW-Authenticate` field value (several fields arrive joined by ", ") into its
 * challenges. A malformed remainder ends the parse: what was read before it is kept.
 */
export function parseAuthChallenges(value: string | null | undefined): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let rest = value ?? "";
  const skip = (pattern: RegExp) => {
    rest = rest.replace(pattern, "");
  };
  while (rest.trim()) {
    skip(/^[\s,]+/);
    const scheme = TOKEN.exec(rest)?.[0];
    if (!scheme) break;
    rest = rest.slice(scheme.length);
    const challenge: AuthChallenge = { scheme, params: {} };
    challenges.push(challenge);
    skip(/^[ \t]+/);
    const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(?:,|$))/.exec(rest);
    if (token68 && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*=[^=]/.test(rest)) {
      challenge.token68 = token68[0];
      rest = rest.slice(token68[0].length);
      continue;
    }
    // Auth-params until the next token not followed by "=" (the next challenge's scheme).
    while (true) {
      skip(/^[\s,]+/);
      const name = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*/.exec(rest);
      if (!name) break;
      rest = rest.slice(name[0].length);
      let paramValue: string;
      if (rest.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (!quoted) return challenges;
        paramValue = quoted[1]!.replace(/\\(.)/g, "$1");
        rest = rest.slice(quoted[0].length);
      } else {
        const token = TOKEN.exec(rest)?.[0] ?? "";
        paramValue = token;
        rest = rest.slice(token.length);
      }
      challenge.params[name[1]!.toLowerCase()] = paramValue;
    }
  }
  return challenges;
}

/** Decodes base64 or base64url text to UTF-8, or null when it is neither. */
function decodeBase64(text: string): string | null {
  const compact = text.trim().replace(/-/g, "+").replace(/_/g, "/");
  if (!compact || !/^[A-Za-z0-9+/]+=*$/.test(compact)) return null;
  try {
    const padded = compact.padEnd(compact.length + ((4 - (compact.length % 4)) % 4), "=");
    const binary = atob(padded);
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
  } catch {
    return null;
  }
}

const OPTION_FIELDS = ["scheme", "network", "asset", "payTo"] as const;

/** Reads an x402 `accepts[]` list; the amount is `amount` (v2) or `maxAmountRequired` (v1). */
function readOptions(document: Record<string, unknown>): X402Option[] | string {
  if (!Array.isArray(document.accepts)) return "has no accepts array";
  if (document.accepts.length === 0) return "offers no payment option (accepts is empty)";
  const options: X402Option[] = [];
  for (const [i, each] of document.accepts.entries()) {
    if (!isRecord(each)) return `accepts[${i}] is not an object`;
    const absent: string[] = OPTION_FIELDS.filter(
      (field) => typeof each[field] !== "string" || !(each[field] as string).trim(),
    );
    const amount = each.amount ?? each.maxAmountRequired;
    const amountText = typeof amount === "string" || typeof amount === "number" ? String(amount) : "";
    if (!/^\d+$/.test(amountText)) absent.push("amount");
    if (absent.length > 0) return `accepts[${i}] lacks ${absent.join(", ")}`;
    options.push({
      scheme: each.scheme as string,
      network: each.network as string,
      amount: amountText,
      asset: each.asset as string,
      payTo: each.payTo as string,
    });
  }
  return options;
}

function readRequirement(document: unknown, where: "PAYMENT-REQUIRED header" | "body"): X402Reading | null {
  if (!isRecord(document)) return where === "body" ? null : { where, problem: "is not a JSON object" };
  const declared = typeof document.x402Version === "number" ? document.x402Version : null;
  // A body is x402 only when it says so (x402Version) or carries the accepts list.
  if (where === "body" && declared === null && !Array.isArray(document.accepts)) return null;
  if (declared === null) return { where, problem: "has no x402Version" };
  const options = readOptions(document);
  if (typeof options === "string") return { where, problem: options };
  return { version: declared, where, options };
}

/** The x402 payment requirement of a 402 answer, or null when it carries none. */
export function readX402(answer: ProbeAnswer): X402Reading | null {
  const header = answer.headers.get("payment-required");
  if (header !== null) {
    const decoded = decodeBase64(header);
    if (decoded === null) return { where: "PAYMENT-REQUIRED header", problem: "is not base64" };
    const document = parseJson(decoded);
    if (document === undefined) return { where: "PAYMENT-REQUIRED header", problem: "is not base64 of JSON" };
    return readRequirement(document, "PAYMENT-REQUIRED header");
  }
  return readRequirement(parseJson(answer.body), "body");
}

/** The MPP `Payment` challenges of a 402 answer (empty when it offers none). */
export function readPaymentChallenges(answer: ProbeAnswer): PaymentChallenge[] {
  return parseAuthChallenges(answer.headers.get("www-authenticate"))
    .filter((challenge) => challenge.scheme.toLowerCase() === "payment")
    .map((challenge) => {
      const { params } = challenge;
      const problems: string[] = [];
      const warnings: string[] = [];
      for (const name of ["id", "realm", "method", "intent", "request"])
        if (!params[name]?.trim()) problems.push(`no ${name}`);
      if (params.method && !/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/.test(params.method))
        problems.push(`a method that is not a lower-case identifier (${params.method.slice(0, 40)})`);
      let request: Record<string, unknown> | null = null;
      if (params.request) {
        const decoded = decodeBase64(params.request);
        const document = decoded === null ? undefined : parseJson(decoded);
        if (isRecord(document)) request = document;
        else problems.push("a request that is not base64url of a JSON object");
      }
      if (request && params.intent === "charge" && (request.amount === undefined || request.currency === undefined))
        problems.push("a charge request without amount and currency");
      if (params.expires !== undefined && Number.isNaN(Date.parse(params.expires)))
        warnings.push(`an expires that is not an RFC 3339 time (${params.expires.slice(0, 40)})`);
      return {
        id: params.id ?? null,
        method: params.method ?? null,
        intent: params.intent ?? null,
        request,
        problems,
        warnings,
      };
    });
}
