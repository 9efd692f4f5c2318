/** Schemas shared by the sign-in and session routes. */
import { z } from "@hono/zod-openapi";
import { SESSION_COOKIE } from "../../http/middleware/require-session.ts";

export const SessionSchema = z
  .object({
    email: z.email(),
    expires_at: z.iso.datetime().openapi({ description: "When the session ends unless ended earlier" }),
  })
  .openapi("Session");

/** The OpenAPI security requirement of session routes. */
export const SESSION_SECURITY = [{ humanSession: [] }];

/** The session cookie's attributes (HttpOnly; Secure; SameSite=Lax; Path=/). */
export const sessionCookieOptions = (expires: Date) =>
  ({ httpOnly: true, secure: true, sameSite: "Lax", path: "/", expires }) as const;

export { SESSION_COOKIE };
