/**
 * The agents family: the A2A agent card, the Agent Skills index and WebMCP tools.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { readAgentCard } from "../../readers/a2a-card.ts";
import { readSkillsIndex, type SkillEntry } from "../../readers/agent-skills.ts";
import { walkHtml } from "../../readers/html.ts";
import { isHtmlAnswer, isRecord, parseJson } from "../../signals/blocking.ts";
import type { ProbeAnswer, ProbeResponse } from "../../signals/types.ts";
import {
  evidenceOf,
  findPlaceholder,
  fixWith,
  isErrorBody,
  isPlaceholder,
  type Judge,
  type Judgement,
  linkedOutcome,
  missing,
  readJsonAnswer,
  standingOf,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import {
  answerAt,
  CHECKLIST_PATHS,
  type ChecklistAnswers,
  FOLLOW_UP_CAP,
  type ProbedAnswers,
} from "../checklist-answers.ts";
import { cardKeySetUrls } from "../checklist-proofs.ts";

const FIX = {
  a2a: fixWith(
    "Publish an A2A 1.0 agent card at /.well-known/agent-card.json.",
    '{"name": "Example Agent", "description": "What the agent does", "version": "1.0.0",\n "supportedInterfaces": [{"url": "https://example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],\n "capabilities": {"streaming": false}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],\n "skills": [{"id": "answer", "name": "Answer", "description": "Answers questions", "tags": ["support"]}]}',
  ),
  a2aSigned: fixWith(
    "Sign the agent card as A2A 1.0 section 8.4 says: a JWS (alg, kid, typ JOSE; jku naming your JWK Set) over the RFC 8785 canonical card without its signatures member, and sign again whenever the card changes.",
    '"signatures": [{"protected": "<base64url of the JWS header: alg ES256, kid card-key, typ JOSE,\n  jku https://example.com/.well-known/jwks.json>", "signature": "<base64url JWS signature>"}]',
  ),
  skills: fixWith(
    "Publish an Agent Skills index at /.well-known/agent-skills/index.json whose digests match the files they name.",
    '{"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json",\n "skills": [{"name": "example", "type": "skill-md", "description": "What the skill does",\n  "url": "/.well-known/agent-skills/example/SKILL.md", "digest": "sha256:<hex of the file>"}]}',
  ),
  webmcp: fixWith(
    "Declare WebMCP tools on your forms with the toolname and tooldescription attributes, or register them from a script with document.modelContext.registerTool() (navigator.modelContext was removed in July 2026).",
    '<form toolname="searchProducts" tooldescription="Search the catalogue by keyword." action="/search">\n  <input name="q" toolparamdescription="Words to search for">\n</form>',
  ),
} as const;

export const checkA2aAgentCard: Judge = (answers) => {
  const current = answerAt(answers, CHECKLIST_PATHS.a2aCard);
  const legacy = answerAt(answers, CHECKLIST_PATHS.a2aLegacy);
  const evidence = evidenceOf(current, legacy);
  const judgeAt = (response: ProbeResponse | undefined, path: string) => {
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") return { standing };
    const read = readJsonAnswer(standing.answer, path);
    if ("problem" in read || isErrorBody(read.document)) return { soft: true as const };
    return { card: readAgentCard(read.document), document: read.document };
  };
  for (const [response, path, isLegacy] of [
    [current, CHECKLIST_PATHS.a2aCard, false],
    [legacy, CHECKLIST_PATHS.a2aLegacy, true],
  ] as const) {
    const judged = judgeAt(response, path);
    if (!("card" in judged) || !judged.card) continue;
    const card = judged.card;
    if ("problem" in card)
      return verdict("fail", `${path} is not an A2A agent card: it ${card.problem}`, evidence, FIX.a2a);
    const placeholder = isPlaceholder(card.interfaceUrl, answers.origin)
      ? card.interfaceUrl
      : findPlaceholder(judged.document, answers.origin);
    if (placeholder)
      return verdict("fail", `${path} holds a placeholder (${placeholder.slice(0, 80)})`, evidence, FIX.a2a);
    if (isLegacy)
      return verdict(
        "warn",
        `${path} is an A2A agent card (${card.name}) at the pre-0.3 path only; move it to /.well-known/agent-card.json`,
        evidence,
        FIX.a2a,
      );
    const older = card.version === "0.3" ? " in the 0.3 shape (url instead of supportedInterfaces)" : "";
    if (older) return verdict("warn", `${path} is an A2A agent card (${card.name})${older}`, evidence, FIX.a2a);
    if (card.unbound.length > 0)
      return verdict(
        "warn",
        `${path} is an A2A agent card (${card.name}), but its interface ${card.unbound[0]} names no protocolBinding (A2A 1.0 asks one of each)`,
        evidence,
        FIX.a2a,
      );
    const described = `${path} is an A2A agent card (${card.name}) with an interface at ${card.interfaceUrl}`;
    const signed = judgeCardSignatures(answers, response as ProbeAnswer, judged.document, described, evidence);
    if (signed) return signed;
    return verdict("pass", described, evidence);
  }
  for (const response of [current, legacy]) {
    if (!response) continue;
    const standing = standingOf(response, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      return verdict(standing.kind, standing.clause, evidence, FIX.a2a);
  }
  return missing("no A2A agent card at /.well-known/agent-card.json or /.well-known/agent.json", evidence, FIX.a2a);
};

/**
 * A signed card's verdict (A2A 1.0 section 8.4: a JWS over the RFC 8785 canonical card without
 * `signatures`), from the proofs computed before judging; null for a card that carries none.
 */
