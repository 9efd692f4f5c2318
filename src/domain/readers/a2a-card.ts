/**
 * The A2A agent card reader (A2A protocol 1.0, AgentCard; the 0.3 shape with a top-level `url`):
 * name, description, skills as an array, capabilities as an object, and an interface URL.
 */
import { isRecord } from "../signals/blocking.ts";

/** One skill of an agent card (AgentSkill: id, name, description, tags), as far as it names itself. */
export interface AgentCardSkill {
  name: string;
  description: string | null;
  tags: string[];
}

/** A document read as an A2A agent card. */
export interface AgentCardReading {
  name: string;
  description: string;
  interfaceUrl: string;
  version: "1.0" | "0.3";
  /** The 1.0 interfaces that name no `protocolBinding` (each should: JSONRPC, GRPC, HTTP+JSON…). */
  unbound: string[];
  /** The skills with a name (or else an id), in order, at most AGENT_CARD_SKILLS_KEPT. */
  skills: AgentCardSkill[];
}

/** At most this many skills of a card are read. */
export const AGENT_CARD_SKILLS_KEPT = 64;

function readSkills(skills: unknown[]): AgentCardSkill[] {
  const read: AgentCardSkill[] = [];
  for (const skill of skills.slice(0, AGENT_CARD_SKILLS_KEPT)) {
    if (!isRecord(skill)) continue;
    const name = typeof skill.name === "string" && skill.name.trim() ? skill.name : skill.id;
    if (typeof name !== "string" || !name.trim()) continue;
    const tags = Array.isArray(skill.tags) ? skill.tags.filter((tag): tag is string => typeof tag === "string") : [];
    const description = typeof skill.description === "string" && skill.description.trim() ? skill.description : null;
    read.push({ name, description, tags });
  }
  return read;
}

/** How a document reads as an A2A agent card, or a problem. */
export function readAgentCard(document: unknown): AgentCardReading | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  if (typeof document.name !== "string" || !document.name.trim()) return { problem: "has no name" };
  if (typeof document.description !== "string") return { problem: "has no description" };
  if (!Array.isArray(document.skills)) return { problem: "has no skills array" };
  if (!isRecord(document.capabilities)) return { problem: "has no capabilities object" };
  const interfaces = Array.isArray(document.supportedInterfaces) ? document.supportedInterfaces : [];
  const fromInterfaces = interfaces.find((item) => isRecord(item) && typeof item.url === "string");
  const read = { name: document.name, description: document.description, skills: readSkills(document.skills) };
  if (fromInterfaces && isRecord(fromInterfaces)) {
    const unbound = interfaces
      .filter((item) => isRecord(item) && typeof item.url === "string")
      .filter((item) => typeof item.protocolBinding !== "string" || !item.protocolBinding.trim())
      .map((item) => item.url as string);
    return { ...read, interfaceUrl: fromInterfaces.url as string, version: "1.0", unbound };
  }
  if (typeof document.url === "string") return { ...read, interfaceUrl: document.url, version: "0.3", unbound: [] };
  return { problem: "names no interface URL (supportedInterfaces[].url or url)" };
}

/** One JWS of a signed card's `signatures` (A2A 1.0, section 8.4: flattened JWS, detached payload). */
export interface CardSignature {
  /** The base64url protected header, as given. */
  protected: string;
  signature: string;
  /** The protected header decoded, merged over the unprotected `header`. */
  header: Record<string, unknown>;
  /** The JWK Set URL (`jku`) naming the key, resolved against the card's URL. */
  jku: string | null;
  kid: string | null;
  alg: string | null;
  /** A key carried in the header itself (`jwk`). */
  jwk: Record<string, unknown> | null;
}

function decodeBase64UrlJson(text: string): unknown {
  try {
    const compact = text.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(compact.padEnd(compact.length + ((4 - (compact.length % 4)) % 4), "="));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
  } catch {
    return undefined;
  }
}

/**
 * The signatures of a card: null when it carries none, else each JWS read, or a problem when the
 * `signatures` member is not a list of `{protected, signature}` whose protected header decodes.
 */
export function readCardSignatures(
  document: unknown,
  cardUrl: string,
): { signatures: CardSignature[] } | { problem: string } | null {
  if (!isRecord(document) || document.signatures === undefined) return null;
  if (!Array.isArray(document.signatures) || document.signatures.length === 0)
    return { problem: "has a signatures member that is not a list of JWS objects" };
  const signatures: CardSignature[] = [];
  for (const [i, each] of document.signatures.entries()) {
    if (!isRecord(each) || typeof each.protected !== "string" || typeof each.signature !== "string")
      return { problem: `has signatures[${i}] without protected and signature` };
    const decoded = decodeBase64UrlJson(each.protected);
    if (!isRecord(decoded)) return { problem: `has signatures[${i}] whose protected header is not base64url JSON` };
    const header = { ...(isRecord(each.header) ? each.header : {}), ...decoded };
    let jku: string | null = null;
    if (typeof header.jku === "string") {
      try {
        jku = new URL(header.jku, cardUrl).href;
      } catch {
        jku = null;
      }
    }
    signatures.push({
      protected: each.protected,
      signature: each.signature,
      header,
      jku,
      kid: typeof header.kid === "string" ? header.kid : null,
      alg: typeof header.alg === "string" ? header.alg : null,
      jwk: isRecord(header.jwk) ? header.jwk : null,
    });
  }
  return { signatures };
}

/**
 * The members of a card left when the default values of its schema are dropped (false, 0, "",
 * empty lists and objects), recursively: the protobuf JSON form the A2A SDKs canonicalize before
 * signing (A2A 1.0 section 8.4.1 asks that fields not set be omitted; the JS SDK's
 * `canonicalizeAgentCard` round-trips the card through its protobuf type, which drops defaults).
 */
export function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (!isRecord(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const reduced = withoutDefaults(member);
    const empty =
      reduced === false ||
      reduced === 0 ||
      reduced === "" ||
      reduced === null ||
      (Array.isArray(reduced) && reduced.length === 0) ||
      (isRecord(reduced) && Object.keys(reduced).length === 0);
    if (!empty) kept[key] = reduced;
  }
  return kept;
}
