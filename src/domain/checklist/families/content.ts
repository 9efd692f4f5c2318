/**
 * The content family: Markdown by content negotiation, llms.txt and llms-full.txt (llmstxt.org),
 * schema.org markup and its actions (EntryPoint).
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { walkHtml } from "../../readers/html.ts";
import { isHtmlAnswer, isRecord, parseJson, resolveHttpUrl } from "../../signals/blocking.ts";
import type { ProbeAnswer } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  isPlaceholder,
  type Judge,
  mirrorSignal,
  missing,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS } from "../checklist-answers.ts";

const FIX = {
  markdown: fixWith(
    "Answer GET / with Accept: text/markdown with a Markdown version of the page, Content-Type: text/markdown and Vary: Accept.",
    "HTTP/1.1 200 OK\nContent-Type: text/markdown; charset=utf-8\nVary: Accept\n\n# Example\n\nWhat this site offers, in Markdown.",
  ),
  llms: fixWith(
    "Publish /llms.txt: Markdown that opens with an H1 naming the site, then links to your key pages.",
    "# Example\n\n> What Example does, in one line.\n\n## Docs\n\n- [Quick start](https://example.com/docs/start.md)",
  ),
  llmsFull: fixWith(
    "Publish /llms-full.txt (your documentation in one Markdown file) and link it from /llms.txt.",
    "# Example\n\n> Everything about Example in one file.\n\n## Getting started\n\nInstall with …",
  ),
  schemaOrg: fixWith(
    "Describe the site with schema.org JSON-LD in the home page's <head>.",
    '<script type="application/ld+json">\n{"@context": "https://schema.org", "@type": "Organization", "name": "Example", "url": "https://example.com"}\n</script>',
  ),
  schemaActions: fixWith(
    "Declare what agents can do on the site with a schema.org potentialAction whose target is an EntryPoint.",
    '<script type="application/ld+json">\n{"@context": "https://schema.org", "@type": "WebSite", "url": "https://example.com/",\n "potentialAction": {"@type": "SearchAction",\n  "target": {"@type": "EntryPoint", "urlTemplate": "https://example.com/search?q={query}"},\n  "query-input": "required name=query"}}\n</script>',
  ),
} as const;

export const checkMarkdownNegotiation: Judge = (answers) => {
  const response = answers.markdownHome;
  const early = unanswered(response ?? undefined, answers, FIX.markdown);
  if (early)
    return "missing" in early
      ? missing(`GET / with Accept: text/markdown: ${early.reason}`, early.evidence, FIX.markdown)
      : early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  const type = answer.contentType ?? "";
  const isMarkdownType = type === "text/markdown" || type === "text/x-markdown";
  if (isMarkdownType && isHtmlAnswer(answer)) {
    return verdict(
      "fail",
      "GET / with Accept: text/markdown answered an HTML page labelled text/markdown",
      evidence,
      FIX.markdown,
    );
  }
  if (!isMarkdownType) {
    return missing(
      `GET / with Accept: text/markdown answered ${type || "no content type"}, not Markdown`,
      evidence,
      FIX.markdown,
    );
  }
  const vary = (answer.headers.get("vary") ?? "")
    .toLowerCase()
    .split(",")
    .map((part) => part.trim());
  if (!vary.includes("accept") && !vary.includes("*")) {
    return verdict(
      "warn",
      "GET / with Accept: text/markdown answers Markdown, but without Vary: Accept, so caches may serve it to browsers",
      evidence,
      FIX.markdown,
    );
  }
  return verdict("pass", "GET / with Accept: text/markdown answers Markdown (text/markdown, Vary: Accept)", evidence);
};

export const checkLlmsTxt = mirrorSignal("has_llms_txt", FIX.llms);

/** True when a text reads as Markdown: a heading, a list or a link in its first lines. */
function looksLikeMarkdown(body: string): boolean {
  const head = body.slice(0, 16_384);
  return /^\s{0,3}#{1,6}\s+\S/m.test(head) || /^\s*[-*+]\s+\S/m.test(head) || /\[[^\]]+\]\([^)]+\)/.test(head);
}

