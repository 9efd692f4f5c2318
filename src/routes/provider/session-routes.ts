/**
 * What the provider endpoints on a session share: the session check (and the same-origin rule on
 * mutations, since the session is a browser cookie) and the shape of their JSON answers.
 */
import type { z } from "@hono/zod-openapi";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { requireSameOrigin } from "../../http/middleware/require-same-origin.ts";
import { requireSession } from "../../http/middleware/require-session.ts";

/** A read on a session. */
export const sessionReadMiddleware = () => [requireSession({ verify: verifySessionToken })];

/** A mutation on a session: only from the service's own pages or same-origin clients. */
export const sessionMutationMiddleware = () => [requireSession({ verify: verifySessionToken }), requireSameOrigin()];

/** A JSON answer of `schema`. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
