/**
 * Who a domain operation acts for. Every request starts anonymous; the session and provider-key
 * middleware replace the actor once a credential is verified, so an operation can authorize
 * without knowing how the credential was carried.
 */
export type Actor = AnonymousActor | SessionActor | ProviderKeyActor;

/** A caller without credentials: counted against free limits by its client identity only. */
export interface AnonymousActor {
  kind: "anonymous";
}

/** A person signed in by e-mail link (the `svc_session` cookie). */
export interface SessionActor {
  kind: "session";
  accountId: string;
  email: string;
  sessionId: string;
  expiresAt: Date;
}

/**
 * A provider calling with its claim-scoped key (`X-SVC-Provider-Key`). Present only while the
 * key is active and its claim verified and fresh: the middleware checks both before setting it.
 */
export interface ProviderKeyActor {
  kind: "provider_key";
  /** int64, as a decimal string (JSON numbers cannot hold every int64). */
  keyId: string;
  claimId: string;
  accountId: string;
  domain: string;
}

export const ANONYMOUS: AnonymousActor = { kind: "anonymous" };
