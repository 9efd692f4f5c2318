/**
 * The report page of an indexed site (`/sites/{domain}`): its score and history, each signal with
 * its evidence and how to fix it, a "check again" action, and the badge to embed. An unknown
 * domain gets a 404 page that offers a live check instead.
 */
import { uncheckableNameSuffix } from "../../domain/crawling/enqueue-stale-recrawls.ts";
import { badgeUrl, buildSiteLinks, siteReportUrl } from "../../domain/descriptor/site-documents.ts";
import { BADGE_HEIGHT, BADGE_LABEL, badgeWidth } from "../badge.ts";
import { CHECK_PROGRESS, Notice, ProgressMessage, ProgressScript, progressId, UrlForm } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { LocalDemoSites } from "../local-demo-sites.tsx";
import { MonitorSignUpForm } from "../monitor-form.tsx";
import { renderPage } from "../render-page.ts";
import { SiteIcon } from "../site-icon.tsx";
import { Report, type SiteReport } from "../site-report.tsx";

/** The Markdown and HTML that embed a site's badge, linking to its report. */
export function badgeSnippets(origin: string, domain: string, score: number) {
  const image = badgeUrl(origin, domain);
  const report = siteReportUrl(origin, domain);
  const alt = `${BADGE_LABEL}: ${score}/100`;
  const width = badgeWidth({ kind: "score", score });
  return {
    markdown: `[![${alt}](${image})](${report})`,
    html: `<a href="${report}"><img src="${image}" alt="${alt}" width="${width}" height="${BADGE_HEIGHT}"></a>`,
  };
}

/** The form that runs a live check of the site again, with its progress message. */
export function CheckAgainForm({ action, url }: { action: string; url: string }) {
  const id = "check-again";
  return (
    <form id={id} class="inline-form" action={action} method="post" data-progress={progressId(id)}>
      <input type="hidden" name="url" value={url} />
      <button type="submit">Check again now</button>
      <ProgressMessage formId={id} text={CHECK_PROGRESS} />
    </form>
  );
}

/**
 * What a report offers for checking the site again: a live check, or for a name reserved never to
 * resolve (the demo index's `.example` sites) why none can reach it, with the local demo sites
 * `npm start` serves instead.
 */
function CheckAgain({
  origin,
  report,
  demoHosts,
}: {
  origin: string;
  report: SiteReport;
  demoHosts: readonly string[];
}) {
  const links = buildSiteLinks(origin);
  const suffix = uncheckableNameSuffix(report.domain);
  if (!suffix) {
    return (
      <>
        <p>
          Fixed something? A live check crawls the site now and shows the new result; when it differs from the index, a
          recrawl is queued to update this page.
        </p>
        <CheckAgainForm action={links.check} url={report.url} />
      </>
    );
  }
  return (
    <>
      <Notice tone="info" title="This site cannot be checked live.">
        <p>
          {report.domain} is under <code>.{suffix}</code>, a name reserved never to resolve on the internet (RFC 2606,
          RFC 6761): it is a synthetic site of the demo index, and no check can reach it. Its report is the demo data.
        </p>
      </Notice>
      {demoHosts.length > 0 ? (
        <>
          <p>These local demo sites are served on this machine and can be checked now, with no network:</p>
          <LocalDemoSites origin={origin} hosts={demoHosts} />
        </>
      ) : (
        <p>
          <a href={links.check}>Check a real site</a> instead.
        </p>
      )}
    </>
  );
}

