/**
 * The search page (`/search`, and `/` once the form is sent): the form with every filter, then one
 * page of organic results, each with its score, the seven signals at a glance, category and tags,
 * and paging that keeps the filters. A form that cannot run shows what is wrong with it.
 */

import { buildSiteLinks, siteReportUrl } from "../../domain/descriptor/site-documents.ts";
import type { SearchResponse } from "../../domain/search/run-search.ts";
import type { FieldError } from "../../http/problem.ts";
import { scoreBand } from "../badge.ts";
import { Notice } from "../components.tsx";
import { displayText } from "../display-text.ts";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";
import { SEARCH_FIELD_LABELS, SEARCH_FORM_FIELDS, SearchForm, type SearchFormValues } from "../search-form.tsx";
import { SiteIcon } from "../site-icon.tsx";
import { CategoryAndTags, SignalsAtAGlance } from "../site-report.tsx";

export interface SearchPageProps {
  origin: string;
  values: SearchFormValues;
  /** The search's answer, when it ran. */
  result?: SearchResponse;
  /** Why it did not run: the fields the form got wrong. */
  errors?: FieldError[];
}

/** The search page's URL for these form values on another page (empty fields left out). */
export function searchPageUrl(origin: string, values: SearchFormValues, page: number): string {
  const params = new URLSearchParams();
  for (const field of SEARCH_FORM_FIELDS) {
    const value = field === "page" ? (page > 1 ? String(page) : "") : (values[field] ?? "");
    if (value || field === "q") params.set(field, value);
  }
  return `${buildSiteLinks(origin).search}?${params}`;
}

function describeTotal(result: SearchResponse): string {
  if (result.total === 0) return "No site matches.";
  const count = result.total_exact
    ? result.total.toLocaleString("en")
    : `More than ${result.total.toLocaleString("en")}`;
  return `${count} ${result.total === 1 ? "site matches" : "sites match"}.`;
}

/**
 * The words the search answer offers when nothing matched ("nearest words that would match"),
 * when it offers any: an array of words, or of objects naming the word (`word`, `query` or `q`).
 * Read defensively, since the answer's field is `suggestions` only once the search offers it;
 * nothing is invented when it is absent.
 */
export function suggestedWords(result: SearchResponse): string[] {
  const offered = (result as { suggestions?: unknown }).suggestions;
  if (!Array.isArray(offered)) return [];
  return offered
    .map((entry) => {
      if (typeof entry === "string") return entry;
      if (entry && typeof entry === "object") {
        const named = entry as Record<string, unknown>;
        const word = named.word ?? named.query ?? named.q;
        return typeof word === "string" ? word : null;
      }
      return null;
    })
    .filter((word): word is string => word !== null && word.trim() !== "")
    .slice(0, 10);
}

/** How a search with words is ordered, in one line (docs/discovery.md, "Ranking"). */
const RELEVANCE_ORDER =
  "by relevance: sites that match more of your words, and match them in their name, tags or domain, first; the score counts a little within that.";

