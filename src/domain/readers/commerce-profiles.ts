/**
 * The readers of the two commerce discovery documents a store serves at a well-known path:
 *
 * - the **Universal Commerce Protocol** business profile at `/.well-known/ucp` (ucp.dev, the
 *   profile schema): a `ucp` object with a `version` (a `YYYY-MM-DD` date), `services` by reverse-DNS
 *   name, each a list of transport bindings with an `endpoint` (or, in the first 2026 shape, an
 *   object of transports `rest`/`mcp`/`a2a` each with an `endpoint`), and the public keys agents
 *   verify the business's signatures with: `signing_keys` (up to 2026-04-08) or `keys` (2026-08-25),
 *   JWKs with `kid` and `kty`, beside `ucp` (or inside it). Whether each key parses as a JWK is
 *   decided by `jose` (see checklist proofs), not here.
 * - the **Agentic Commerce Protocol** discovery document at `/.well-known/acp.json` (the ACP
 *   project's rfcs/rfc.discovery.md): `protocol` {`name: "acp"`, `version`, `supported_versions`},
 *   `api_base_url`, `transports` (`rest`, `mcp`) and `capabilities.services`
 *   (`checkout`, `orders`, `delegate_payment`).
 *
 * Each returns the reading with its departures listed (`problems` make the document unusable,
 * `warnings` do not), never throwing.
 */
import { isRecord } from "../signals/blocking.ts";

/** One endpoint a UCP profile names, with where it was named. */
export interface UcpEndpoint {
  service: string;
  transport: string;
  url: string;
}

export interface UcpProfile {
  version: string | null;
  endpoints: UcpEndpoint[];
  /** The signing keys as published (objects), and the member they were found under. */
  keys: Record<string, unknown>[];
  keysField: string | null;
  problems: string[];
  warnings: string[];
}

const DATE_VERSION = /^\d{4}-\d{2}-\d{2}$/;

function isHttpsOrLocal(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "https:") return true;
    // A local test site names its own plain-HTTP endpoints.
    return parsed.protocol === "http:" && parsed.hostname === new URL(origin).hostname;
  } catch {
    return false;
  }
}

/** The transport bindings of one UCP service value (a list of bindings, or an object of transports). */
function bindingsOf(value: unknown): { transport: string; endpoint: unknown }[] {
  if (Array.isArray(value))
    return value.filter(isRecord).map((binding) => ({
      transport: typeof binding.transport === "string" ? binding.transport : "rest",
      endpoint: binding.endpoint,
    }));
  if (!isRecord(value)) return [];
  if ("endpoint" in value)
    return [{ transport: typeof value.transport === "string" ? value.transport : "rest", endpoint: value.endpoint }];
  return Object.entries(value)
    .filter(([, binding]) => isRecord(binding) && "endpoint" in binding)
    .map(([transport, binding]) => ({ transport, endpoint: (binding as Record<string, unknown>).endpoint }));
}

