/**
 * The auth family: RFC 9728 protected-resource metadata and RFC 8414 / OpenID authorization
 * server metadata.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { displayUrl, isRecord, parseJson, resolveHttpUrl } from "../../signals/blocking.ts";
import type { ProbeAnswer, ProbeResponse } from "../../signals/types.ts";
import {
  answered2xx,
  evidenceOf,
  findPlaceholder,
  fixWith,
  isErrorBody,
  type Judge,
  linkedOutcome,
  missing,
  readJsonAnswer,
  standingOf,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS, type ChecklistAnswers } from "../checklist-answers.ts";

const FIX = {
  protectedResource: fixWith(
    "Publish RFC 9728 metadata at /.well-known/oauth-protected-resource naming this origin and its authorization servers.",
    '{"resource": "https://example.com", "authorization_servers": ["https://auth.example.com"],\n "bearer_methods_supported": ["header"]}',
  ),
  authorizationServer: fixWith(
    "Publish RFC 8414 metadata at /.well-known/oauth-authorization-server whose issuer is this origin, and support OAuth Client ID Metadata Documents (client_id_metadata_document_supported: true), the registration MCP clients prefer.",
    '{"issuer": "https://example.com", "authorization_endpoint": "https://example.com/authorize",\n "token_endpoint": "https://example.com/token", "response_types_supported": ["code"],\n "client_id_metadata_document_supported": true}',
  ),
} as const;

/**
 * Where the protected-resource metadata may be, in the order RFC 9728 and the MCP authorization
 * spec give: the URL the MCP endpoint's 401 names in `resource_metadata` (read first), the
 * path-suffixed well-known URL of the endpoint (`/.well-known/oauth-protected-resource/mcp`,
 * RFC 9728 section 3.1, where both official MCP SDKs publish it), then the origin's own. The
 * path-suffixed URL is looked for only beside an endpoint that showed itself (it answered as an
 * MCP server, over another transport, or asked for authorization): the detector names the
 * conventional `/mcp` even on a site with no server, and a guess there would be a blind probe
 * (docs/crawling.md, "The crawl plan").
 */
export function protectedResourceUrls(answers: ChecklistAnswers): { url: string; via: string }[] {
  const details = answers.signals.has_mcp_server.details;
  const urls: { url: string; via: string }[] = [];
  const header =
    typeof details?.resource_metadata === "string" ? resolveHttpUrl(details.resource_metadata, answers.origin) : null;
  if (header) urls.push({ url: header, via: "named by the MCP endpoint's 401 (resource_metadata)" });
  const showedItself = ["compliant", "gated", "wrong_transport"].includes(String(details?.outcome));
  const endpoint = showedItself && typeof details?.endpoint === "string" ? details.endpoint : null;
  if (endpoint) {
    try {
      const url = new URL(endpoint);
      const path = url.pathname.replace(/\/+$/, "");
      if (path)
        urls.push({ url: `${url.origin}${CHECKLIST_PATHS.protectedResource}${path}`, via: "for the MCP endpoint" });
    } catch {
      // Not a URL: only the origin's metadata is looked for.
    }
  }
  urls.push({ url: `${answers.origin}${CHECKLIST_PATHS.protectedResource}`, via: "" });
  const seen = new Set<string>();
  return urls.filter((each) => !seen.has(each.url) && seen.add(each.url));
}

/** The first protected-resource metadata answer that is a JSON document, or null. */
function protectedResourceDocument(
  answers: ChecklistAnswers,
): { url: string; via: string; response: ProbeAnswer; document: unknown } | null {
  for (const candidate of protectedResourceUrls(answers)) {
    const response = answers.get.get(candidate.url);
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") continue;
    const read = readJsonAnswer(standing.answer, candidate.url);
    if ("problem" in read || isErrorBody(read.document)) continue;
    return { ...candidate, response: standing.answer, document: read.document };
  }
  return null;
}

/** The authorization servers the protected-resource document names (for the follow-up). */
export function protectedResourceServers(answers: ChecklistAnswers): string[] {
  const found = protectedResourceDocument(answers);
  const document = found?.document;
  if (!isRecord(document) || !Array.isArray(document.authorization_servers)) return [];
  return document.authorization_servers.filter(
    (value): value is string => typeof value === "string" && resolveHttpUrl(value, answers.origin) !== null,
  );
}

