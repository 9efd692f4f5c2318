/**
 * NLWeb (`nlweb`, category content): the site announces an NLWeb endpoint (`rel="nlweb"` in the
 * home page's Link header or HTML, else a robots.txt `Schemamap:` line, which leads to the
 * conventional `/ask`), and one read-only GET of it with a query (`?query=…&streaming=false&
 * mode=list`) answers NLWeb's result shape (readers/nlweb.ts). One request, only where announced.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 */
import { nlwebAnnouncementOf, nlwebQueryUrl, readNlwebAnswer } from "../../readers/nlweb.ts";
import { isHtmlAnswer } from "../../signals/blocking.ts";
import type { ProbeAnswer } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  type Judge,
  linkedOutcome,
  missing,
  robotsReading,
  standingOf,
  verdict,
} from "../check-helpers.ts";
import { answerAt, type ChecklistAnswers } from "../checklist-answers.ts";

const FIX = {
  nlweb: fixWith(
    'If your site answers natural-language queries with NLWeb, announce the endpoint with rel="nlweb" and have GET <endpoint>?query=… answer NLWeb\'s JSON results.',
    '<link rel="nlweb" href="/ask">\n\nGET /ask?query=vegan+recipes&streaming=false\n{"query_id": "q1", "results": [{"url": "https://example.com/r/1", "name": "Lentil soup",\n  "site": "example.com", "score": 0.9, "schema_object": {"@type": "Recipe"}}]}',
  ),
} as const;

/** The endpoint the site announces and the URL of the check's query to it, when announced. */
export function nlwebQuery(answers: ChecklistAnswers): { endpoint: string; via: string; url: string } | null {
  const home = answerAt(answers, "/");
  const homeStanding = standingOf(home, answers.origin);
  const homeAnswer = homeStanding.kind === "answer" ? (home as ProbeAnswer) : null;
  const announcement = nlwebAnnouncementOf(homeAnswer, robotsReading(answers)?.schemamaps ?? [], answers.origin);
  const url = announcement ? nlwebQueryUrl(announcement.endpoint) : null;
  return announcement && url ? { ...announcement, url } : null;
}

export const checkNlweb: Judge = (answers) => {
  const query = nlwebQuery(answers);
  const home = answerAt(answers, "/");
  if (!query) {
    const standing = standingOf(home, answers);
    if (standing.kind === "blocked" || standing.kind === "error")
      return verdict(standing.kind, standing.clause, evidenceOf(home), FIX.nlweb);
    return missing(
      'the site announces no NLWeb endpoint (no rel="nlweb" link, no robots.txt Schemamap: line)',
      evidenceOf(home),
      FIX.nlweb,
    );
  }
  const response = answers.get.get(query.url);
  const evidence = evidenceOf(response);
  const announced = `the ${query.via} announces NLWeb at ${query.endpoint}`;
  const linked = linkedOutcome(response, answers);
  if (linked.state === "undecided")
    return verdict("error", `${announced}, but its answer could not be decided: ${linked.clause}`, evidence, FIX.nlweb);
  // A Schemamap names the site's feeds, not the endpoint: a missing conventional /ask is a flaw, not a broken announcement.
  const level = query.via === "robots.txt Schemamap" ? "warn" : "fail";
  if (linked.state !== "answer")
    return verdict(
      level,
      `${announced}, but a query there ${linked.clause.replace(/^.*? answered/, "answered")}`,
      evidence,
      FIX.nlweb,
    );
  if (isHtmlAnswer(linked.answer))
    return verdict(
      level,
      `${announced}, but a query there answered an HTML page, not NLWeb results`,
      evidence,
      FIX.nlweb,
    );
  const read = readNlwebAnswer(linked.answer);
  if ("problem" in read)
    return verdict(level, `${announced}, but its answer to a query ${read.problem}`, evidence, FIX.nlweb);
  if (read.incomplete > 0)
    return verdict(
      "warn",
      `${announced} and a query answered ${read.results.length} results, ${read.incomplete} of them without url and name`,
      evidence,
      FIX.nlweb,
    );
  return verdict(
    "pass",
    `${announced} and a read-only query answered NLWeb's result shape (${read.results.length} result${read.results.length === 1 ? "" : "s"}${read.streamed ? ", streamed" : ""})`,
    evidence,
  );
};
