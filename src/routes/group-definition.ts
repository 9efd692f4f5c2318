import type { RouteGroup } from "../http/routes.ts";
import type { GroupJobs } from "../jobs/group-jobs.ts";

/**
 * A group as a Worker runs it: its endpoints and the jobs it owns. Each group's index.ts exports
 * one; a Worker exports `scheduled` / `queue` handlers only for the jobs of the groups it runs.
 * The jobs sit here rather than on RouteGroup because every Worker builds every group's routes
 * (to describe the whole service): only the Workers that run a group bundle its jobs. It lives
 * with the routes, not in http/, because it joins the HTTP layer to the jobs: http/ knows no jobs.
 */
export interface GroupDefinition {
  /** The group's name, as its RouteGroup, its entry `functions/<name>.ts` and `[env.<name>]` say. */
  name: string;
  createRoutes: () => RouteGroup;
  jobs?: GroupJobs;
}