function judgeCardSignatures(
  answers: ChecklistAnswers,
  response: ProbeAnswer,
  document: unknown,
  described: string,
  evidence: ReturnType<typeof evidenceOf>,
): Judgement | null {
  if (!isRecord(document) || document.signatures === undefined) return null;
  const proof = answers.proofs?.cardSignatures.get(response.url);
  const keySets = cardKeySetUrls(answers).map((url) => answers.get.get(url));
  const withKeys = evidenceOf(response, ...keySets).concat(evidence.filter((record) => record.url !== response.url));
  if (!proof) return verdict("error", `${described}; its signatures could not be checked`, withKeys, FIX.a2aSigned);
  if (proof.state === "verified")
    return verdict(
      "pass",
      `${described}, signed: the signature (kid ${proof.kid}) verifies over the canonical card (RFC 8785${proof.form === "defaults omitted" ? ", default values omitted" : ""})`,
      withKeys,
    );
  if (proof.state === "undecided")
    return verdict(
      "error",
      `${described}; whether its signature verifies could not be decided: ${proof.clause}`,
      withKeys,
      FIX.a2aSigned,
    );
  return verdict("warn", `${described}, but its signature does not verify: ${proof.clause}`, withKeys, FIX.a2aSigned);
}

/** The artifacts' digests, computed before judging (hashing is asynchronous). */
export type DigestsByUrl = Map<string, string>;

export function skillsIndexAt(
  answers: ProbedAnswers,
): { path: string; legacy: boolean; response: ProbeResponse | undefined }[] {
  return [
    { path: CHECKLIST_PATHS.skills, legacy: false, response: answerAt(answers, CHECKLIST_PATHS.skills) },
    { path: CHECKLIST_PATHS.skillsLegacy, legacy: true, response: answerAt(answers, CHECKLIST_PATHS.skillsLegacy) },
  ];
}

/** The artifact URLs of the first usable index (for the follow-ups and the digests). */
export function skillArtifactUrls(answers: ProbedAnswers): string[] {
  for (const index of skillsIndexAt(answers)) {
    const response = index.response;
    if (!response?.ok || response.status !== 200 || isHtmlAnswer(response)) continue;
    const read = readSkillsIndex(parseJson(response.body), response.finalUrl || response.url);
    if ("skills" in read && read.version === "0.2") {
      return read.skills.slice(0, FOLLOW_UP_CAP).flatMap((skill) => (skill.url ? [skill.url] : []));
    }
  }
  return [];
}

export function checkAgentSkills(answers: ChecklistAnswers, digests: DigestsByUrl): Judgement {
  const indexes = skillsIndexAt(answers);
  const evidenceBase = indexes.map((index) => index.response);
  // The first index that is a JSON answer decides; the legacy path only when the current one is not.
  for (const index of indexes) {
    const skills = readIndexAnswer(answers, index);
    if (skills) return judgeSkillsIndex(answers, digests, index, skills, evidenceBase);
  }
  return judgeNoSkillsIndex(answers, indexes, evidenceBase);
}

