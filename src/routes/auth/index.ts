/** The auth group: e-mail sign-in and the session it creates (the contracts table of ARCHITECTURE.md). */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerCreateSession } from "./create-session.ts";
import { registerSessionRoutes } from "./read-session.ts";
import { registerStartEmailSignIn } from "./start-email-sign-in.ts";

/** Builds the auth group's endpoints. */
export function createAuthGroup(): RouteGroup {
  const routes = createRoutes();
  registerStartEmailSignIn(routes);
  registerCreateSession(routes);
  registerSessionRoutes(routes);
  return { name: "auth", routes };
}

/** The auth group in a Worker: its endpoints; it owns no jobs. */
export const authGroup: GroupDefinition = { name: "auth", createRoutes: createAuthGroup };
