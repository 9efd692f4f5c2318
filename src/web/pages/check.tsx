/**
 * The check page (`/check`): a form that crawls any site live and shows the same report as an
 * indexed site's page, with a progress message while the crawl runs. Refused and unreachable
 * targets are said in plain words; the form keeps what was typed.
 */

import { buildSiteLinks, siteReportUrl } from "../../domain/descriptor/site-documents.ts";
import { normalizeDomain } from "../../domain/sites/domain-name.ts";
import { CHECK_PROGRESS, Notice, ProgressScript, UrlForm } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { LocalDemoSites } from "../local-demo-sites.tsx";
import { renderPage } from "../render-page.ts";
import { Report, type SiteReport, wasRead } from "../site-report.tsx";

export interface CheckPageProps {
  origin: string;
  /** What was typed, shown again in the field. */
  url?: string;
  /** Why the check was not run, in plain words. */
  error?: string;
  report?: SiteReport;
  /** `npm start`'s local demo sites (LOCAL_DEMO_HOSTS), offered for a check offline; none deployed. */
  demoHosts?: readonly string[];
}

function CheckForm({ origin, url, error, again }: { origin: string; url?: string; error?: string; again: boolean }) {
  return (
    <UrlForm
      id="check"
      action={buildSiteLinks(origin).check}
      method="post"
      label={again ? "Check another site" : "Site to check"}
      hint="A web address such as https://example.com; only the site's origin is crawled, and https:// is assumed when no scheme is given."
      button="Check"
      value={url}
      placeholder="https://example.com"
      error={error}
      progress={CHECK_PROGRESS}
    />
  );
}

/** What follows a live result: the site's page when indexed, an offer to submit it when not. */
function AfterCheck({ origin, report }: { origin: string; report: SiteReport }) {
  const links = buildSiteLinks(origin);
  const reportDomain = normalizeDomain(report.domain);
  if (report.indexed) {
    return (
      <Notice tone="info" title="This site is in the index.">
        <p>
          {report.recrawlQueued
            ? "The live result differs from the indexed one, so a recrawl was queued; the index updates within minutes. "
            : ""}
          {reportDomain ? (
            <>
              See <a href={siteReportUrl(origin, reportDomain)}>its page</a> for the score history and the badge.
            </>
          ) : null}
        </p>
      </Notice>
    );
  }
  return (
    <Notice tone="info" title="This site is not in the index yet.">
      <p>A check never adds a site. Submit it, and a crawl adds it within minutes.</p>
      <form class="inline-form" action={links.submit} method="post">
        <input type="hidden" name="url" value={report.url} />
        <button type="submit">Submit {report.domain}</button>
      </form>
    </Notice>
  );
}

export function CheckPage({ origin, url, error, report, demoHosts }: CheckPageProps) {
  const links = buildSiteLinks(origin);
  return (
    <Layout
      origin={origin}
      url={links.check}
      title={report ? `Live check of ${report.domain}${wasRead(report) ? "" : ": not reached"}` : "Check a site"}
      description="Check any site live: its agent readiness score and each of the seven signals, with the evidence and how to fix what is missing."
      current="check"
    >
      {report ? (
        <>
          <h1>Live check of {report.domain}</h1>
          <p class="site-id">
            <a href={report.url}>{report.url}</a>
            {report.name && report.name !== report.domain ? <> · {report.name}</> : null}
          </p>
          {/* What happened comes first; what to do with the result (its page, submitting it) after. */}
          <Report report={report} links={links} />
          {wasRead(report) || report.indexed ? <AfterCheck origin={origin} report={report} /> : null}
          <section aria-labelledby="another-heading">
            <h2 id="another-heading">Another check</h2>
            <CheckForm origin={origin} again={true} />
          </section>
        </>
      ) : (
        <>
          <h1>Check a site</h1>
          <p class="lead">
            Crawl any site now and see how ready it is for AI agents: the score, each of the seven signals with what we
            found, and how to fix what is missing. Nothing is written to the index.
          </p>
          <CheckForm origin={origin} url={url} error={error} again={false} />
          <p class="muted">
            Free: 10 checks per hour. To add a site to the index, <a href={links.submit}>submit it</a>; to test an MCP
            server alone, <a href={links.verifyMcp}>verify it</a>.
          </p>
          {demoHosts?.length ? (
            <section aria-labelledby="demo-heading">
              <h2 id="demo-heading">Local demo sites</h2>
              <p>This local service also serves demo sites on this machine, so a check can be tried with no network:</p>
              <LocalDemoSites origin={origin} hosts={demoHosts} />
            </section>
          ) : null}
        </>
      )}
      <ProgressScript />
    </Layout>
  );
}

/** The check page: the form, a refusal, or a live report. */
export function renderCheckPage(props: CheckPageProps): Promise<string> {
  return renderPage(<CheckPage {...props} />);
}
