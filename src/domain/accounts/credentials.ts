/**
 * What verifying a credential can conclude. The operations that look credentials up (by their
 * SHA-256, never the raw value) return these, and the HTTP middleware turns them into replies.
 */
import type { ProviderKeyActor, SessionActor } from "../actor.ts";
import type { DomainContext } from "../context.ts";

/** A session token resolves to its live session, or to nothing (unknown, expired or ended alike). */
export type VerifySession = (ctx: DomainContext, token: string) => Promise<SessionActor | null>;

export type ProviderKeyVerification =
  | { status: "active"; actor: ProviderKeyActor }
  /** Unknown, malformed, rotated away or revoked: indistinguishable to the caller. */
  | { status: "invalid" }
  /**
   * The key is active but its claim is no longer fresh: its last successful DNS check is 604800 s
   * old or more. Failed rechecks alone do not stop a key: the claim stays verified, and its key
   * works, until the third consecutive failure revokes both.
   */
  | { status: "claim_not_fresh" };

export type VerifyProviderKey = (ctx: DomainContext, key: string) => Promise<ProviderKeyVerification>;