/** RFC 8414 section 3: the metadata URL of an issuer (the well-known segment before its path). */
export function authorizationServerMetadataUrl(issuer: string): string | null {
  try {
    const url = new URL(issuer);
    const path = url.pathname === "/" ? "" : url.pathname.replace(/\/+$/, "");
    return `${url.origin}/.well-known/oauth-authorization-server${path}`;
  } catch {
    return null;
  }
}

/** The OpenID Connect Discovery 1.0 metadata URL of an issuer's origin, as the check reads it. */
export function openidConfigurationUrl(issuer: string): string | null {
  try {
    return `${new URL(issuer).origin}${CHECKLIST_PATHS.openidConfiguration}`;
  } catch {
    return null;
  }
}

function sameResource(resource: string, origin: string, endpoint: string | null): boolean {
  const strip = (value: string) => value.replace(/\/+$/, "");
  return strip(resource) === strip(origin) || (endpoint !== null && strip(resource) === strip(endpoint));
}

export const checkOauthProtectedResource: Judge = (answers) => {
  const found = protectedResourceDocument(answers);
  if (!found) {
    // No metadata anywhere: the origin's own answer says why (absent, blocked, error, not JSON).
    const urls = protectedResourceUrls(answers);
    const responses = urls.map((each) => answers.get.get(each.url));
    for (const [i, each] of responses.entries()) {
      const standing = standingOf(each, answers);
      if (i < responses.length - 1 && (standing.kind === "blocked" || standing.kind === "error") && each)
        return verdict(standing.kind, standing.clause, evidenceOf(...responses), FIX.protectedResource);
    }
    const root = responses[responses.length - 1];
    const early = unanswered(root, answers, FIX.protectedResource);
    if (early) return early;
    const read = readJsonAnswer(root as ProbeAnswer, "/.well-known/oauth-protected-resource");
    return missing(
      "problem" in read ? read.problem : "the metadata path answered a JSON error body",
      evidenceOf(...responses),
      FIX.protectedResource,
    );
  }
  const response = found.response;
  const where = displayUrl(found.url, answers.origin) + (found.via ? ` (${found.via})` : "");
  const read = { document: found.document };
  const document = read.document;
  if (!isRecord(document) || typeof document.resource !== "string") {
    return verdict(
      "fail",
      `${where} has no resource (RFC 9728 requires it)`,
      evidenceOf(response),
      FIX.protectedResource,
    );
  }
  const endpoint =
    typeof answers.signals.has_mcp_server.details?.endpoint === "string"
      ? answers.signals.has_mcp_server.details.endpoint
      : null;
  if (!sameResource(document.resource, answers.origin, endpoint)) {
    return verdict(
      "fail",
      `the metadata's resource is ${document.resource}, not this origin (${answers.origin})`,
      evidenceOf(response),
      FIX.protectedResource,
    );
  }
  const servers = protectedResourceServers(answers);
  if (servers.length === 0) {
    return verdict(
      "warn",
      "the protected-resource metadata names this origin but no authorization_servers",
      evidenceOf(response),
      FIX.protectedResource,
    );
  }
  const metadataUrl = authorizationServerMetadataUrl(servers[0]!);
  const serverMetadata = metadataUrl ? answers.get.get(metadataUrl) : undefined;
  const openidUrl = openidConfigurationUrl(servers[0]!);
  const openid = openidUrl ? answers.get.get(openidUrl) : undefined;
  const evidence = evidenceOf(response, serverMetadata, openid);
  const isMetadata = (candidate: ProbeResponse | undefined) =>
    answered2xx(candidate, answers) &&
    candidate?.ok === true &&
    isRecord(parseJson(candidate.body)) &&
    typeof (parseJson(candidate.body) as Record<string, unknown>).issuer === "string";
  // Undecided is not absent: an authorization server that was not reached (not fetched, the
  // budget, a timeout, a 5xx) decides nothing about it.
  const outcomes = [serverMetadata, openid].map((each) => linkedOutcome(each, answers));
  const undecided = outcomes.find((outcome) => outcome.state === "undecided");
  if (!isMetadata(serverMetadata) && !isMetadata(openid) && undecided && "clause" in undecided) {
    return verdict(
      "error",
      `whether the authorization server ${servers[0]} answers could not be decided: ${undecided.clause}`,
      evidence,
      FIX.protectedResource,
    );
  }
  if (!isMetadata(serverMetadata) && !isMetadata(openid)) {
    return verdict(
      "fail",
      `the authorization server ${servers[0]} does not answer with RFC 8414 metadata`,
      evidence,
      FIX.protectedResource,
    );
  }
  return verdict("pass", `${where} names this resource and its authorization server (${servers[0]}) answers`, evidence);
};

