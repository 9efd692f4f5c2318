/** The numbers of e-mail sign-in and sessions, published in the README. */

/** A sign-in link works once, within this time. */
export const SIGN_IN_TOKEN_LIFETIME_SECONDS = 15 * 60;
/** A session ends this long after sign-in (or earlier, at sign-out). */
export const SESSION_LIFETIME_SECONDS = 14 * 24 * 3600;
/** Sign-in e-mails one address may be sent per hour (spares a mailbox from being flooded). */
export const SIGN_IN_EMAILS_PER_ADDRESS_PER_HOUR = 5;
/** Sign-in requests one client may make per hour, whatever the addresses. */
export const SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR = 20;
/** Session creations (token exchanges) one client may try per hour: guessing tokens is futile anyway. */
export const SESSION_CREATIONS_PER_CLIENT_PER_HOUR = 60;
