/**
 * The problem type pages: what each problem code the service answers with means (RFC 9457: a
 * problem's `type` URI, dereferenced, documents the problem), one page per code at
 * `/problems/<code-in-kebab-case>` and an index at `/problems`. The words come from one table
 * (src/domain/problem-types.ts); the same words render as HTML for a browser and as Markdown for
 * an agent (`Accept: text/markdown`), so the two never say different things.
 */
import { buildSiteLinks } from "../../domain/descriptor/site-documents.ts";
import {
  PROBLEM_TYPES,
  PROBLEMS_PATH,
  type ProblemCode,
  problemStatuses,
  problemTypeSlug,
} from "../../domain/problem-types.ts";
import { StackingTable } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

const CODES = Object.keys(PROBLEM_TYPES) as ProblemCode[];

const pageUrl = (origin: string, code?: ProblemCode) =>
  `${origin}${PROBLEMS_PATH}${code ? `/${problemTypeSlug(code)}` : ""}`;

const statusText = (code: ProblemCode) => problemStatuses(code).join(" or ");

/** Plain words with `code spans`, as the table writes them: the spans become <code>. */
function Words({ text }: { text: string }) {
  return <>{text.split("`").map((part, index) => (index % 2 === 1 ? <code>{part}</code> : part))}</>;
}

function ProblemTypePage({ origin, code }: { origin: string; code: ProblemCode }) {
  const type = PROBLEM_TYPES[code];
  const links = buildSiteLinks(origin);
  return (
    <Layout
      origin={origin}
      url={pageUrl(origin, code)}
      title={`${type.title} (${code}): problem type`}
      description={type.happened.replaceAll("`", "")}
    >
      <p class="breadcrumb">
        <a href={links.home}>Search</a> › <a href={pageUrl(origin)}>Problem types</a> › {code}
      </p>
      <h1>{type.title}</h1>
      <dl class="facts">
        <dt>Code</dt>
        <dd>
          <code>{code}</code>
        </dd>
        <dt>Status</dt>
        <dd>{statusText(code)}</dd>
        <dt>Type</dt>
        <dd>
          <code>{pageUrl(origin, code)}</code>
        </dd>
      </dl>
      <h2>What happened</h2>
      <p>
        <Words text={type.happened} />
      </p>
      <h2>What to do</h2>
      <p>
        <Words text={type.todo} />
      </p>
      <p class="muted">
        The answer itself is <code>application/problem+json</code> (RFC 9457) with this <code>type</code>,{" "}
        <code>title</code>, <code>status</code>, a <code>detail</code> about this occurrence, <code>code</code> and{" "}
        <code>request_id</code>. <a href={pageUrl(origin)}>Every problem type</a>.
      </p>
    </Layout>
  );
}

function ProblemIndexPage({ origin }: { origin: string }) {
  const links = buildSiteLinks(origin);
  return (
    <Layout
      origin={origin}
      url={pageUrl(origin)}
      title="Problem types"
      description="Every error the service answers with: its code, status and what to do about it."
      current="docs"
    >
      <p class="breadcrumb">
        <a href={links.home}>Search</a> › Problem types
      </p>
      <h1>Problem types</h1>
      <p class="lead">
        Every error this service answers with is <code>application/problem+json</code> (RFC 9457) with a stable{" "}
        <code>code</code> and a <code>type</code> URL that leads to its page here.
      </p>
      <StackingTable>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Status</th>
            <th scope="col">Title</th>
          </tr>
        </thead>
        <tbody>
          {CODES.map((code) => (
            <tr>
              <td>
                <a href={pageUrl(origin, code)}>
                  <code>{code}</code>
                </a>
              </td>
              <td data-label="Status">{statusText(code)}</td>
              <td data-label="Title">{PROBLEM_TYPES[code].title}</td>
            </tr>
          ))}
        </tbody>
      </StackingTable>
    </Layout>
  );
}

/** The HTML page of one problem type. */
export function renderProblemTypePage(origin: string, code: ProblemCode): Promise<string> {
  return renderPage(<ProblemTypePage origin={origin} code={code} />);
}

/** The HTML index of every problem type. */
export function renderProblemIndexPage(origin: string): Promise<string> {
  return renderPage(<ProblemIndexPage origin={origin} />);
}

/** One problem type's page in Markdown: the same words as the HTML page. */
export function problemTypeMarkdown(origin: string, code: ProblemCode): string {
  const type = PROBLEM_TYPES[code];
  return [
    `# ${type.title}`,
    "",
    `- Code: \`${code}\``,
    `- Status: ${statusText(code)}`,
    `- Type: ${pageUrl(origin, code)}`,
    "",
    "## What happened",
    "",
    type.happened,
    "",
    "## What to do",
    "",
    type.todo,
    "",
    `The answer itself is \`application/problem+json\` (RFC 9457) with this \`type\`, \`title\`, \`status\`, a \`detail\` about this occurrence, \`code\` and \`request_id\`. Every problem type: ${pageUrl(origin)}`,
    "",
  ].join("\n");
}

/** The index of every problem type in Markdown. */
export function problemIndexMarkdown(origin: string): string {
  return [
    "# Problem types",
    "",
    "Every error this service answers with is `application/problem+json` (RFC 9457) with a stable `code` and a `type` URL that leads to its page here.",
    "",
    "| Code | Status | Title |",
    "|---|---|---|",
    ...CODES.map(
      (code) => `| [\`${code}\`](${pageUrl(origin, code)}) | ${statusText(code)} | ${PROBLEM_TYPES[code].title} |`,
    ),
    "",
  ].join("\n");
}