const AS_REQUIRED = ["authorization_endpoint", "token_endpoint", "response_types_supported"];

export const checkOauthAuthorizationServer: Judge = (answers) => {
  const candidates = [
    { path: CHECKLIST_PATHS.authorizationServer, response: answerAt(answers, CHECKLIST_PATHS.authorizationServer) },
    { path: CHECKLIST_PATHS.openidConfiguration, response: answerAt(answers, CHECKLIST_PATHS.openidConfiguration) },
  ];
  const evidence = evidenceOf(...candidates.map((candidate) => candidate.response));
  for (const { path, response } of candidates) {
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") continue;
    const read = readJsonAnswer(standing.answer, path);
    if ("problem" in read || isErrorBody(read.document)) continue;
    const document = read.document;
    if (!isRecord(document) || typeof document.issuer !== "string") {
      return verdict("fail", `${path} has no issuer`, evidence, FIX.authorizationServer);
    }
    const issuer = document.issuer.replace(/\/+$/, "");
    if (issuer !== answers.origin) {
      return verdict(
        "fail",
        `${path}'s issuer is ${document.issuer}, not this origin (${answers.origin})`,
        evidence,
        FIX.authorizationServer,
      );
    }
    const absent = AS_REQUIRED.filter((field) => document[field] === undefined);
    const implicitOnly =
      Array.isArray(document.response_types_supported) &&
      document.response_types_supported.every(
        (type) => type === "token" || type === "id_token" || type === "id_token token",
      );
    const missingFields = absent.filter((field) => !(field === "token_endpoint" && implicitOnly));
    if (missingFields.some((field) => field !== "response_types_supported")) {
      return verdict("fail", `${path} lacks ${missingFields.join(", ")}`, evidence, FIX.authorizationServer);
    }
    const placeholder = findPlaceholder(document, answers.origin);
    if (placeholder)
      return verdict(
        "fail",
        `${path} holds a placeholder (${placeholder.slice(0, 80)})`,
        evidence,
        FIX.authorizationServer,
      );
    if (missingFields.length > 0)
      return verdict(
        "warn",
        `${path} lacks response_types_supported (required by RFC 8414)`,
        evidence,
        FIX.authorizationServer,
      );
    // MCP clients now register through OAuth Client ID Metadata Documents; dynamic client
    // registration alone is the older way (draft-ietf-oauth-client-id-metadata-document).
    const cimd = document.client_id_metadata_document_supported === true;
    const dynamic = typeof document.registration_endpoint === "string";
    if (!cimd && dynamic)
      return verdict(
        "warn",
        `${path}'s issuer is this origin and its endpoints are listed, but it offers only dynamic client registration, not Client ID Metadata Documents (client_id_metadata_document_supported)`,
        evidence,
        FIX.authorizationServer,
      );
    const registration = cimd
      ? "; it supports Client ID Metadata Documents"
      : "; it does not say it supports Client ID Metadata Documents";
    return verdict(
      "pass",
      `${path}'s issuer is this origin and its authorization and token endpoints are listed${registration}`,
      evidence,
    );
  }
  for (const { response } of candidates) {
    if (!response) continue;
    const standing = standingOf(response, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      return verdict(standing.kind, standing.clause, evidence, FIX.authorizationServer);
  }
  return missing(
    "no metadata at /.well-known/oauth-authorization-server or /.well-known/openid-configuration",
    evidence,
    FIX.authorizationServer,
  );
};