export function SiteReportPage({
  origin,
  report,
  demoHosts = [],
}: {
  origin: string;
  report: SiteReport;
  demoHosts?: readonly string[];
}) {
  const links = buildSiteLinks(origin);
  const url = siteReportUrl(origin, report.domain);
  const snippets = badgeSnippets(origin, report.domain, report.score);
  return (
    <Layout
      origin={origin}
      url={url}
      title={`${report.name} (${report.domain}): agent readiness ${report.score}/100`}
      description={`How ready ${report.domain} is for AI agents: score ${report.score}/100, each of the seven signals with its evidence, and how to fix what is missing.`}
    >
      <p class="breadcrumb">
        <a href={links.home}>Search</a> › Site report
      </p>
      <h1 class="report-title">
        <SiteIcon origin={origin} domain={report.domain} hasFavicon={report.hasFavicon} />
        <span>{report.name}</span>
      </h1>
      <p class="site-id">
        <a href={report.url}>{report.domain}</a>
        {report.isVerified ? <span class="verified">Verified owner</span> : null}
      </p>
      {report.description ? <p class="lead">{report.description}</p> : null}

      <Report report={report} links={links} kindLinkBase={url} />

      <section aria-labelledby="again-heading">
        <h2 id="again-heading">Check again</h2>
        <CheckAgain origin={origin} report={report} demoHosts={demoHosts} />
      </section>

      <section aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Score-drop alerts</h2>
        <p>Get an e-mail when this score drops or a signal is lost, with the evidence and how to fix it.</p>
        <MonitorSignUpForm origin={origin} domain={report.domain} fixedDomain />
      </section>

      <section aria-labelledby="badge-heading">
        <h2 id="badge-heading">Badge</h2>
        <p>Show the score on your site or in a README; the badge always shows the current score and links here.</p>
        <p>
          <img
            src={badgeUrl(origin, report.domain)}
            alt={`${BADGE_LABEL}: ${report.score}/100`}
            width={badgeWidth({ kind: "score", score: report.score })}
            height={BADGE_HEIGHT}
          />
        </p>
        <label for="badge-markdown">Markdown</label>
        <textarea id="badge-markdown" class="snippet" readonly rows={3}>
          {snippets.markdown}
        </textarea>
        <label for="badge-html">HTML</label>
        <textarea id="badge-html" class="snippet" readonly rows={3}>
          {snippets.html}
        </textarea>
      </section>

      <section aria-labelledby="agents-heading">
        <h2 id="agents-heading">For agents</h2>
        <p>
          The same report as JSON:{" "}
          <a href={`${links.apiBase}/site/${encodeURIComponent(report.domain)}`}>
            <code>GET /api/v1/site/{report.domain}</code>
          </a>
          .
        </p>
      </section>
      <ProgressScript />
    </Layout>
  );
}

/** The report page of an indexed site. */
export function renderSiteReportPage(
  origin: string,
  report: SiteReport,
  demoHosts: readonly string[] = [],
): Promise<string> {
  return renderPage(<SiteReportPage origin={origin} report={report} demoHosts={demoHosts} />);
}

/** The 404 page of a domain the index does not hold: what that means, and a live check of it. */
export function UnknownSitePage({ origin, domain }: { origin: string; domain: string }) {
  const links = buildSiteLinks(origin);
  return (
    <Layout
      origin={origin}
      url={siteReportUrl(origin, domain)}
      title={`${domain} is not in the index`}
      description="The index holds no site by this domain; a live check scores it now."
    >
      <h1>Not in the index</h1>
      <Notice tone="info" title={`The index holds no site called ${domain}.`}>
        <p>
          A live check crawls it now and shows the same report, without adding it. To add it, submit it after the check.
        </p>
      </Notice>
      <UrlForm
        id="check"
        action={links.check}
        method="post"
        label="Site to check"
        button="Check it now"
        value={`https://${domain}`}
        placeholder="https://example.com"
        progress={CHECK_PROGRESS}
      />
      <p>
        Or <a href={links.home}>search the index</a>.
      </p>
      <ProgressScript />
    </Layout>
  );
}

/** The 404 page of an unknown domain. */
export function renderUnknownSitePage(origin: string, domain: string): Promise<string> {
  return renderPage(<UnknownSitePage origin={origin} domain={domain} />);
}
