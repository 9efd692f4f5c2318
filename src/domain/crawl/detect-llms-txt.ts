/**
 * The llms.txt signal: a Markdown file for language models at /llms.txt, or at
 * /.well-known/llms.txt as a fallback (both probed at once). Present only when one answers 200 with
 * a body that is not an HTML page (a soft 404) and whose first non-blank line is an H1 title
 * (`# Title`), the one part llmstxt.org requires.
 */
import { decideVerdict, isHtmlAnswer, judgeProbe, type ProbeVerdict, siteUrl } from "./blocking.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type SignalFinding } from "./types.ts";

export const LLMS_TXT_PATHS = ["/llms.txt", "/.well-known/llms.txt"] as const;

interface LlmsVerdict extends ProbeVerdict {
  title?: string;
}

/** The H1 title of an llms.txt body, or why it has none. */
export function readLlmsTitle(body: string): { title: string } | { problem: string } {
  const firstLine = body
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .find((line) => line.trim() !== "");
  if (firstLine === undefined) return { problem: "is empty" };
  const heading = /^#[ \t]+(\S.*)$/.exec(firstLine.trim());
  if (!heading) return { problem: "does not start with a Markdown H1 title (# Title)" };
  return { title: heading[1]!.replace(/[ \t]+#*[ \t]*$/, "").trim() };
}

function judgeLlmsAnswer(answer: ProbeAnswer, where: string): LlmsVerdict {
  if (answer.status !== 200) return { status: "absent", reason: `${where} answered ${answer.status}, not 200` };
  if (isHtmlAnswer(answer)) return { status: "absent", reason: `${where} answered 200 with an HTML page (a soft 404)` };
  const read = readLlmsTitle(answer.body);
  if ("problem" in read) return { status: "absent", reason: `${where} answered 200 but ${read.problem}` };
  return { status: "present", reason: `llms.txt found at ${where} with an H1 title`, title: read.title };
}

/** Detects llms.txt (see the module comment). */
export async function detectLlmsTxt(context: ProbeContext): Promise<SignalFinding> {
  const responses = await Promise.all(LLMS_TXT_PATHS.map((path) => context.fetch(siteUrl(context.origin, path))));
  const verdicts: LlmsVerdict[] = responses.map((response) => judgeProbe(response, context.origin, judgeLlmsAnswer));
  const verdict = decideVerdict(verdicts);
  const fetched = responses.map(fetchRecord);
  const foundAt = verdicts.findIndex((candidate) => candidate.status === "present");
  if (foundAt < 0) return { ...verdict, fetched };
  const response = responses[foundAt]!;
  return {
    ...verdict,
    fetched,
    details: { url: response.finalUrl || response.url, title: verdicts[foundAt]!.title },
  };
}
