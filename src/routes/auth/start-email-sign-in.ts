import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  SIGN_IN_EMAILS_PER_ADDRESS_PER_HOUR,
  SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR,
} from "../../domain/accounts/account-constants.ts";

import { normalizeEmail, startEmailSignIn } from "../../domain/accounts/sign-in.ts";
import { sha256Hex } from "../../domain/sha256.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";

export const SignInRequestSchema = z
  .strictObject({ email: z.email({ error: "must be an e-mail address" }).max(254) })
  .openapi("SignInRequest");

export const startEmailSignInRoute = createRoute({
  method: "post",
  path: "/auth/email",
  operationId: "startEmailSignIn",
  tags: ["auth"],
  summary: "E-mail a one-time sign-in link",
  description: `Sends a sign-in link to the address (single use, 15 minutes). Answers the same 202 for every well-formed address, so it tells nobody whether an account exists. At most ${SIGN_IN_EMAILS_PER_ADDRESS_PER_HOUR} e-mails per address and ${SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR} requests per client per hour; 503 MAIL_UNAVAILABLE when mail is not configured or the mail could not be sent.`,
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: SignInRequestSchema } } } },
  responses: {
    202: {
      description: "The link is on its way (if the address can receive mail)",
      content: { "application/json": { schema: z.object({ sent: z.literal(true) }).openapi("SignInStarted") } },
    },
    ...problemResponses(400, 429, 503),
  },
});

export function registerStartEmailSignIn(app: OpenAPIHono<AppEnv>) {
  app.openapi(startEmailSignInRoute, async (c) => {
    const { email } = c.req.valid("json");
    await spendRateLimit(c, { name: "sign-in-client", limit: SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR, window: "1 h" });
    // Counted by a hash of the address, so Redis never holds the address itself.
    const addressKey = `email:${await sha256Hex(normalizeEmail(email))}`;
    await spendRateLimit(c, {
      name: "sign-in-address",
      limit: SIGN_IN_EMAILS_PER_ADDRESS_PER_HOUR,
      window: "1 h",
      identify: () => addressKey,
    });
    await startEmailSignIn({ ctx: c.var.deps, input: { email } });
    c.header("Cache-Control", "no-store");
    return c.json({ sent: true as const }, 202);
  });
}