/** Reads a UCP business profile (the parsed JSON of `/.well-known/ucp`) for the site at `origin`. */
export function readUcpProfile(document: unknown, origin: string): UcpProfile {
  const reading: UcpProfile = { version: null, endpoints: [], keys: [], keysField: null, problems: [], warnings: [] };
  if (!isRecord(document) || !isRecord(document.ucp)) {
    reading.problems.push("has no ucp object");
    return reading;
  }
  const ucp = document.ucp;
  if (typeof ucp.version !== "string") reading.problems.push("has no ucp.version");
  else {
    reading.version = ucp.version;
    if (!DATE_VERSION.test(ucp.version)) reading.warnings.push(`ucp.version ${ucp.version} is not a YYYY-MM-DD date`);
  }
  if (!isRecord(ucp.services) || Object.keys(ucp.services).length === 0) reading.problems.push("names no services");
  else {
    for (const [service, value] of Object.entries(ucp.services)) {
      const bindings = bindingsOf(value);
      if (bindings.length === 0) reading.problems.push(`service ${service} has no transport binding`);
      for (const { transport, endpoint } of bindings) {
        if (typeof endpoint !== "string") {
          reading.problems.push(`service ${service} (${transport}) has no endpoint`);
          continue;
        }
        if (!isHttpsOrLocal(endpoint, origin))
          reading.problems.push(`service ${service} (${transport}) has an endpoint that is not https (${endpoint})`);
        reading.endpoints.push({ service, transport, url: endpoint });
      }
    }
  }
  for (const [holder, field] of [
    [document, "signing_keys"],
    [document, "keys"],
    [ucp, "signing_keys"],
    [ucp, "keys"],
  ] as const) {
    const keys = holder[field];
    if (keys === undefined) continue;
    reading.keysField = holder === ucp ? `ucp.${field}` : field;
    if (!Array.isArray(keys)) {
      reading.problems.push(`${reading.keysField} is not an array`);
      break;
    }
    for (const [i, key] of keys.entries()) {
      if (!isRecord(key)) reading.problems.push(`${reading.keysField}[${i}] is not an object`);
      else {
        if (typeof key.kid !== "string" || typeof key.kty !== "string")
          reading.problems.push(`${reading.keysField}[${i}] lacks kid or kty`);
        // Profiles publish public keys only (the profile schema): a private member is a leak.
        if ("d" in key) reading.problems.push(`${reading.keysField}[${i}] carries private key material (d)`);
        reading.keys.push(key);
      }
    }
    break;
  }
  if (reading.keysField === null) reading.warnings.push("publishes no signing keys (signing_keys)");
  return reading;
}

export interface AcpDiscovery {
  version: string | null;
  apiBaseUrl: string | null;
  transports: string[];
  services: string[];
  problems: string[];
  warnings: string[];
}

const ACP_TRANSPORTS = new Set(["rest", "mcp"]);
const ACP_SERVICES = new Set(["checkout", "orders", "delegate_payment"]);

const strings = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((each) => typeof each === "string") ? (value as string[]) : null;

/** Reads an ACP discovery document (the parsed JSON of `/.well-known/acp.json`) for the site at `origin`. */
export function readAcpDiscovery(document: unknown, origin: string): AcpDiscovery {
  const reading: AcpDiscovery = {
    version: null,
    apiBaseUrl: null,
    transports: [],
    services: [],
    problems: [],
    warnings: [],
  };
  if (!isRecord(document)) {
    reading.problems.push("is not a JSON object");
    return reading;
  }
  const protocol = isRecord(document.protocol) ? document.protocol : null;
  if (!protocol) reading.problems.push("has no protocol object");
  else {
    if (protocol.name !== "acp") reading.problems.push('has a protocol.name other than "acp"');
    if (typeof protocol.version !== "string") reading.problems.push("has no protocol.version");
    else {
      reading.version = protocol.version;
      if (!DATE_VERSION.test(protocol.version))
        reading.warnings.push(`protocol.version ${protocol.version} is not a YYYY-MM-DD date`);
    }
    const supported = strings(protocol.supported_versions);
    if (!supported) reading.warnings.push("has no protocol.supported_versions list");
    else if (reading.version && supported[supported.length - 1] !== reading.version)
      reading.warnings.push("protocol.supported_versions does not end with protocol.version");
  }
  if (typeof document.api_base_url !== "string") reading.problems.push("has no api_base_url");
  else if (!isHttpsOrLocal(document.api_base_url, origin))
    reading.problems.push(`has an api_base_url that is not https (${document.api_base_url})`);
  else reading.apiBaseUrl = document.api_base_url;
  const transports = strings(document.transports);
  if (!transports || transports.length === 0) reading.problems.push("lists no transports");
  else {
    reading.transports = transports;
    const unknown = transports.filter((each) => !ACP_TRANSPORTS.has(each));
    if (unknown.length > 0) reading.warnings.push(`lists transports ACP does not define (${unknown.join(", ")})`);
  }
  const capabilities = isRecord(document.capabilities) ? document.capabilities : null;
  const services = strings(capabilities?.services);
  if (!services || services.length === 0) reading.problems.push("lists no capabilities.services");
  else {
    reading.services = services;
    const unknown = services.filter((each) => !ACP_SERVICES.has(each));
    if (unknown.length > 0) reading.warnings.push(`lists services ACP does not define (${unknown.join(", ")})`);
  }
  return reading;
}