/** One place a skills index is looked for, with the answer there. */
type SkillsIndexAt = ReturnType<typeof skillsIndexAt>[number];

/** The index's reading as Agent Skills, or null when the answer is not a JSON document to judge. */
function readIndexAnswer(answers: ChecklistAnswers, index: SkillsIndexAt): ReturnType<typeof readSkillsIndex> | null {
  const standing = standingOf(index.response, answers);
  if (standing.kind !== "answer") return null;
  const read = readJsonAnswer(standing.answer, index.path);
  if ("problem" in read || isErrorBody(read.document)) return null;
  return readSkillsIndex(read.document, standing.answer.finalUrl || standing.answer.url);
}

/** An index's verdict: fail when it is not one, warn for the 0.1 shape, else what its digests say. */
function judgeSkillsIndex(
  answers: ChecklistAnswers,
  digests: DigestsByUrl,
  index: SkillsIndexAt,
  skills: ReturnType<typeof readSkillsIndex>,
  evidenceBase: (ProbeResponse | undefined)[],
): Judgement {
  if ("problem" in skills)
    return verdict(
      "fail",
      `${index.path} is not an Agent Skills index: it ${skills.problem}`,
      evidenceOf(...evidenceBase),
      FIX.skills,
    );
  if (skills.version === "0.1") {
    const where = index.legacy ? `${index.path} (the older path)` : index.path;
    return verdict(
      "warn",
      `${where} is an Agent Skills index of the 0.1 shape (files, no digests) with ${skills.skills.length} skills`,
      evidenceOf(...evidenceBase),
      FIX.skills,
    );
  }
  return judgeSkillDigests(answers, digests, index, skills.skills, evidenceBase);
}

/**
 * A 0.2 index's verdict from the files it names (the first FOLLOW_UP_CAP): fail on a placeholder,
 * a digest that does not match, or no file fetched; warn at the older path or when some were not.
 */
function judgeSkillDigests(
  answers: ChecklistAnswers,
  digests: DigestsByUrl,
  index: SkillsIndexAt,
  skills: SkillEntry[],
  evidenceBase: (ProbeResponse | undefined)[],
): Judgement {
  const checked = skills.filter((skill) => skill.url).slice(0, FOLLOW_UP_CAP);
  const artifactResponses = checked.map((skill) => answers.get.get(skill.url!));
  const evidence = evidenceOf(...evidenceBase, ...artifactResponses);
  const placeholder = skills.find(
    (skill) =>
      (skill.url && isPlaceholder(skill.url, answers.origin)) || (skill.digest && /<|x{8,}|0{16,}/i.test(skill.digest)),
  );
  if (placeholder)
    return verdict("fail", `${index.path} holds a placeholder for ${placeholder.name}`, evidence, FIX.skills);
  const { mismatched, unreachable } = compareDigests(checked, digests);
  if (mismatched.length > 0) {
    return verdict(
      "fail",
      `${index.path}: the digest of ${mismatched.join(", ")} does not match the file served`,
      evidence,
      FIX.skills,
    );
  }
  if (unreachable.length === checked.length) {
    // Only an answer decides: files that answered 404 (or are the catch-all) are not there; files
    // not fetched (budget, network, timeout, a 5xx) leave the digests undecided.
    const outcomes = checked.map((skill) => linkedOutcome(answers.get.get(skill.url!), answers));
    const undecided = outcomes.find((outcome) => outcome.state === "undecided");
    if (undecided && "clause" in undecided)
      return verdict(
        "error",
        `${index.path} is an Agent Skills index, but its skill files could not be checked: ${undecided.clause}`,
        evidence,
        FIX.skills,
      );
    return verdict(
      "fail",
      `${index.path}: the skill files it names are not served (${unreachable.join(", ")})`,
      evidence,
      FIX.skills,
    );
  }
  if (index.legacy || unreachable.length > 0) {
    const why = index.legacy
      ? "at the older path /.well-known/skills/index.json"
      : `but ${unreachable.join(", ")} could not be fetched`;
    return verdict(
      "warn",
      `an Agent Skills index of ${skills.length} skills whose digests match, ${why}`,
      evidence,
      FIX.skills,
    );
  }
  return verdict(
    "pass",
    `${index.path} lists ${skills.length === 1 ? "1 skill" : `${skills.length} skills`}, and the digests of the files checked match`,
    evidence,
  );
}

