/**
 * GET / and GET /search: the home page and the search page for people (views in
 * src/web/pages/home.tsx and search.tsx), and GET /favicon.svg, the icon they name.
 *
 * A search runs when the URL carries any of the form's fields (an empty `q` included): it is the
 * same domain operation as GET /api/v1/search, with surface `web`, the same receipt and the same
 * free limit. Without them, / is the home page (with the API's description, docs and catalog also
 * in the Link header) and /search the empty form; both are cached like documents. Other
 * parameters (a campaign tag, say) are ignored rather than refused, so links to the pages keep
 * working; the form's own fields are validated by the API's schema, and an empty field means
 * "any", as a form sends every field.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  AI_CATALOG_MEDIA_TYPE,
  buildLlmsTxt,
  buildSiteLinks,
  DOCUMENT_CACHE_CONTROL,
  OPENAPI_MEDIA_TYPE,
  SITE_PATHS,
} from "../../domain/descriptor/site-documents.ts";
import { runSearch } from "../../domain/search/run-search.ts";
import { listTopSites, TOP_DEFAULT_LIMIT } from "../../domain/search/top-sites.ts";
import { ADOPTION_DEFAULT_DAYS, adoptionFigures } from "../../domain/stats/adoption-figures.ts";
import { indexStats } from "../../domain/stats/index-stats.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit } from "../../http/middleware/rate-limit.ts";
import { fieldErrors } from "../../http/validation.ts";
import { FAVICON_SVG } from "../../web/favicon.ts";
import { type HomeFigures, renderHomePage } from "../../web/pages/home.tsx";
import { renderSearchPage } from "../../web/pages/search.tsx";
import { SEARCH_FORM_FIELDS, type SearchFormValues } from "../../web/search-form.tsx";
import { SEARCH_LIMIT, SearchQuerySchema, toSearchInput } from "../shared/search-contract.ts";
import { pageHeaders } from "./page-errors.ts";

/**
 * The Link header of the home page: the API's description, its docs and its catalog (RFC 8631,
 * 9727), and the ARD manifest (ARD v0.91's `ard` relation).
 */
export function buildHomeLinkHeader(origin: string): string {
  const links = buildSiteLinks(origin);
  return [
    `<${links.openApi}>; rel="service-desc"; type="${OPENAPI_MEDIA_TYPE}"`,
    `<${links.docs}>; rel="service-doc"; type="text/html"`,
    `<${links.apiCatalog}>; rel="api-catalog"`,
    `<${links.ard}>; rel="ard"; type="${AI_CATALOG_MEDIA_TYPE}"`,
  ].join(", ");
}

/**
 * Whether a request for the home page asks for Markdown over HTML: `text/markdown` in Accept with
 * a quality above that of `text/html` (absent means 0), as agents that read Markdown send it.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  const quality = (type: string) => {
    for (const part of (accept ?? "").split(",")) {
      const [range, ...params] = part.trim().toLowerCase().split(";");
      if (range?.trim() !== type) continue;
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return q === undefined ? 1 : Number(q);
    }
    return 0;
  };
  const markdown = quality("text/markdown");
  return markdown > 0 && markdown > quality("text/html");
}

/** The form's fields as sent (the first of repeated ones), or null when the form was not sent. */
export function readSearchForm(params: URLSearchParams): SearchFormValues | null {
  if (!SEARCH_FORM_FIELDS.some((field) => params.has(field))) return null;
  const values: SearchFormValues = {};
  for (const field of SEARCH_FORM_FIELDS) {
    const value = params.get(field);
    if (value !== null) values[field] = value;
  }
  return values;
}

/** The API's query from the form: empty fields left out, as "any". */
function queryOf(values: SearchFormValues): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .map(([field, value]) => [field, field === "q" ? value : value.trim()] as const)
      .filter(([field, value]) => field === "q" || value !== ""),
  );
}

