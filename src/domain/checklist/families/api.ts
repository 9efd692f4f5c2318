/**
 * The API family: the RFC 9727 API catalog, and the OpenAPI and structured-API signals mirrored.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { readApiCatalog } from "../../signals/detect-structured-api.ts";
import type { ProbeAnswer } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  isErrorBody,
  isPlaceholder,
  type Judge,
  type Linked,
  linkedOutcome,
  mirrorSignal,
  missing,
  readJsonAnswer,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS, FOLLOW_UP_CAP, type ProbedAnswers } from "../checklist-answers.ts";

const FIX = {
  apiCatalog: fixWith(
    "Publish an RFC 9727 API catalog at /.well-known/api-catalog (Content-Type: application/linkset+json) whose service-desc links resolve.",
    '{"linkset": [{"anchor": "https://example.com/api",\n  "service-desc": [{"href": "https://example.com/openapi.json", "type": "application/openapi+json"}],\n  "service-doc": [{"href": "https://example.com/docs", "type": "text/html"}]}]}',
  ),
  openapi: fixWith(
    "Publish an OpenAPI document with at least one path, at /openapi.json or named by a service-desc link.",
    '{"openapi": "3.1.0", "info": {"title": "Example API", "version": "1.0.0"},\n "paths": {"/items": {"get": {"responses": {"200": {"description": "The items"}}}}}}',
  ),
  structuredApi: fixWith(
    "Expose a machine-readable API: GraphQL at /graphql, a JSON API at /api, or APIs listed in /.well-known/api-catalog.",
  ),
} as const;

/** The service-desc and service-doc links of the API catalog, in order. */
export function apiCatalogLinks(answers: ProbedAnswers): { desc: string[]; doc: string[] } | null {
  const response = answerAt(answers, CHECKLIST_PATHS.apiCatalog);
  if (!response?.ok || response.status !== 200) return null;
  const catalog = readApiCatalog(response);
  if (!catalog) return null;
  return {
    desc: [...new Set(catalog.entries.flatMap((entry) => entry.serviceDesc))],
    doc: [...new Set(catalog.entries.flatMap((entry) => entry.serviceDoc))],
  };
}

export const checkApiCatalog: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.apiCatalog);
  const early = unanswered(response, answers, FIX.apiCatalog);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const read = readJsonAnswer(answer, "/.well-known/api-catalog");
  if ("problem" in read) return missing(read.problem, evidenceOf(response), FIX.apiCatalog);
  const links = apiCatalogLinks(answers);
  if (!links) {
    if (isErrorBody(read.document))
      return missing("/.well-known/api-catalog answered a JSON error body", evidenceOf(response), FIX.apiCatalog);
    return verdict(
      "fail",
      "/.well-known/api-catalog is JSON but not a linkset (no linkset array)",
      evidenceOf(response),
      FIX.apiCatalog,
    );
  }
  const targets = [...links.desc, ...links.doc];
  if (targets.length === 0) {
    return verdict(
      "fail",
      "the API catalog names no service-desc or service-doc link",
      evidenceOf(response),
      FIX.apiCatalog,
    );
  }
  const checked = targets.slice(0, FOLLOW_UP_CAP).map((url) => ({ url, response: answers.get.get(url) }));
  const evidence = evidenceOf(response, ...checked.map((target) => target.response));
  const placeholder = targets.find((url) => isPlaceholder(url, answers.origin));
  const outcomes = checked.map((target) => ({ ...target, linked: linkedOutcome(target.response, answers) }));
  const dead = outcomes.filter((target) => target.linked.state === "dead");
  const undecided = outcomes.filter((target) => target.linked.state === "undecided");
  if (placeholder)
    return verdict("fail", `the API catalog links to a placeholder (${placeholder})`, evidence, FIX.apiCatalog);
  // Undecided is not absent: a link not fetched, timed out or answering a 5xx decides nothing.
  if (undecided.length > 0 && dead.length + undecided.length === checked.length) {
    const first = undecided[0]!.linked as Extract<Linked, { clause: string }>;
    return verdict(
      "error",
      `whether the API catalog's links resolve could not be decided (${undecided[0]!.url}: ${first.clause})`,
      evidence,
      FIX.apiCatalog,
    );
  }
  if (dead.length === checked.length) {
    return verdict(
      "fail",
      `none of the API catalog's links that were followed resolve (${dead.map((target) => target.url).join(", ")})`,
      evidence,
      FIX.apiCatalog,
    );
  }
  if (dead.length > 0) {
    return verdict(
      "warn",
      `${dead.length} of ${checked.length} API catalog links followed do not resolve (${dead[0]!.url})`,
      evidence,
      FIX.apiCatalog,
    );
  }
  if (answer.contentType !== "application/linkset+json") {
    return verdict(
      "warn",
      `the API catalog's links resolve, but it is served as ${answer.contentType ?? "no content type"}, not application/linkset+json`,
      evidence,
      FIX.apiCatalog,
    );
  }
  return verdict(
    "pass",
    `the API catalog names ${links.desc.length} service-desc and ${links.doc.length} service-doc links, and the ones followed resolve`,
    evidence,
  );
};

export const checkOpenApi = mirrorSignal("has_openapi", FIX.openapi);
export const checkStructuredApi = mirrorSignal("has_structured_api", FIX.structuredApi);
