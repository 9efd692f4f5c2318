/**
 * The llms.txt signal: a Markdown file for language models at /llms.txt, or at
 * /.well-known/llms.txt as a fallback (both probed at once). Present only when one answers 200 with
 * a body that is not an HTML page (a soft 404) that opens with an H1 title, the one part
 * llmstxt.org requires, written `# Title` or as a title underlined with `===` (Markdown's setext
 * form, which real files use), and that is not the site's catch-all answer (a Markdown "page not
 * found" served for every path opens with an H1 too: see catch-all.ts). A BOM and CRLF line ends
 * are read like any other; the media type is not required (text/plain is common).
 */
import { decideVerdict, isHtmlAnswer, judgeProbe, type ProbeVerdict, siteUrl } from "./blocking.ts";
import { controlsOf, ruleOutCatchAll } from "./crawl-state.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type SignalFinding } from "./types.ts";

export const LLMS_TXT_PATHS = ["/llms.txt", "/.well-known/llms.txt"] as const;

interface LlmsVerdict extends ProbeVerdict {
  title?: string;
  summary?: string | null;
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT_H1_UNDERLINE = /^ {0,3}=+[ \t]*$/;
const SETEXT_H2_UNDERLINE = /^ {0,3}-+[ \t]*$/;
/** Lines that start a block of their own, so they cannot start or continue a heading's paragraph. */
const BLOCK_STARTS = [
  /^ {4}|^ {0,3}\t/, // indented code
  /^ {0,3}(?:`{3,}|~{3,})/, // fenced code
  /^ {0,3}>/, // block quote
  /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/, // list item
  /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/, // thematic break
  /^ {0,3}<[a-z/!?]/i, // HTML block
];

/**
 * The H1 title of an llms.txt body, or why it has none. The first block of the file must be a
 * level-1 heading in either form CommonMark gives it: ATX (`# Title`, with an optional closing
 * run of `#`) or setext (a paragraph of one or more lines underlined with `=`). A paragraph
 * underlined with `-` is a level-2 heading.
 */
export function readLlmsTitle(body: string): { title: string } | { problem: string } {
  const read = readHeading(body);
  return "problem" in read ? read : { title: read.title };
}

/**
 * The summary of an llms.txt: the block quote llmstxt.org puts right after the H1 title
 * (`> A short summary…`), its lines joined; null when the file has no title or no such quote.
 */
export function readLlmsSummary(body: string): string | null {
  const read = readHeading(body);
  if ("problem" in read) return null;
  const rest = read.lines.slice(read.next);
  const start = rest.findIndex((line) => line.trim() !== "");
  const quoted: string[] = [];
  for (const line of start < 0 ? [] : rest.slice(start)) {
    const quote = /^ {0,3}>[ \t]?(.*)$/.exec(line);
    if (!quote) break;
    quoted.push(quote[1]!.trim());
  }
  const summary = quoted.join(" ").trim();
  return summary || null;
}

/** The H1 title with the file's lines and the index of the first line after the heading, or why there is none. */
function readHeading(body: string): { title: string; lines: string[]; next: number } | { problem: string } {
  const lines = body.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const start = lines.findIndex((line) => line.trim() !== "");
  if (start < 0) return { problem: "is empty" };
  const notH1 = { problem: "does not start with a Markdown H1 title (# Title, or Title underlined with ===)" };
  const first = lines[start]!;
  const atx = ATX_HEADING.exec(first);
  if (atx) {
    if (atx[1]!.length !== 1) return { problem: `starts with a level-${atx[1]!.length} heading, not an H1 title` };
    const title = (atx[2] ?? "").replace(/(?:^|[ \t]+)#+$/, "").trim();
    return title ? { title, lines, next: start + 1 } : { problem: "starts with an empty H1 title" };
  }
  if (BLOCK_STARTS.some((pattern) => pattern.test(first))) return notH1;
  // A setext heading: the paragraph's lines, up to the underline.
  const paragraph = [first.trim()];
  for (const [offset, line] of lines.slice(start + 1).entries()) {
    if (SETEXT_H1_UNDERLINE.test(line)) return { title: paragraph.join(" "), lines, next: start + offset + 2 };
    if (SETEXT_H2_UNDERLINE.test(line)) return { problem: "starts with a level-2 heading, not an H1 title" };
    if (line.trim() === "" || ATX_HEADING.test(line) || BLOCK_STARTS.slice(1).some((pattern) => pattern.test(line))) {
      return notH1;
    }
    paragraph.push(line.trim());
  }
  return notH1;
}

function judgeLlmsAnswer(answer: ProbeAnswer, where: string): LlmsVerdict {
  if (answer.status !== 200) return { status: "absent", reason: `${where} answered ${answer.status}, not 200` };
  if (isHtmlAnswer(answer)) return { status: "absent", reason: `${where} answered 200 with an HTML page (a soft 404)` };
  const read = readLlmsTitle(answer.body);
  if ("problem" in read) return { status: "absent", reason: `${where} answered 200 but ${read.problem}` };
  return {
    status: "present",
    reason: `llms.txt found at ${where} with an H1 title`,
    title: read.title,
    summary: readLlmsSummary(answer.body),
  };
}

/** Detects llms.txt (see the module comment). */
export async function detectLlmsTxt(context: ProbeContext): Promise<SignalFinding> {
  const responses = await Promise.all(LLMS_TXT_PATHS.map((path) => context.fetch(siteUrl(context.origin, path))));
  const judged = await Promise.all(
    responses.map((response) =>
      ruleOutCatchAll(context, response, judgeProbe(response, context.origin, judgeLlmsAnswer)),
    ),
  );
  const verdicts: LlmsVerdict[] = judged.map((one) => one.verdict);
  const verdict = decideVerdict(verdicts);
  const fetched = [...responses, ...controlsOf(judged)].map(fetchRecord);
  const foundAt = verdicts.findIndex((candidate) => candidate.status === "present");
  if (foundAt < 0) return { ...verdict, fetched };
  const response = responses[foundAt]!;
  return {
    ...verdict,
    fetched,
    details: {
      url: response.finalUrl || response.url,
      title: verdicts[foundAt]!.title,
      summary: verdicts[foundAt]!.summary ?? null,
    },
  };
}
