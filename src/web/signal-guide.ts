/**
 * What each of the seven signals means to a site owner, in plain words: its name, what it is, how
 * to publish it, and the standard that defines it. The report pages show this beside the evidence
 * of the last crawl or live check; the rules that decide each signal are in docs/crawling.md.
 */

import type { SiteLinks } from "../domain/descriptor/site-documents.ts";
import type { SignalEvidence } from "../domain/signals/types.ts";
import type { SignalField } from "../domain/sites/site-fields.ts";

/** How each signal is named for people. */
export const SIGNAL_LABELS: Record<SignalField, string> = {
  has_llms_txt: "llms.txt",
  has_ai_plugin: "AI plugin manifest",
  has_openapi: "OpenAPI document",
  has_structured_api: "Structured API",
  has_mcp_server: "MCP server",
  has_robots_ai: "AI rules in robots.txt",
  has_schema_org: "schema.org markup",
};

/** A link to a standard or an example. */
export interface GuideLink {
  label: string;
  href: string;
}

export interface SignalGuide {
  label: string;
  /** One sentence: what an agent gets from it. */
  purpose: string;
  /** How to publish it, for a site where it is absent. */
  howToAdd: string;
  /** The standards that define it (the AI plugin manifest has none left online). */
  standards: GuideLink[];
  /** This service's own document of the kind, as a working example. */
  example: (links: SiteLinks) => GuideLink;
}

export const SIGNAL_GUIDES: Record<SignalField, SignalGuide> = {
  has_llms_txt: {
    label: SIGNAL_LABELS.has_llms_txt,
    purpose: "A short Markdown guide to the site written for language models.",
    howToAdd:
      "Publish a Markdown file at /llms.txt, served as text rather than an HTML page. Its first line is a heading (# Your site's name), then a one-line summary after a >, then lists of links to your most useful pages and documents.",
    standards: [{ label: "The llms.txt proposal (llmstxt.org)", href: "https://llmstxt.org/" }],
    example: (links) => ({ label: "this service's llms.txt", href: links.llmsTxt }),
  },
  has_ai_plugin: {
    label: SIGNAL_LABELS.has_ai_plugin,
    purpose:
      "A JSON manifest naming the site's API for AI assistants: the format of ChatGPT plugins, which were retired in April 2024, so it is legacy.",
    howToAdd:
      'ChatGPT plugins were retired in April 2024: for agents today, publish an MCP server, an OpenAPI document, or an AI Catalog at /.well-known/ai-catalog.json naming them. The legacy manifest still counts here: a JSON file at /.well-known/ai-plugin.json with schema_version ("v1"), name_for_human, name_for_model, description_for_human, description_for_model, an auth object (for example {"type": "none"}) and an api object whose url points at your OpenAPI document.',
    standards: [],
    example: (links) => ({ label: "this service's manifest", href: links.aiPlugin }),
  },
  has_openapi: {
    label: SIGNAL_LABELS.has_openapi,
    purpose: "A machine-readable description of the site's API, so an agent can call it without guessing.",
    howToAdd:
      'Publish an OpenAPI 3 (or Swagger 2) document with at least one path, at /openapi.json or /openapi.yaml, or anywhere you point to from your home page with a Link header rel="service-desc" or from /.well-known/api-catalog.',
    standards: [{ label: "OpenAPI Specification", href: "https://spec.openapis.org/oas/latest.html" }],
    example: (links) => ({ label: "this service's OpenAPI document", href: links.openApi }),
  },
  has_structured_api: {
    label: SIGNAL_LABELS.has_structured_api,
    purpose: "A callable API an agent can find on its own.",
    howToAdd:
      "Declare your API in an API catalog at /.well-known/api-catalog (a linkset whose anchor is the API, with service-desc or service-doc links), or answer JSON at /api or /api/v1, or GraphQL at /graphql.",
    standards: [{ label: "RFC 9727: the api-catalog well-known URI", href: "https://www.rfc-editor.org/rfc/rfc9727" }],
    example: (links) => ({ label: "this service's API catalog", href: links.apiCatalog }),
  },
  has_mcp_server: {
    label: SIGNAL_LABELS.has_mcp_server,
    purpose: "A Model Context Protocol server: tools an agent can call directly.",
    howToAdd:
      "Run an MCP server over the Streamable HTTP transport at /mcp, or anywhere you name in an AI Catalog at /.well-known/ai-catalog.json (an entry of type application/mcp-server-card+json pointing at its server card, served at <endpoint>/server-card) or in /.well-known/mcp.json. It must answer server/discover and tools/list (the 2026-07-28 protocol) or initialize and tools/list (2025); a server behind OAuth counts when it answers 401 with a WWW-Authenticate: Bearer challenge.",
    standards: [
      {
        label: "MCP specification: transports",
        href: "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports",
      },
    ],
    example: (links) => ({ label: "this service's MCP discovery document", href: links.mcpDiscovery }),
  },
  has_robots_ai: {
    label: SIGNAL_LABELS.has_robots_ai,
    purpose: "Rules in robots.txt that say what AI crawlers and agents may do.",
    howToAdd:
      "Add a group to /robots.txt that names AI crawlers (for example User-agent: GPTBot and User-agent: ClaudeBot) with the rules you want for them, a Content-Signal line such as Content-Signal: search=yes, ai-train=no, or an IETF AIPREF line such as Content-Usage: / train-ai=n; or send the same preferences as a Content-Usage: train-ai=n response header on your home page. A User-agent: * group alone says nothing about AI.",
    standards: [
      { label: "RFC 9309: the Robots Exclusion Protocol", href: "https://www.rfc-editor.org/rfc/rfc9309" },
      { label: "Content Signals", href: "https://contentsignals.org/" },
      {
        label: "IETF AIPREF: associating AI usage preferences with content",
        href: "https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/",
      },
    ],
    example: (links) => ({ label: "this service's robots.txt", href: links.robotsTxt }),
  },
  has_schema_org: {
    label: SIGNAL_LABELS.has_schema_org,
    purpose: "Structured data on the home page that says what the site is.",
    howToAdd:
      'Describe the site on its home page in schema.org terms, most simply with a <script type="application/ld+json"> block holding "@context": "https://schema.org" and an "@type" such as Organization, WebSite or Product.',
    standards: [{ label: "schema.org: getting started", href: "https://schema.org/docs/gs.html" }],
    example: () => ({ label: "schema.org's WebSite type", href: "https://schema.org/WebSite" }),
  },
};

/** What its owner can do about a signal that is not present, in plain words. */
export function adviceFor(field: SignalField, status: Exclude<SignalEvidence["status"], "present">): string {
  switch (status) {
    case "absent":
      return SIGNAL_GUIDES[field].howToAdd;
    case "blocked":
      return "The site refused our crawler here (an access-denied or rate-limit status, or a bot challenge), so we could not tell whether it is there. Let the crawler through for these addresses in your firewall or bot protection; then check again.";
    case "error":
      return "The fetch failed: no answer in time, a server error, an oversized answer or a broken redirect. Make sure these addresses answer quickly with status 200; then check again.";
  }
}

/** The states a signal can be in, as people read them; the symbol keeps them apart without colour. */
export const STATUS_LABELS: Record<SignalEvidence["status"], { symbol: string; text: string }> = {
  present: { symbol: "✓", text: "Present" },
  absent: { symbol: "✗", text: "Absent" },
  blocked: { symbol: "⚠", text: "Blocked" },
  error: { symbol: "!", text: "Error" },
};
