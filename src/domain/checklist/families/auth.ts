/**
 * The auth family: RFC 9728 protected-resource metadata and RFC 8414 / OpenID authorization
 * server metadata.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { isHtmlAnswer, isRecord, parseJson, resolveHttpUrl } from "../../signals/blocking.ts";
import type { ProbeAnswer, ProbeResponse } from "../../signals/types.ts";
import {
  answered2xx,
  evidenceOf,
  findPlaceholder,
  fixWith,
  isErrorBody,
  type Judge,
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
    "Publish RFC 8414 metadata at /.well-known/oauth-authorization-server whose issuer is this origin.",
    '{"issuer": "https://example.com", "authorization_endpoint": "https://example.com/authorize",\n "token_endpoint": "https://example.com/token", "response_types_supported": ["code"]}',
  ),
} as const;

/** The authorization servers a protected-resource document names (for the follow-up). */
export function protectedResourceServers(answers: ChecklistAnswers): string[] {
  const response = answerAt(answers, CHECKLIST_PATHS.protectedResource);
  if (!response?.ok || response.status !== 200 || isHtmlAnswer(response)) return [];
  const document = parseJson(response.body);
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

function sameResource(resource: string, origin: string, endpoint: string | null): boolean {
  const strip = (value: string) => value.replace(/\/+$/, "");
  return strip(resource) === strip(origin) || (endpoint !== null && strip(resource) === strip(endpoint));
}

export const checkOauthProtectedResource: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.protectedResource);
  const early = unanswered(response, answers, FIX.protectedResource);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const read = readJsonAnswer(answer, "/.well-known/oauth-protected-resource");
  if ("problem" in read) return missing(read.problem, evidenceOf(response), FIX.protectedResource);
  if (isErrorBody(read.document))
    return missing("the metadata path answered a JSON error body", evidenceOf(response), FIX.protectedResource);
  const document = read.document;
  if (!isRecord(document) || typeof document.resource !== "string") {
    return verdict(
      "fail",
      "/.well-known/oauth-protected-resource has no resource (RFC 9728 requires it)",
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
  const openid = metadataUrl
    ? answers.get.get(`${new URL(servers[0]!).origin}/.well-known/openid-configuration`)
    : undefined;
  const evidence = evidenceOf(response, serverMetadata);
  const isMetadata = (candidate: ProbeResponse | undefined) =>
    answered2xx(candidate, answers) &&
    candidate?.ok === true &&
    isRecord(parseJson(candidate.body)) &&
    typeof (parseJson(candidate.body) as Record<string, unknown>).issuer === "string";
  if (!isMetadata(serverMetadata) && !isMetadata(openid)) {
    return verdict(
      "fail",
      `the authorization server ${servers[0]} does not answer with RFC 8414 metadata`,
      evidence,
      FIX.protectedResource,
    );
  }
  return verdict(
    "pass",
    `the protected-resource metadata names this origin and its authorization server (${servers[0]}) answers`,
    evidence,
  );
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
    return verdict(
      "pass",
      `${path}'s issuer is this origin and its authorization and token endpoints are listed`,
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