/** The names of the skills whose declared digest differs from the file's, and of those whose file was not fetched. */
function compareDigests(checked: SkillEntry[], digests: DigestsByUrl): { mismatched: string[]; unreachable: string[] } {
  const mismatched: string[] = [];
  const unreachable: string[] = [];
  for (const skill of checked) {
    const computed = digests.get(skill.url!);
    if (computed === undefined) {
      unreachable.push(skill.name);
      continue;
    }
    const declared = skill.digest!.toLowerCase().replace(/^sha256:/, "");
    if (declared !== computed) mismatched.push(skill.name);
  }
  return { mismatched, unreachable };
}

/** With no index to judge: blocked or error when an index path refused or failed, else missing. */
function judgeNoSkillsIndex(
  answers: ChecklistAnswers,
  indexes: SkillsIndexAt[],
  evidenceBase: (ProbeResponse | undefined)[],
): Judgement {
  for (const index of indexes) {
    if (!index.response) continue;
    const standing = standingOf(index.response, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      return verdict(standing.kind, standing.clause, evidenceOf(...evidenceBase), FIX.skills);
  }
  return missing(
    "no Agent Skills index at /.well-known/agent-skills/index.json or /.well-known/skills/index.json",
    evidenceOf(...evidenceBase),
    FIX.skills,
  );
}

/** The home page's forms declaring WebMCP tools: complete (name and description) and partial. */
export function findWebMcpForms(html: string): { complete: string[]; partial: string[] } {
  const complete: string[] = [];
  const partial: string[] = [];
  walkHtml(html, (tag) => {
    if (tag.name !== "form") return;
    const name = tag.attributes.toolname?.trim();
    const description = tag.attributes.tooldescription?.trim();
    if (name && description) complete.push(name);
    else if (name || description) partial.push(name || "(unnamed)");
  });
  return { complete, partial };
}

/**
 * The imperative API in the page's inline scripts (scripts it loads from elsewhere are not read):
 * `document.modelContext.registerTool()`, the current form, or `navigator.modelContext`, removed
 * in July 2026.
 */
export function findWebMcpScripts(html: string): { current: boolean; removed: boolean } {
  const found = { current: false, removed: false };
  walkHtml(html, (tag) => {
    if (tag.name !== "script" || !tag.content) return;
    if (/\bdocument\s*\.\s*modelContext\s*\.\s*(?:registerTool|provideContext)\s*\(/.test(tag.content))
      found.current = true;
    if (/\bnavigator\s*\.\s*modelContext\b/.test(tag.content)) found.removed = true;
  });
  return found;
}

export const checkWebMcp: Judge = (answers) => {
  const home = answerAt(answers, "/");
  const early = unanswered(home, answers, FIX.webmcp);
  if (early) return early;
  const answer = home as ProbeAnswer;
  const evidence = evidenceOf(home);
  const forms = isHtmlAnswer(answer) ? findWebMcpForms(answer.body) : { complete: [], partial: [] };
  const scripts = isHtmlAnswer(answer) ? findWebMcpScripts(answer.body) : { current: false, removed: false };
  if (forms.complete.length > 0) {
    return verdict(
      "pass",
      `the home page declares WebMCP tools on its forms (${forms.complete.slice(0, 5).join(", ")})`,
      evidence,
    );
  }
  if (forms.partial.length > 0) {
    return verdict(
      "fail",
      `the home page has a form with only one of toolname and tooldescription (${forms.partial[0]}), which registers no tool`,
      evidence,
      FIX.webmcp,
    );
  }
  if (scripts.current)
    return verdict(
      "pass",
      "the home page's own script registers WebMCP tools with document.modelContext.registerTool()",
      evidence,
    );
  if (scripts.removed)
    return verdict(
      "warn",
      "the home page's script registers tools with navigator.modelContext, the form WebMCP removed in July 2026; use document.modelContext.registerTool()",
      evidence,
      FIX.webmcp,
    );
  return missing(
    "the home page declares no WebMCP tool on a form; tools registered by a script it loads (document.modelContext.registerTool()) cannot be seen without running the page's scripts",
    evidence,
    FIX.webmcp,
  );
};