/**
 * The home page's live figures. Each is read through the domain function (and cache entry) an
 * API endpoint already uses, so the page adds no query of its own: GET /stats, GET /top with its
 * default filters and limit, and GET /stats/adoption with its default 90 days (a quarter of the
 * year /state reads, which a home page that is opened far more often need not parse). All three are cached
 * five minutes and read concurrently; the page itself is served from the edge while fresh.
 */
async function homeFigures(ctx: AppEnv["Variables"]["deps"]): Promise<HomeFigures | null> {
  try {
    const [stats, top, adoption] = await Promise.all([
      indexStats({ ctx }),
      listTopSites({ ctx, input: { filters: {}, limit: TOP_DEFAULT_LIMIT } }),
      adoptionFigures({ ctx, input: { days: ADOPTION_DEFAULT_DAYS } }),
    ]);
    const { cacheHit: _top, ...topList } = top;
    const { cacheHit: _adoption, ...figures } = adoption;
    return { stats, top: topList, adoption: figures };
  } catch (error) {
    // The search box and the links still work without the figures: the page says they are
    // missing rather than failing, and is not kept by any cache, so the next visit has them.
    console.error("home page figures could not be read", String(error));
    return null;
  }
}

/** Serves the home page at /, the search page at / and /search, and the icon at /favicon.svg. */
export function registerHomePage(app: OpenAPIHono<AppEnv>) {
  for (const path of [SITE_PATHS.home, SITE_PATHS.search]) {
    app.get(path, async (c) => {
      const { origin } = c.var.deps;
      const values = readSearchForm(new URL(c.req.url).searchParams);
      if (!values) {
        if (path === SITE_PATHS.search) {
          return c.html(await renderSearchPage({ origin, values: {} }), 200, pageHeaders(c, DOCUMENT_CACHE_CONTROL));
        }
        // The home page in Markdown for an agent that asks for it: the llms.txt guide, which says
        // in Markdown what the HTML page says. Both answers vary with Accept.
        if (path === SITE_PATHS.home && prefersMarkdown(c.req.header("accept"))) {
          return c.body(buildLlmsTxt(origin, c.var.endpoints), 200, {
            "Content-Type": "text/markdown; charset=utf-8",
            "Cache-Control": DOCUMENT_CACHE_CONTROL,
            Vary: "Accept",
            Link: buildHomeLinkHeader(origin),
          });
        }
        const figures = await homeFigures(c.var.deps);
        return c.html(await renderHomePage(origin, c.var.endpoints, figures), 200, {
          ...pageHeaders(c, figures ? DOCUMENT_CACHE_CONTROL : "no-store"),
          Link: buildHomeLinkHeader(origin),
          ...(path === SITE_PATHS.home ? { Vary: "Accept" } : {}),
        });
      }

      // Every answer below depends on this request (and a search writes its own receipt): never shared.
      const parsed = SearchQuerySchema.safeParse(queryOf(values));
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error, "query");
        return c.html(await renderSearchPage({ origin, values, errors }), 400, pageHeaders(c, "no-store"));
      }
      const synthetic = c.req.header("x-svc-synthetic") === "true" ? "true" : undefined;
      const input = toSearchInput(parsed.data, { surface: "web", headers: { "x-svc-synthetic": synthetic } });
      let limitHeaders: Record<string, string> = {};
      const result = await runSearch({
        ctx: c.var.deps,
        input,
        admit: async () => {
          limitHeaders = await consumeRateLimit(c, SEARCH_LIMIT);
        },
      });
      return c.html(await renderSearchPage({ origin, values, result }), 200, {
        ...limitHeaders,
        ...pageHeaders(c, "private, no-store"),
      });
    });
  }

  app.get(SITE_PATHS.favicon, (c) =>
    c.body(FAVICON_SVG, 200, {
      "Content-Type": "image/svg+xml",
      // A static icon: a day of caching spares every page view a request.
      "Cache-Control": "public, max-age=86400",
    }),
  );
}
