/**
 * The problem type pages (src/routes/web/problem-pages.ts): the `type` of real error answers,
 * dereferenced, is a 200 page that names the code and says what to do, as HTML for a browser and
 * in Markdown for an agent; /problems lists every code; an unknown type is the 404 problem; the
 * sitemap lists the pages.
 */
import { describe, expect, it } from "vitest";
import { PROBLEM_TYPES, type ProblemCode } from "../../src/domain/problem-types.ts";
import { uniqueToken } from "../support/sites.ts";
import { asClient, call, expectProblem } from "../support/worker.ts";

const ORIGIN = "http://svc.test";
const json = (body: string) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body });

/** Real answers of the service, each a problem of its own code. */
const ERRORS: [ProblemCode, number, () => Promise<Response>][] = [
  ["VALIDATION_FAILED", 400, () => asClient()("/api/v1/search?limit=abc")],
  ["NOT_FOUND", 404, () => call("/api/v1/no-such-endpoint")],
  ["SITE_NOT_FOUND", 404, () => asClient()(`/api/v1/site/missing-${uniqueToken()}.test`)],
  ["METHOD_NOT_ALLOWED", 405, () => call("/api/v1/search", { method: "POST" })],
  ["INVALID_URL", 400, () => asClient()("/api/v1/check", json(JSON.stringify({ url: "not a url" })))],
  ["INVALID_JSON", 400, () => asClient()("/api/v1/check", json("{not json"))],
];

describe("problem type pages", () => {
  it.each(ERRORS)("dereference the type of a real %s answer to a page that names it", async (code, status, answer) => {
    const problem = await expectProblem(await answer(), status, code);
    const type = String(problem.type);
    expect(type.startsWith(`${ORIGIN}/problems/`)).toBe(true);
    const path = type.slice(ORIGIN.length);

    const page = await call(path, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("vary")).toBe("Accept");
    const html = await page.text();
    expect(html).toContain(`<code>${code}</code>`);
    expect(html).toContain(`<h1>${PROBLEM_TYPES[code].title}</h1>`);
    expect(html).toContain("What to do");

    const markdown = await call(path, { headers: { Accept: "text/markdown, text/html;q=0.5" } });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await markdown.text();
    expect(text.startsWith(`# ${PROBLEM_TYPES[code].title}\n`)).toBe(true);
    expect(text).toContain(`- Code: \`${code}\``);
    expect(text).toContain(`- Status: ${status}`);
    expect(text).toContain(PROBLEM_TYPES[code].todo);
  });

  it("lists every problem type at /problems, in HTML and in Markdown", async () => {
    const html = await (await call("/problems")).text();
    const markdown = await (await call("/problems", { headers: { Accept: "text/markdown" } })).text();
    for (const code of Object.keys(PROBLEM_TYPES)) {
      const href = `${ORIGIN}/problems/${code.toLowerCase().replaceAll("_", "-")}`;
      expect(html, code).toContain(`href="${href}"`);
      expect(markdown, code).toContain(`[\`${code}\`](${href})`);
    }
  });

  it("answers a type no problem has with the 404 problem", async () => {
    for (const slug of ["no-such-problem", "VALIDATION-FAILED", "validation_failed", "__proto__"]) {
      const body = await expectProblem(await call(`/problems/${slug}`), 404, "NOT_FOUND");
      expect(body.detail, slug).toContain("/problems");
    }
  });

  it("are in the sitemap", async () => {
    const sitemap = await (await call("/sitemap.xml")).text();
    expect(sitemap).toContain(`<loc>${ORIGIN}/problems</loc>`);
    expect(sitemap).toContain(`<loc>${ORIGIN}/problems/validation-failed</loc>`);
    expect(sitemap).toContain(`<loc>${ORIGIN}/problems/misdirected-request</loc>`);
  });
});
