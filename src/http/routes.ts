/** Route groups: sets of endpoints deployable together as one Worker. */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./context.ts";
import { validationHook } from "./validation.ts";

/** Where every API route lives: the spec's base_url path. */
export const API_PREFIX = "/api/v1";

/** Where the ARD registry lives (ARD v0.91 §5.3; docs/discovery.md, "The ARD registry"). */
export const ARD_PREFIX = "/ard/v1";

/** A group of endpoints deployable as its own Worker; its routes are relative to /api/v1. */
export interface RouteGroup {
  name: string;
  routes: OpenAPIHono<AppEnv>;
  /** Routes served at the site root instead (pages, documents); optional. */
  siteRoutes?: OpenAPIHono<AppEnv>;
  /**
   * The ARD registry's routes, relative to ARD_PREFIX (optional). API operations like the others
   * (in the OpenAPI document, with the site root as their server), under ARD's own base URL.
   */
  ardRoutes?: OpenAPIHono<AppEnv>;
}

/** A Hono app whose request validation fails in the one problem shape. */
export function createRoutes(): OpenAPIHono<AppEnv> {
  // strict: false so that "/api/v1/" (the spec's GET / under base_url) and "/api/v1" are one route.
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook, strict: false });
}
