/**
 * The bot-access family: AI crawler rules, Content Signals and AIPREF Content-Usage (all read
 * through the robots.txt reader), and the Web Bot Auth key directory.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { parseDictionary } from "structured-headers";
import { isRecord } from "../../signals/blocking.ts";
import type { ProbeAnswer } from "../../signals/types.ts";
import {
  evidenceOf,
  findPlaceholder,
  fixWith,
  isErrorBody,
  type Judge,
  mirrorSignal,
  missing,
  readJsonAnswer,
  robotsReading,
  standingOf,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS } from "../checklist-answers.ts";

const FIX = {
  aiRules: fixWith(
    "Say in robots.txt what AI crawlers may do: name them, or add a Content-Signal line.",
    "User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /",
  ),
  contentSignals: fixWith(
    "Add a Content-Signal line to robots.txt using only search, ai-input and ai-train, each yes or no.",
    "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /",
  ),
  contentUsage: fixWith(
    "State your AI usage preferences with an AIPREF Content-Usage rule in robots.txt (or a Content-Usage HTTP header): a structured-field dictionary.",
    "User-agent: *\nContent-Usage: train-ai=n\nAllow: /",
  ),
  webBotAuth: fixWith(
    "If your site runs bots, publish their signing keys as a JWKS at /.well-known/http-message-signatures-directory with Content-Type: application/http-message-signatures-directory+json.",
    '{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "<base64url public key>"}]}',
  ),
} as const;

export const checkAiBotRules = mirrorSignal("has_robots_ai", FIX.aiRules);

const CONTENT_SIGNAL_KEYS = ["search", "ai-input", "ai-train"];

export const checkContentSignals: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.robots);
  const early = unanswered(response, answers, FIX.contentSignals);
  if (early) return early;
  const evidence = evidenceOf(response);
  const robots = robotsReading(answers);
  if (robots === null)
    return missing(
      "/robots.txt answered with an HTML page, so it holds no Content-Signal line",
      evidence,
      FIX.contentSignals,
    );
  const pairs = robots.signalPairs;
  if (pairs.length === 0) return missing("/robots.txt has no Content-Signal line", evidence, FIX.contentSignals);
  const unknown = pairs.filter(([key]) => !CONTENT_SIGNAL_KEYS.includes(key)).map(([key]) => key);
  const badValues = pairs.filter(
    ([key, value]) => CONTENT_SIGNAL_KEYS.includes(key) && value !== "yes" && value !== "no",
  );
  const known = pairs.filter(
    ([key, value]) => CONTENT_SIGNAL_KEYS.includes(key) && (value === "yes" || value === "no"),
  );
  if (known.length === 0) {
    return verdict(
      "fail",
      `/robots.txt's Content-Signal lines use no defined signal with yes or no (${pairs.map(([k, v]) => `${k}=${v}`).join(", ")})`,
      evidence,
      FIX.contentSignals,
    );
  }
  // A signal repeated on several lines is named once.
  const shown = [...new Set(known.map(([key, value]) => `${key}=${value}`))].join(", ");
  if (unknown.length > 0 || badValues.length > 0) {
    const problems = [
      ...(unknown.length > 0 ? [`unknown keys ${[...new Set(unknown)].join(", ")}`] : []),
      ...(badValues.length > 0
        ? [`values other than yes/no for ${[...new Set(badValues.map(([key]) => key))].join(", ")}`]
        : []),
    ];
    return verdict(
      "warn",
      `/robots.txt sets Content Signals (${shown}) with ${problems.join(" and ")}`,
      evidence,
      FIX.contentSignals,
    );
  }
  return verdict("pass", `/robots.txt sets Content Signals (${shown})`, evidence);
};

/** The AIPREF vocabulary's usage categories (draft-ietf-aipref-vocab) and their y/n values. */
const AIPREF_KEYS = ["train-ai", "train-genai", "ai-use", "search", "bots", "automated-processing"];

/** A Content-Usage value read as an RFC 9651 dictionary: its pairs, or a problem. */
export function readContentUsage(value: string): { pairs: [string, string][] } | { problem: string } {
  try {
    const dictionary = parseDictionary(value);
    const pairs: [string, string][] = [];
    for (const [key, [item]] of dictionary) {
      const text = typeof item === "object" && item !== null && "toString" in item ? String(item) : String(item);
      pairs.push([key, text]);
    }
    if (pairs.length === 0) return { problem: "is empty" };
    return { pairs };
  } catch {
    return { problem: "does not parse as a structured-field dictionary (RFC 9651)" };
  }
}

