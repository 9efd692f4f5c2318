/**
 * The submit page (`/submit`): a form that queues a crawl of a site, after which the site appears
 * in the index with its report. A repeat within the hour says when the first was queued.
 */
import type { Submission } from "../../domain/checks/submit-site.ts";
import { buildSiteLinks, siteReportUrl } from "../../domain/descriptor/site-documents.ts";
import { normalizeDomain } from "../../domain/sites/domain-name.ts";
import { Notice, UrlForm } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

export interface SubmitPageProps {
  origin: string;
  url?: string;
  error?: string;
  submission?: Submission;
}

function SubmissionNotice({ origin, submission }: { origin: string; submission: Submission }) {
  const reportDomain = normalizeDomain(submission.domain);
  const when = `${submission.queued_at.replace("T", " ").slice(0, 19)} UTC`;
  return (
    <Notice
      tone="success"
      title={
        submission.status === "queued"
          ? `${submission.domain} is queued for a crawl.`
          : `${submission.domain} was already queued, at ${when}.`
      }
    >
      <p>
        The crawl runs within minutes and adds the site, or updates it, with its score and evidence. A site is queued at
        most once per {Math.round(submission.dedupe_window_seconds / 60)} minutes.
        {reportDomain ? (
          <>
            {" "}
            Its page will be at <a href={siteReportUrl(origin, reportDomain)}>{siteReportUrl(origin, reportDomain)}</a>.
          </>
        ) : null}
      </p>
    </Notice>
  );
}

export function SubmitPage({ origin, url, error, submission }: SubmitPageProps) {
  const links = buildSiteLinks(origin);
  return (
    <Layout
      origin={origin}
      url={links.submit}
      title="Submit a site"
      description="Add a site to the index: a crawl scores it on the seven signals of agent readiness."
    >
      <h1>Submit a site</h1>
      {submission ? <SubmissionNotice origin={origin} submission={submission} /> : null}
      <p class="lead">
        Add a site to the index. Its name must resolve to a public address; the site is not contacted now, but crawled
        from the queue shortly after.
      </p>
      <UrlForm
        id="submit"
        action={links.submit}
        method="post"
        label={submission ? "Submit another site" : "Site to submit"}
        hint="A web address such as https://example.com; https:// is assumed when no scheme is given."
        button="Submit"
        value={submission ? undefined : url}
        placeholder="https://example.com"
        error={error}
      />
      <p class="muted">
        Free: 30 submissions per hour. To see a site's score now without adding it, <a href={links.check}>check it</a>.
      </p>
    </Layout>
  );
}

/** The submit page: the form, a refusal, or the queued submission. */
export function renderSubmitPage(props: SubmitPageProps): Promise<string> {
  return renderPage(<SubmitPage {...props} />);
}