/** What an empty answer offers: the search's own nearest words when it gives them, else general advice. */
function NoMatch({ origin, values, result }: { origin: string; values: SearchFormValues; result: SearchResponse }) {
  const words = suggestedWords(result);
  const why = result.no_match?.detail ? <p class="no-match-reason">{result.no_match.detail}</p> : null;
  // The whole query with the word replaced, when the answer gives it; else the word alone.
  const queries = new Map(
    (Array.isArray(result.suggestions) ? result.suggestions : []).map((each) => [each.word, each.query]),
  );
  if (words.length === 0) {
    return (
      <>
        {why}
        <p>
          Try other or shorter words, or fewer filters; words match names, descriptions, tags, domains and what sites'
          agent documents say they do.
        </p>
      </>
    );
  }
  return (
    <section class="suggestions" aria-labelledby="suggestions-heading">
      {why}
      <p id="suggestions-heading">
        <strong>Nearest words that would match:</strong>
      </p>
      <ul class="choice-list">
        {words.map((word) => (
          <li>
            <a href={searchPageUrl(origin, { ...values, q: queries.get(word) ?? word }, 1)}>{word}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Results({ origin, values, result }: { origin: string; values: SearchFormValues; result: SearchResponse }) {
  const first = (result.page - 1) * result.per_page + 1;
  const pages = Math.max(1, Math.ceil(result.total / result.per_page));
  const selection = result.search_id ? `?search_id=${encodeURIComponent(result.search_id)}` : "";
  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading">Results</h2>
      <p>
        {describeTotal(result)}
        {result.results.length > 0
          ? ` Showing ${first} to ${first + result.results.length - 1}, ${values.q?.trim() ? RELEVANCE_ORDER : "best score first."}`
          : ""}
      </p>
      {result.total > 0 && result.results.length === 0 ? (
        <p>
          This page is past the last one. <a href={searchPageUrl(origin, values, pages)}>Go to page {pages}</a>.
        </p>
      ) : null}
      {result.total === 0 ? <NoMatch origin={origin} values={values} result={result} /> : null}
      <ol class="results" start={first}>
        {result.results.map((site) => (
          <li class="result">
            <div class="result-main">
              <h3 class="result-name">
                <SiteIcon origin={origin} domain={site.domain} hasFavicon={site.has_favicon} />
                <a href={`${siteReportUrl(origin, site.domain)}${selection}`}>{displayText(site.name)}</a>
              </h3>
              <p class="result-domain">
                {site.domain}
                {site.is_verified ? <span class="verified">Verified owner</span> : null}
              </p>
              {site.description ? <p class="result-description">{displayText(site.description)}</p> : null}
              <SignalsAtAGlance flags={site} />
              <CategoryAndTags category={site.category} tags={site.tags} />
            </div>
            <p class={`result-score band-${scoreBand(site.agentic_score)}`}>
              <span class="score-value">{site.agentic_score}</span>
              <span class="score-of">/100</span>
              <span class="visually-hidden"> agent readiness score</span>
            </p>
          </li>
        ))}
      </ol>
      {pages > 1 ? (
        <nav class="pager" aria-label="Pages of results">
          {result.page > 1 ? (
            <a href={searchPageUrl(origin, values, result.page - 1)} rel="prev">
              ← Previous
            </a>
          ) : (
            <span />
          )}
          <span>
            Page {result.page} of {result.total_exact ? pages : `${pages}+`}
          </span>
          {result.has_next ? (
            <a href={searchPageUrl(origin, values, result.page + 1)} rel="next">
              Next →
            </a>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}

export function SearchPage({ origin, values, result, errors }: SearchPageProps) {
  const links = buildSiteLinks(origin);
  const words = values.q?.trim();
  const title = errors?.length
    ? "Search: check the form"
    : result
      ? words
        ? `Search results for “${words}”`
        : "Search results"
      : "Search the index";
  return (
    <Layout
      origin={origin}
      url={links.search}
      title={title}
      description="Search the index of sites scored for how ready they are to be used by AI agents."
      current="home"
    >
      <h1>{title}</h1>
      {errors?.length ? (
        <Notice tone="error" title="The search could not run. Please correct the form:">
          <ul>
            {errors.map((error) => {
              const label = (SEARCH_FIELD_LABELS as Record<string, string>)[error.field] ?? error.field;
              // Every field but the page has an input to jump to.
              return (
                <li>
                  {error.field === "page" ? label : <a href={`#${error.field}`}>{label}</a>} {error.message}.
                </li>
              );
            })}
          </ul>
        </Notice>
      ) : null}
      <SearchForm action={links.search} values={values} errors={errors} />
      {result ? <Results origin={origin} values={values} result={result} /> : null}
      {result ? (
        <p class="muted">
          This search left a query-free receipt: which sites were shown, never what was searched for or by whom. See{" "}
          <a href={links.privacy}>Privacy</a>.
        </p>
      ) : null}
    </Layout>
  );
}

/** The search page's HTML. */
export function renderSearchPage(props: SearchPageProps): Promise<string> {
  return renderPage(<SearchPage {...props} />);
}
