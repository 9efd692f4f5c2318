/**
 * How the pages for people fail: as pages. A refusal, a limit, an unavailable store (503 with
 * Retry-After) or a failure of ours is an HTML page with the right status and the problem's
 * headers (Retry-After, RateLimit-*), never the JSON problem document an API client gets; and a
 * form's own refusal is shown on the form.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError } from "../../domain/errors.ts";
import type { AppEnv } from "../../http/context.ts";
import { domainErrorProblem } from "../../http/domain-error-table.ts";
import { HttpProblem } from "../../http/problem.ts";
import { createRoutes } from "../../http/routes.ts";
import { storeUnavailableProblem } from "../../http/store-unavailable.ts";
import { pageSecurityHeaders } from "../../web/page-headers.ts";
import { renderErrorPage } from "../../web/pages/error.tsx";
import { renderSignInPage } from "../../web/pages/sign-in.tsx";

const TITLES: Record<number, string> = {
  401: "Sign-in required",
  400: "That request cannot be answered",
  403: "Refused",
  404: "Page not found",
  409: "That cannot be done now",
  429: "Too many requests for now",
  503: "Temporarily unavailable",
};

/** A failure a page shows to the person who caused it: its status, message and headers. */
export interface PageFailure {
  status: ContentfulStatusCode;
  message: string;
  headers: Record<string, string>;
}

/**
 * The public failure behind an error a domain operation or middleware threw on purpose (a domain
 * error, a problem such as 429), or null for anything unexpected, which must not be shown.
 */
export function pageFailureOf(error: unknown): PageFailure | null {
  // Domain errors mean on a page what they mean in the API: one table (src/http/domain-error-table.ts).
  // A database that cannot be reached, or fell silent (a stalled store on a loaded machine), is
  // the service's temporary state as in the API: a 503 page with Retry-After, never a 500.
  const problem = error instanceof DomainError ? domainErrorProblem(error) : (storeUnavailableProblem(error) ?? error);
  if (problem instanceof HttpProblem && problem.status !== 500) {
    return { status: problem.status, message: problem.message, headers: problem.headers };
  }
  return null;
}

/** Runs a domain call; a failure meant for the person becomes a `PageFailure`, anything else is thrown on. */
export async function attempt<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | ({ ok: false } & PageFailure)> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    const failure = pageFailureOf(error);
    if (!failure) throw error;
    return { ok: false, ...failure };
  }
}

/** Headers every page answer carries whatever it says, besides its own. */
export function pageHeaders(c: Context<AppEnv>, cacheControl: string, scriptHashes: string[] = []) {
  return { "Cache-Control": cacheControl, ...pageSecurityHeaders(c.var.deps.origin, { scriptHashes }) };
}

async function renderFailure(error: Error, c: Context<AppEnv>): Promise<Response> {
  // A console page without a live session: the sign-in form, with the status saying why.
  if (error instanceof HttpProblem && error.code === "SESSION_REQUIRED") {
    const origin = c.var.deps.origin;
    return c.html(await renderSignInPage(origin, { kind: "required" }), 401, {
      "Cache-Control": "no-store",
      ...pageSecurityHeaders(origin),
    });
  }
  const failure = pageFailureOf(error);
  if (!failure) console.error("page failed", error);
  const status = failure?.status ?? 500;
  const origin = c.get("deps")?.origin ?? new URL(c.req.url).origin;
  const page = await renderErrorPage({
    origin,
    url: `${origin}${new URL(c.req.url).pathname}`,
    status,
    title: TITLES[status] ?? "Something went wrong",
    message: failure?.message ?? "The service failed to show this page. Please try again in a moment.",
    requestId: c.get("requestId") ?? "unknown",
  });
  return c.html(page, status, {
    ...(failure?.headers ?? {}),
    "Cache-Control": "no-store",
    ...pageSecurityHeaders(origin),
  });
}

/**
 * Routes whose every failure is an HTML page (see `renderFailure`): mounted under the site
 * root, they keep the app's request id, dependencies and read CORS.
 *
 * @example const pages = createPageRoutes(); registerCheckPage(pages); siteRoutes.route("/", pages);
 */
export function createPageRoutes() {
  const pages = createRoutes();
  pages.onError(renderFailure);
  return pages;
}
