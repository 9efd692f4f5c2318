/**
 * The page a person sees when a page cannot be shown: a wrong address, a limit reached, a refused
 * request or a failure of ours. It says what happened in plain words and where to go next; the
 * request id lets an operator find the request in the logs.
 */
import { buildSiteLinks } from "../../domain/descriptor/site-documents.ts";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

export interface ErrorPageProps {
  origin: string;
  /** The page's own URL. */
  url: string;
  status: number;
  title: string;
  message: string;
  requestId: string;
}

export function ErrorPage({ origin, url, status, title, message, requestId }: ErrorPageProps) {
  const links = buildSiteLinks(origin);
  return (
    <Layout origin={origin} url={url} title={title} description={message}>
      <h1>{title}</h1>
      <p class="lead">{message}</p>
      <p>
        <a href={links.home}>Search the index</a> or <a href={links.check}>check a site</a>.
      </p>
      <p class="muted">
        Status {status}; request id <code>{requestId}</code>.
      </p>
    </Layout>
  );
}

/** The error page's HTML. */
export function renderErrorPage(props: ErrorPageProps): Promise<string> {
  return renderPage(<ErrorPage {...props} />);
}
