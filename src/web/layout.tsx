/**
 * The one layout of the pages for people: the document head (title, description, canonical link,
 * icon, the service's machine-readable links, the stylesheet), a header with the site navigation,
 * the main landmark and a footer. Every page renders inside it, so every page has the same
 * landmarks, skip link and navigation, and the same Content-Security-Policy fits them all
 * (`pageSecurityHeaders`). Text and attribute values are escaped by JSX.
 */

import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import {
  AI_CATALOG_MEDIA_TYPE,
  buildSiteLinks,
  describeService,
  OPENAPI_MEDIA_TYPE,
  type SiteLinks,
} from "../domain/descriptor/site-documents.ts";
import { MONITOR_PATHS } from "../domain/monitors/monitor-constants.ts";
import { CONSOLE_PATHS } from "./console-paths.ts";
import { SITE_STYLESHEET } from "./styles.ts";

/** The entries of the site navigation, in order; a page names the one it is. */
export type NavEntry = "home" | "check" | "docs" | "privacy" | "api";

const NAV_ENTRIES: { entry: NavEntry; label: string; href: (links: SiteLinks) => string }[] = [
  { entry: "home", label: "Search", href: (links) => links.home },
  { entry: "check", label: "Check a site", href: (links) => links.check },
  { entry: "docs", label: "Docs", href: (links) => links.docs },
  { entry: "privacy", label: "Privacy", href: (links) => links.privacy },
  { entry: "api", label: "API", href: (links) => links.descriptor },
];

/** The id of the main landmark, the skip link's target. */
export const MAIN_ID = "main";

export interface LayoutProps {
  /** The public origin every link is built from. */
  origin: string;
  /** The page's own absolute URL: its canonical link and og:url. */
  url: string;
  title: string;
  description: string;
  /** The navigation entry this page is, marked `aria-current="page"`. */
  current?: NavEntry;
  /** Extra elements for the head, e.g. `<JsonLd>`. */
  head?: Child;
  children?: Child;
}

/** A whole HTML document around a page's main content. */
export function Layout({ origin, url, title, description, current, head, children }: LayoutProps) {
  const links = buildSiteLinks(origin);
  const service = describeService(origin);
  return (
    <>
      {raw("<!doctype html>\n")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{title}</title>
          <meta name="description" content={description} />
          <meta property="og:site_name" content={service.name} />
          <meta property="og:type" content="website" />
          <meta property="og:title" content={title} />
          <meta property="og:description" content={description} />
          <meta property="og:url" content={url} />
          <link rel="canonical" href={url} />
          <link rel="icon" href={links.favicon} type="image/svg+xml" />
          <link rel="service-desc" href={links.openApi} type={OPENAPI_MEDIA_TYPE} />
          <link rel="service-doc" href={links.docs} type="text/html" />
          <link rel="api-catalog" href={links.apiCatalog} />
          <link rel="ard" href={links.ard} type={AI_CATALOG_MEDIA_TYPE} />
          {/* Raw because CSS is not HTML: escaping would turn its quotes into entities. */}
          <style dangerouslySetInnerHTML={{ __html: SITE_STYLESHEET }} />
          {head}
        </head>
        <body>
          <a class="skip-link" href={`#${MAIN_ID}`}>
            Skip to content
          </a>
          <header class="site-header">
            <div class="container">
              <a class="brand" href={links.home}>
                <img src={links.favicon} alt="" width="28" height="28" />
                {service.name}
              </a>
              <nav class="site-nav" aria-label="Site">
                <ul>
                  {NAV_ENTRIES.map(({ entry, label, href }) => (
                    <li>
                      <a href={href(links)} aria-current={entry === current ? "page" : undefined}>
                        {label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            </div>
          </header>
          {/* tabindex -1: the skip link moves keyboard focus here, not only the scroll position. */}
          <main id={MAIN_ID} class="container" tabindex={-1}>
            {children}
          </main>
          <footer class="site-footer">
            <div class="container">
              <p>
                {service.name} {service.version}: a free, neutral index. Organic ordering and scores are never changed
                by anything paid.
              </p>
              <nav aria-label="More">
                <ul>
                  <li>
                    <a href={links.state}>The state of the agent web</a>
                  </li>
                  <li>
                    <a href={links.submit}>Submit a site</a>
                  </li>
                  <li>
                    <a href={links.verifyMcp}>Verify an MCP server</a>
                  </li>
                  <li>
                    <a href={`${origin}${MONITOR_PATHS.signUp}`}>Score-drop alerts</a>
                  </li>
                  <li>
                    <a href={`${origin}${CONSOLE_PATHS.home}`}>Provider console</a>
                  </li>
                  <li>
                    <a href={links.descriptor}>Index descriptor</a>
                  </li>
                  <li>
                    <a href={links.openApi}>OpenAPI</a>
                  </li>
                  <li>
                    <a href={links.mcp}>MCP</a>
                  </li>
                  <li>
                    <a href={links.llmsTxt}>llms.txt</a>
                  </li>
                  <li>
                    <a href={links.privacy}>Privacy</a>
                  </li>
                </ul>
              </nav>
            </div>
          </footer>
        </body>
      </html>
    </>
  );
}
