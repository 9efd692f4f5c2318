/**
 * What the e-mailed links do: confirm an address (consent to alerts) and unsubscribe one monitor.
 * Both work without sign-in: the token is the credential (256 random bits, stored hashed). Both
 * are idempotent, so a second press of the same button answers the same.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";

import { DomainError } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";

export const confirmationTokenInvalid = () =>
  new DomainError(
    "not_found",
    "CONFIRMATION_TOKEN_INVALID",
    "This confirmation link is unknown or was replaced by a newer one: use the newest e-mail, or register again.",
  );

export const unsubscribeTokenInvalid = () =>
  new DomainError("not_found", "UNSUBSCRIBE_TOKEN_INVALID", "This unsubscribe link is unknown.");

/** Confirms the address the token was mailed to; alerts of its monitors may go out from now on. */
export async function confirmSubscriber({
  ctx,
  input,
}: {
  ctx: { db: Database };
  input: { token: string };
}): Promise<{ email: string; domains: string[] }> {
  const hash = await sha256Hex(input.token);
  const result = await ctx.db.execute(sql`
    with confirmed as (
      update monitor_subscribers set confirmed_at = coalesce(confirmed_at, now())
      where confirm_token_sha256 = ${hash}
      returning email
    )
    select confirmed.email,
      coalesce((select array_agg(m.domain order by m.domain) from monitors m
                where m.email = confirmed.email and m.unsubscribed_at is null), '{}') as domains
    from confirmed`);
  const row = result.rows[0] as { email: string; domains: string[] } | undefined;
  if (!row) throw confirmationTokenInvalid();
  return { email: row.email, domains: row.domains };
}

/**
 * Whom a confirmation token was mailed to and what its address watches, read only (the GET page,
 * which says what the button will confirm before anything is written).
 */
export async function findSubscriberByConfirmToken({
  ctx,
  input,
}: {
  ctx: { db: Database };
  input: { token: string };
}): Promise<{ email: string; domains: string[]; confirmed: boolean }> {
  const hash = await sha256Hex(input.token);
  const result = await ctx.db.execute(sql`
    select s.email, s.confirmed_at is not null as confirmed,
      coalesce((select array_agg(m.domain order by m.domain) from monitors m
                where m.email = s.email and m.unsubscribed_at is null), '{}') as domains
    from monitor_subscribers s
    where s.confirm_token_sha256 = ${hash}`);
  const row = result.rows[0] as { email: string; domains: string[]; confirmed: boolean } | undefined;
  if (!row) throw confirmationTokenInvalid();
  return { email: row.email, domains: row.domains, confirmed: row.confirmed };
}

/** The monitor behind an unsubscribe token, read only (the GET page). */
export async function findMonitorByUnsubscribeToken({
  ctx,
  input,
}: {
  ctx: { db: Database };
  input: { token: string };
}): Promise<{ domain: string; active: boolean }> {
  const hash = await sha256Hex(input.token);
  const result = await ctx.db.execute(sql`
    select m.domain, m.unsubscribed_at is null as active
    from monitor_tokens t join monitors m on m.id = t.monitor_id
    where t.token_sha256 = ${hash}`);
  const row = result.rows[0] as { domain: string; active: boolean } | undefined;
  if (!row) throw unsubscribeTokenInvalid();
  return row;
}

/** Ends the monitor behind the token: no alert is sent for it afterwards, even one already queued. */
export async function unsubscribeMonitor({
  ctx,
  input,
}: {
  ctx: { db: Database };
  input: { token: string };
}): Promise<{ domain: string }> {
  const hash = await sha256Hex(input.token);
  const result = await ctx.db.execute(sql`
    update monitors m set unsubscribed_at = coalesce(m.unsubscribed_at, now())
    from monitor_tokens t
    where t.token_sha256 = ${hash} and m.id = t.monitor_id
    returning m.domain`);
  const row = result.rows[0] as { domain: string } | undefined;
  if (!row) throw unsubscribeTokenInvalid();
  return row;
}
