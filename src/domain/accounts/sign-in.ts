/**
 * E-mail sign-in: a one-time link by mail, exchanged for a session. It fails closed: no mailer, a
 * mail the provider refused, an expired or used token, a database error — no session. Starting a
 * sign-in answers the same for every well-formed address, known or not, so it reveals nothing
 * about who has an account (an account is made by the first completed sign-in).
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { Mailer } from "../../adapters/mail.ts";
import type { SessionActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import { SESSION_LIFETIME_SECONDS, SIGN_IN_TOKEN_LIFETIME_SECONDS } from "./account-constants.ts";
import { newSecret } from "./secrets.ts";

/** Lower case, trimmed: one account per mailbox however it is typed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The page the e-mailed link opens; it shows a button that POSTs the token (see the web group). */
export const signInLink = (origin: string, token: string) => `${origin}/sign-in?token=${encodeURIComponent(token)}`;

export interface SignInContext {
  db: Database;
  /** Undefined when mail is not configured: sign-in is then unavailable. */
  mailer: Mailer | undefined;
  origin: string;
}

export const mailUnavailable = () =>
  new DomainError(
    "unavailable",
    "MAIL_UNAVAILABLE",
    "Sign-in by e-mail is not available right now: mail cannot be sent.",
  );

/** Stores a new token's hash and mails its link; throws MAIL_UNAVAILABLE when it cannot be sent. */
export async function startEmailSignIn({
  ctx,
  input,
}: {
  ctx: SignInContext;
  input: { email: string };
}): Promise<void> {
  if (!ctx.mailer) throw mailUnavailable();
  const email = normalizeEmail(input.email);
  const token = newSecret("signIn");
  const tokenHash = await sha256Hex(token);
  await ctx.db.execute(sql`
    insert into sign_in_tokens (token_sha256, email, expires_at)
    values (${tokenHash}, ${email}, now() + make_interval(secs => ${SIGN_IN_TOKEN_LIFETIME_SECONDS}))`);
  const link = signInLink(ctx.origin, token);
  try {
    await ctx.mailer.send({
      to: email,
      subject: "Your sign-in link",
      text: [
        "Someone (we hope you) asked to sign in to the agent-readiness search service with this address.",
        "",
        `Open this link within ${SIGN_IN_TOKEN_LIFETIME_SECONDS / 60} minutes and press "Sign in" to finish:`,
        link,
        "",
        "The link works once. If you did not ask for it, ignore this e-mail: nothing happens without the link.",
      ].join("\n"),
    });
  } catch (error) {
    // A link that was never delivered must not stay usable.
    await ctx.db
      .execute(sql`update sign_in_tokens set used_at = now() where token_sha256 = ${tokenHash}`)
      .catch(() => {});
    console.error("sign-in mail not sent", error);
    throw mailUnavailable();
  }
}

export interface CreatedSession {
  /** The raw session token: goes into the cookie, never stored. */
  token: string;
  email: string;
  expiresAt: Date;
}

export const signInTokenInvalid = () =>
  new DomainError(
    "unauthenticated",
    "SIGN_IN_TOKEN_INVALID",
    "This sign-in link is invalid, used or expired: ask for a new one.",
  );

/**
 * Exchanges a sign-in token for a session in one statement: the token is marked used only if it
 * is unused and unexpired, the account is made on first sign-in, and the session is created —
 * all or nothing, so two exchanges of one token make one session.
 */
export async function createSessionFromToken({
  ctx,
  input,
}: {
  ctx: { db: Database };
  input: { token: string };
}): Promise<CreatedSession> {
  const tokenHash = await sha256Hex(input.token);
  const sessionToken = newSecret("session");
  const sessionHash = await sha256Hex(sessionToken);
  const result = await ctx.db.execute(sql`
    with consumed as (
      update sign_in_tokens set used_at = now()
      where token_sha256 = ${tokenHash} and used_at is null and expires_at > now()
      returning email
    ), account as (
      insert into accounts (email) select email from consumed
      on conflict (email) do update set email = excluded.email
      returning id, email
    ), session as (
      insert into sessions (token_sha256, account_id, expires_at)
      select ${sessionHash}, id, now() + make_interval(secs => ${SESSION_LIFETIME_SECONDS}) from account
      returning expires_at
    )
    select account.email, session.expires_at from account, session`);
  const row = result.rows[0] as { email: string; expires_at: string | Date } | undefined;
  if (!row) throw signInTokenInvalid();
  return { token: sessionToken, email: row.email, expiresAt: new Date(row.expires_at) };
}

/** The live session behind a token, or null for unknown, expired and ended sessions alike. */
export async function verifySessionToken(ctx: { db: Database }, token: string): Promise<SessionActor | null> {
  const tokenHash = await sha256Hex(token);
  const result = await ctx.db.execute(sql`
    select s.id as session_id, s.expires_at, a.id as account_id, a.email
    from sessions s join accounts a on a.id = s.account_id
    where s.token_sha256 = ${tokenHash} and s.ended_at is null and s.expires_at > now()`);
  const row = result.rows[0] as
    | { session_id: string; expires_at: string | Date; account_id: string; email: string }
    | undefined;
  if (!row) return null;
  return {
    kind: "session",
    sessionId: row.session_id,
    accountId: row.account_id,
    email: row.email,
    expiresAt: new Date(row.expires_at),
  };
}

/** Ends a session (sign-out); ending an ended one is a no-op. */
export async function endSession(ctx: { db: Database }, sessionId: string): Promise<void> {
  await ctx.db.execute(sql`update sessions set ended_at = now() where id = ${sessionId} and ended_at is null`);
}
