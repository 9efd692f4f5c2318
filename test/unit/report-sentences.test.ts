/**
 * The sentences a site's report shows read as a person wrote them: every reason and fix the
 * checklist and the seven signal detectors give, over every real document of the two corpora
 * (`../shared/realworld-corpus*`, each served at every path a crawl reads) and over sites that
 * answer nothing, 404, 403, 500 or fail to connect everywhere, is read for a verb that disagrees
 * with its subject ("the tools was", "it were") and for a word written twice ("the the"), and so
 * are the signals' fixes on the page (src/web/signal-guide.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChecklistAnswers } from "../../src/domain/checklist/checklist-answers.ts";
import { judgeChecklist } from "../../src/domain/checklist/run-checklist.ts";
import { SIGNAL_DETECTORS } from "../../src/domain/crawling/crawl-site.ts";
import type { ProbeResponse, SignalFinding, SiteFetcher } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";
import { adviceFor } from "../../src/web/signal-guide.ts";
import { answersFor } from "../support/checklist-answers.ts";

const ORIGIN = "https://site.example";
const CORPORA = ["../../../shared/realworld-corpus/", "../../../shared/realworld-corpus-2026/"].map(
  (path) => new URL(path, import.meta.url).pathname,
);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    // The corpora's own notes are not documents a site serves.
    return name === "README.md" || name === "SOURCES.tsv" ? [] : [path];
  });
}

function typeOf(file: string): string {
  if (/\.json$/i.test(file)) return "application/json";
  if (/\.html?$/i.test(file)) return "text/html; charset=utf-8";
  if (/\.ya?ml$/i.test(file)) return "application/yaml";
  if (/\.md$/i.test(file)) return "text/markdown; charset=utf-8";
  return "text/plain; charset=utf-8";
}

/** A site that answers every request with one document. */
interface Scenario {
  name: string;
  respond: (url: string) => ProbeResponse;
}

function answer(url: string, status: number, type: string, body: string): ProbeResponse {
  return {
    ok: true,
    url,
    finalUrl: url,
    redirects: [],
    status,
    headers: new Headers({ "content-type": type }),
    contentType: type.split(";")[0]!.trim(),
    body,
  };
}

const SCENARIOS: Scenario[] = [
  { name: "404 everywhere", respond: (url) => answer(url, 404, "text/plain", "Not found") },
  { name: "403 everywhere", respond: (url) => answer(url, 403, "text/html", "<h1>Forbidden</h1>") },
  { name: "500 everywhere", respond: (url) => answer(url, 500, "text/plain", "oops") },
  { name: "an empty 200 everywhere", respond: (url) => answer(url, 200, "text/plain", "") },
  {
    name: "no connection",
    respond: (url) => ({
      ok: false,
      url,
      finalUrl: url,
      redirects: [],
      failure: "network",
      message: "site.example refused the connection",
    }),
  },
  ...CORPORA.flatMap(filesUnder).map(
    (file): Scenario => ({
      name: file.slice(file.indexOf("realworld-corpus")),
      respond: (url) => answer(url, 200, typeOf(file), readFileSync(file, "utf8")),
    }),
  ),
];

/** The reasons and fixes of one scenario: the seven detectors', then the checklist's. */
async function sentencesOf(scenario: Scenario): Promise<string[]> {
  const fetch: SiteFetcher = async (url) => scenario.respond(url);
  const findings = Object.fromEntries(
    await Promise.all(
      SIGNAL_FIELDS.map(async (field) => [field, await SIGNAL_DETECTORS[field]({ origin: ORIGIN, fetch })] as const),
    ),
  ) as Record<SignalField, SignalFinding>;
  const base = answersFor(ORIGIN, {}, findings);
  const answers: ChecklistAnswers = {
    ...base,
    get: new Map([...base.get.keys()].map((url) => [url, scenario.respond(url)])),
    markdownHome: scenario.respond(`${ORIGIN}/`),
  };
  const { checks } = await judgeChecklist(answers, null);
  return [
    ...SIGNAL_FIELDS.map((field) => findings[field].reason),
    ...checks.flatMap((check) => [check.reason, check.fix ?? ""]),
  ].filter(Boolean);
}

/** Words that end in "s" and are singular, or are no noun at all. */
const SINGULAR_IN_S =
  /^(?:is|was|has|does|this|its|status|process|access|address|class|alias|canvas|yes|us|as|plus|less|https?|analysis|corpus|bus|gas|news|series|basis|axis|its|thus|always|unless|across|perhaps|whereas|previous|various|famous|bonus|campus|virus|focus|census|consensus|radius)$/i;

/** Each disagreement or doubled word in a sentence, as a short description. */
function sentenceFaults(text: string): string[] {
  // Quoted material is the site's own words, not ours.
  const ours = text
    .replace(/“[^”]*”|"[^"]*"|‘[^’]*’|`[^`]*`/g, "“…”")
    .replace(/\bhttps?:\/\/[^\s,)]+/g, "·")
    .replace(/(?:^|\s)\/[^\s,)]*/g, " ·");
  const faults: string[] = [];
  for (const match of ours.matchAll(/\b([A-Za-z]+)\s+\1\b/gi)) faults.push(`doubled word: "${match[0]}"`);
  for (const match of ours.matchAll(/\b([A-Za-z]+)\s+was\b/g)) {
    const word = match[1]!;
    if (/[^s]s$/i.test(word) && !SINGULAR_IN_S.test(word)) faults.push(`plural with "was": "${match[0]}"`);
  }
  for (const match of ours.matchAll(/\b(?:it|this|one|each \w+|every \w+|an? \w+)\s+were\b/gi)) {
    faults.push(`singular with "were": "${match[0]}"`);
  }
  for (const match of ours.matchAll(
    /\b(?:\w+ and (?!it\b|this\b|that\b|one\b|none\b|nothing\b|neither\b)\w+|both \w+|several \w+)\s+was\b/gi,
  )) {
    faults.push(`plural with "was": "${match[0]}"`);
  }
  return faults;
}

describe("the reading rule itself", () => {
  it.each([
    ["the WebMCP tools was not found", 'plural with "was": "tools was"'],
    ["the the file", 'doubled word: "the the"'],
    ["it were missing", 'singular with "were": "it were"'],
    ["the name and description was empty", 'plural with "was": "name and description was"'],
  ])("finds the fault in %j", (text, fault) => {
    expect(sentenceFaults(text)).toContain(fault);
  });

  it.each([
    "The status was 404.",
    "The tools were found; the file was read.",
    'The site names "Acme Acme" as its name, which was accepted.',
    "https://site.example/a/a was fetched.",
  ])("finds none in %j", (text) => {
    expect(sentenceFaults(text)).toEqual([]);
  });
});

describe("every reason and fix of the report reads as written by a person", () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    "on a site serving %s",
    async (_name, scenario) => {
      const faults = (await sentencesOf(scenario)).flatMap((text) =>
        sentenceFaults(text).map((fault) => `${fault} in: ${text}`),
      );
      expect([...new Set(faults)]).toEqual([]);
    },
  );

  it("in the signals' fixes on the page", () => {
    const faults = SIGNAL_FIELDS.flatMap((field) =>
      (["absent", "blocked", "error"] as const).flatMap((status) =>
        sentenceFaults(adviceFor(field, status)).map((fault) => `${field} ${status}: ${fault}`),
      ),
    );
    expect(faults).toEqual([]);
  });
});
