/**
 * The public web root: the OpenAPI document and its reference page, the home page, the privacy
 * page, and the documents agents look for (llms.txt, robots.txt, the AI plugin manifest, the API
 * catalog, the MCP discovery document). Served at the site root, not under /api/v1.
 */
import { createRoutes, type GroupDefinition, type RouteGroup } from "../../http/routes.ts";
import { registerAgentDocuments } from "./agent-documents.ts";
import { registerApiReference } from "./api-reference.ts";
import { registerHomePage } from "./home-page.ts";
import { registerOpenApiDocument } from "./openapi-document.ts";
import { registerPrivacyPage } from "./privacy-page.ts";

/** Builds the web group's endpoints. */
export function createWebGroup(): RouteGroup {
  const siteRoutes = createRoutes();
  registerOpenApiDocument(siteRoutes);
  registerApiReference(siteRoutes);
  registerHomePage(siteRoutes);
  registerPrivacyPage(siteRoutes);
  registerAgentDocuments(siteRoutes);
  return { name: "web", routes: createRoutes(), siteRoutes };
}

/** The web group in a Worker: its pages and documents; it owns no jobs. */
export const webGroup: GroupDefinition = { name: "web", createRoutes: createWebGroup };
