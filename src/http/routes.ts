/** Route groups: sets of endpoints deployable together as one Worker. */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { GroupJobs } from "../jobs/group-jobs.ts";
import type { AppEnv } from "./context.ts";
import { validationHook } from "./validation.ts";

/** A group of endpoints deployable as its own Worker; its routes are relative to /api/v1. */
export interface RouteGroup {
  name: string;
  routes: OpenAPIHono<AppEnv>;
  /** Routes served at the site root instead (pages, documents); optional. */
  siteRoutes?: OpenAPIHono<AppEnv>;
}

/**
 * A group as a Worker runs it: its endpoints and the jobs it owns. Each group's index.ts exports
 * one; a Worker exports `scheduled` / `queue` handlers only for the jobs of the groups it runs.
 * The jobs sit here rather than on RouteGroup because every Worker builds every group's routes
 * (to describe the whole service): only the Workers that run a group bundle its jobs.
 */
export interface GroupDefinition {
  /** The group's name, as its RouteGroup, its entry `functions/<name>.ts` and `[env.<name>]` say. */
  name: string;
  createRoutes: () => RouteGroup;
  jobs?: GroupJobs;
}

/** A Hono app whose request validation fails in the one problem shape. */
export function createRoutes(): OpenAPIHono<AppEnv> {
  // strict: false so that "/api/v1/" (the spec's GET / under base_url) and "/api/v1" are one route.
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook, strict: false });
}
