/** Serves the agent documents at the site root; what they say is built in the domain's site documents. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  AI_CATALOG_MEDIA_TYPE,
  API_CATALOG_CONTENT_TYPE,
  buildAiPluginManifest,
  buildApiCatalog,
  buildArdManifest,
  buildLlmsFullTxt,
  buildLlmsTxt,
  buildMcpDiscovery,
  buildRobotsTxt,
  buildSiteLinks,
  buildSitemap,
  contactEmailFrom,
  DOCUMENT_CACHE_CONTROL,
  SITE_PATHS,
} from "../../domain/descriptor/site-documents.ts";
import { problemPagePaths } from "../../domain/problem-types.ts";
import type { AppEnv } from "../../http/context.ts";

/** Serves the agent documents at the site root. */
export function registerAgentDocuments(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.llmsTxt, (c) =>
    c.body(buildLlmsTxt(c.var.deps.origin, c.var.endpoints), 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
    }),
  );

  app.get(SITE_PATHS.robotsTxt, (c) =>
    c.body(buildRobotsTxt(c.var.deps.origin), 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
    }),
  );

  app.get(SITE_PATHS.aiPlugin, (c) => {
    c.header("Cache-Control", DOCUMENT_CACHE_CONTROL);
    const mailFrom = (c.env as { MAIL_FROM?: unknown }).MAIL_FROM;
    const contact = contactEmailFrom(typeof mailFrom === "string" ? mailFrom : undefined);
    return c.json(buildAiPluginManifest(c.var.deps.origin, contact), 200);
  });

  // GET, and HEAD through Hono's GET fallback, both carry the api-catalog link RFC 9727 asks for.
  app.get(SITE_PATHS.apiCatalog, (c) => {
    const { origin } = c.var.deps;
    return c.body(`${JSON.stringify(buildApiCatalog(origin), null, 2)}\n`, 200, {
      "Content-Type": API_CATALOG_CONTENT_TYPE,
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
      Link: `<${buildSiteLinks(origin).apiCatalog}>; rel="api-catalog"`,
    });
  });

  // The MCP Registry's HTTP namespace proof, when the operator configured the namespace's key.
  app.get(SITE_PATHS.mcpRegistryAuth, (c) => {
    const key = c.var.deps.config.MCP_REGISTRY_PUBLIC_KEY;
    if (!key) return c.notFound();
    return c.body(`v=MCPv1; k=ed25519; p=${key}\n`, 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
    });
  });

  app.get(SITE_PATHS.mcpDiscovery, (c) => {
    c.header("Cache-Control", DOCUMENT_CACHE_CONTROL);
    return c.json(buildMcpDiscovery(c.var.deps.origin), 200);
  });

  // The ARD manifest at its path and at the AI Catalog's, one document: ARD keeps the catalog's
  // media type (docs/discovery.md, "The service's own discovery documents").
  for (const path of [SITE_PATHS.ard, SITE_PATHS.aiCatalog]) {
    app.get(path, (c) =>
      c.body(`${JSON.stringify(buildArdManifest(c.var.deps.origin), null, 2)}\n`, 200, {
        "Content-Type": AI_CATALOG_MEDIA_TYPE,
        "Cache-Control": DOCUMENT_CACHE_CONTROL,
      }),
    );
  }

  app.get(SITE_PATHS.sitemap, (c) =>
    c.body(buildSitemap(c.var.deps.origin, problemPagePaths()), 200, {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
    }),
  );

  app.get(SITE_PATHS.llmsFullTxt, (c) =>
    c.body(buildLlmsFullTxt(c.var.deps.origin, c.var.endpoints), 200, {
      "Content-Type": "text/markdown; charset=utf-8",
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
    }),
  );
}