export const checkLlmsFullTxt: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.llmsFull);
  const early = unanswered(response, answers, FIX.llmsFull);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  if (isHtmlAnswer(answer))
    return missing("/llms-full.txt answered with an HTML page (a soft 404)", evidence, FIX.llmsFull);
  if (parseJson(answer.body) !== undefined)
    return missing("/llms-full.txt answered JSON, not Markdown", evidence, FIX.llmsFull);
  if (!looksLikeMarkdown(answer.body))
    return verdict("fail", "/llms-full.txt is not Markdown (no heading, list or link)", evidence, FIX.llmsFull);
  const llms = answerAt(answers, CHECKLIST_PATHS.llmsTxt);
  const llmsAnswer = llms?.ok && llms.status === 200 && !isHtmlAnswer(llms) ? llms : null;
  if (!llmsAnswer || !/llms-full\.txt/i.test(llmsAnswer.body)) {
    return verdict(
      "warn",
      "/llms-full.txt is Markdown, but /llms.txt does not link to it",
      evidenceOf(response, llms),
      FIX.llmsFull,
    );
  }
  return verdict("pass", "/llms-full.txt is Markdown and /llms.txt links to it", evidenceOf(response, llms));
};

export const checkSchemaOrg = mirrorSignal("has_schema_org", FIX.schemaOrg);

interface FoundAction {
  type: string;
  target: string | null;
  entryPoint: boolean;
  queryInput: boolean;
}

function collectActions(node: unknown, found: FoundAction[], depth = 0): void {
  if (depth > 12 || found.length > 20) return;
  if (Array.isArray(node)) {
    for (const item of node) collectActions(item, found, depth + 1);
    return;
  }
  if (!isRecord(node)) return;
  const actions = node.potentialAction;
  for (const action of Array.isArray(actions) ? actions : actions === undefined ? [] : [actions]) {
    if (!isRecord(action)) continue;
    const type = typeof action["@type"] === "string" ? action["@type"] : "Action";
    const targets = Array.isArray(action.target) ? action.target : [action.target];
    for (const target of targets) {
      let url: string | null = null;
      let entryPoint = false;
      if (typeof target === "string") url = target;
      else if (isRecord(target)) {
        const template = target.urlTemplate ?? target.url;
        url = typeof template === "string" ? template : null;
        entryPoint = typeof target.urlTemplate === "string" || typeof target.httpMethod === "string";
      }
      const queryInput =
        action["query-input"] !== undefined || Object.keys(action).some((key) => key.endsWith("-input"));
      found.push({ type, target: url, entryPoint, queryInput });
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== "potentialAction" && typeof value === "object" && value !== null)
      collectActions(value, found, depth + 1);
  }
}

/** The potentialAction entries of a page's JSON-LD. */
export function findSchemaActions(html: string): FoundAction[] {
  const found: FoundAction[] = [];
  walkHtml(html, (tag) => {
    if (tag.name !== "script" || !tag.content) return;
    const type = (tag.attributes.type ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/ld+json") return;
    collectActions(parseJson(tag.content.trim().replace(/^<!--/, "").replace(/-->$/, "")), found);
  });
  return found;
}

export const checkSchemaOrgActions: Judge = (answers) => {
  const home = answerAt(answers, "/");
  const early = unanswered(home, answers, FIX.schemaActions);
  if (early) return early;
  const answer = home as ProbeAnswer;
  const evidence = evidenceOf(home);
  if (!isHtmlAnswer(answer)) return missing("the home page is not HTML", evidence, FIX.schemaActions);
  const actions = findSchemaActions(answer.body);
  if (actions.length === 0)
    return missing("the home page's JSON-LD declares no potentialAction", evidence, FIX.schemaActions);
  const usable = actions.filter((action) => action.target && (action.entryPoint || action.queryInput));
  const placeholder = usable.find((action) => action.target && isPlaceholder(action.target, answers.origin));
  const good = usable.filter(
    (action) =>
      action.target &&
      !isPlaceholder(action.target, answers.origin) &&
      resolveHttpUrl(action.target.replace(/\{[^}]*\}/g, "x"), answer.url),
  );
  if (good.length > 0) {
    const types = [...new Set(good.map((action) => action.type))].join(", ");
    return verdict("pass", `the home page declares ${types} with an entry point (${good[0]!.target})`, evidence);
  }
  if (placeholder) {
    return verdict(
      "fail",
      `the home page's potentialAction targets an unfilled template (${placeholder.target})`,
      evidence,
      FIX.schemaActions,
    );
  }
  return verdict(
    "fail",
    "the home page declares a potentialAction without an EntryPoint (no urlTemplate, httpMethod or query-input)",
    evidence,
    FIX.schemaActions,
  );
};
