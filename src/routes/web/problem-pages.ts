/**
 * GET /problems and GET /problems/{type}: the pages every problem's `type` URL leads to (RFC 9457
 * §3.1.1), one per code of src/domain/problem-types.ts, and their index. A browser gets HTML in
 * the site's layout; an agent that asks for Markdown (`Accept: text/markdown` above `text/html`,
 * as the home page negotiates) gets the same words in Markdown. Both answers vary with Accept. A
 * type no problem has is the 404 NOT_FOUND problem, as any unknown path is.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { DOCUMENT_CACHE_CONTROL } from "../../domain/descriptor/site-documents.ts";
import { PROBLEMS_PATH, problemCodeOfSlug } from "../../domain/problem-types.ts";
import type { AppEnv } from "../../http/context.ts";
import { notFoundProblem } from "../../http/problem.ts";
import { pageSecurityHeaders } from "../../web/page-headers.ts";
import {
  problemIndexMarkdown,
  problemTypeMarkdown,
  renderProblemIndexPage,
  renderProblemTypePage,
} from "../../web/pages/problems.tsx";
import { prefersMarkdown } from "./home-page.ts";

async function answer(c: Context<AppEnv>, markdown: () => string, html: () => Promise<string>) {
  const { origin } = c.var.deps;
  if (prefersMarkdown(c.req.header("accept"))) {
    return c.body(markdown(), 200, {
      "Content-Type": "text/markdown; charset=utf-8",
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
      Vary: "Accept",
    });
  }
  return c.html(await html(), 200, {
    "Cache-Control": DOCUMENT_CACHE_CONTROL,
    Vary: "Accept",
    ...pageSecurityHeaders(origin),
  });
}

/** Serves the problem type pages at /problems and /problems/{type}. */
export function registerProblemPages(app: OpenAPIHono<AppEnv>) {
  app.get(PROBLEMS_PATH, (c) =>
    answer(
      c,
      () => problemIndexMarkdown(c.var.deps.origin),
      () => renderProblemIndexPage(c.var.deps.origin),
    ),
  );
  app.get(`${PROBLEMS_PATH}/:type`, (c) => {
    const code = problemCodeOfSlug(c.req.param("type"));
    if (!code) throw notFoundProblem("No problem type has this name; /problems lists every one.");
    return answer(
      c,
      () => problemTypeMarkdown(c.var.deps.origin, code),
      () => renderProblemTypePage(c.var.deps.origin, code),
    );
  });
}