export const checkContentUsage: Judge = (answers) => {
  const robots = answerAt(answers, CHECKLIST_PATHS.robots);
  const home = answerAt(answers, "/");
  const evidence = evidenceOf(robots, home);
  const rules: { where: string; value: string }[] = [];
  for (const value of robotsReading(answers)?.usageExpressions ?? []) rules.push({ where: "/robots.txt", value });
  const header = home?.ok ? home.headers.get("content-usage") : null;
  if (header) rules.push({ where: "the home page's Content-Usage header", value: header });
  if (rules.length === 0) {
    const robotsStanding = standingOf(robots, answers);
    if (robotsStanding.kind === "blocked" || robotsStanding.kind === "error") {
      return verdict(robotsStanding.kind, robotsStanding.clause, evidence, FIX.contentUsage);
    }
    return missing("no Content-Usage rule in /robots.txt or on the home page", evidence, FIX.contentUsage);
  }
  const read = rules.map((rule) => ({ ...rule, read: readContentUsage(rule.value) }));
  const broken = read.find((rule) => "problem" in rule.read);
  if (broken && "problem" in broken.read) {
    return verdict(
      "fail",
      `${broken.where}'s Content-Usage "${broken.value.slice(0, 60)}" ${broken.read.problem}`,
      evidence,
      FIX.contentUsage,
    );
  }
  const pairs = read.flatMap((rule) => ("pairs" in rule.read ? rule.read.pairs : []));
  const unknown = pairs.filter(([key]) => !AIPREF_KEYS.includes(key)).map(([key]) => key);
  const badValues = pairs.filter(([, value]) => value !== "y" && value !== "n").map(([key]) => key);
  const shown = [...new Set(pairs.map(([key, value]) => `${key}=${value}`))].join(", ");
  if (unknown.length > 0 || badValues.length > 0) {
    const problems = [
      ...(unknown.length > 0 ? [`keys outside the AIPREF vocabulary (${[...new Set(unknown)].join(", ")})`] : []),
      ...(badValues.length > 0 ? [`values other than y/n (${[...new Set(badValues)].join(", ")})`] : []),
    ];
    return verdict(
      "warn",
      `${read[0]!.where} states AI usage preferences (${shown}) with ${problems.join(" and ")}`,
      evidence,
      FIX.contentUsage,
    );
  }
  return verdict("pass", `${read[0]!.where} states AI usage preferences (${shown})`, evidence);
};

const WEB_BOT_AUTH_TYPE = "application/http-message-signatures-directory+json";

export const checkWebBotAuth: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.webBotAuth);
  const early = unanswered(response, answers, FIX.webBotAuth);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  const read = readJsonAnswer(answer, "/.well-known/http-message-signatures-directory");
  if ("problem" in read) return missing(read.problem, evidence, FIX.webBotAuth);
  if (isErrorBody(read.document))
    return missing("the key directory path answered a JSON error body", evidence, FIX.webBotAuth);
  const keys = isRecord(read.document) ? read.document.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) {
    return verdict(
      "fail",
      "/.well-known/http-message-signatures-directory is JSON but not a JWKS (no keys array)",
      evidence,
      FIX.webBotAuth,
    );
  }
  const badKey = keys.findIndex((key) => !isRecord(key) || typeof key.kty !== "string");
  if (badKey >= 0)
    return verdict("fail", `key ${badKey + 1} of the directory is not a JWK (no kty)`, evidence, FIX.webBotAuth);
  const placeholder = findPlaceholder(keys, answers.origin);
  if (placeholder)
    return verdict("fail", `the directory holds a placeholder (${placeholder.slice(0, 60)})`, evidence, FIX.webBotAuth);
  if (answer.contentType !== WEB_BOT_AUTH_TYPE) {
    return verdict(
      "warn",
      `the key directory holds ${keys.length} keys but is served as ${answer.contentType ?? "no content type"}, not ${WEB_BOT_AUTH_TYPE}`,
      evidence,
      FIX.webBotAuth,
    );
  }
  return verdict(
    "pass",
    `the key directory holds ${keys.length === 1 ? "1 key" : `${keys.length} keys`}, served as ${WEB_BOT_AUTH_TYPE}`,
    evidence,
  );
};
