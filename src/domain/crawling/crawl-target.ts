/** What a user-supplied URL to check, submit or crawl stands for: its origin and its domain. */

import { checkTargetUrl, describeNonPublicName } from "../../adapters/outbound/address-policy.ts";
import { DomainError } from "../errors.ts";
import { normalizeDomain } from "../sites/domain-name.ts";

export interface CrawlTarget {
  /** e.g. https://example.com; crawls start from the origin, whatever path was given. */
  origin: string;
  /** The index's key for the site. */
  domain: string;
}

/**
 * Validates a URL given to /check or /submit. The index keys sites by host name, so an address
 * is refused; with FETCH_ALLOW_PRIVATE (development and tests only) the host and port are the key,
 * so local sites on different ports stay apart.
 */
export function parseCrawlTarget(input: string, allowPrivate: boolean): CrawlTarget {
  if (!/^https?:\/\//i.test(input.trim())) {
    throw new DomainError(
      "invalid",
      "INVALID_URL",
      "url must be an absolute http or https URL, e.g. https://example.com.",
    );
  }
  const verdict = checkTargetUrl(input.trim(), { allowPrivate });
  if (!verdict.ok) throw targetRefusalError(verdict);
  const { url } = verdict;
  const hostname = normalizeDomain(url.hostname) ?? (allowPrivate ? url.hostname.replace(/\.$/, "") : null);
  if (!hostname) {
    throw new DomainError("invalid", "INVALID_URL", "url must name a site by its domain name, not an address.");
  }
  // A port other than the scheme's own can only be there in development (the guards refuse it
  // otherwise); it stays part of the key then.
  const host = url.port ? `${hostname}:${url.port}` : hostname;
  return { origin: `${url.protocol}//${host}`, domain: host };
}

/**
 * The 400 for a URL the static checks refused: INVALID_URL when it is malformed (it could name
 * no site at all), URL_NOT_ALLOWED when it is well formed but out of bounds.
 */
export function targetRefusalError(refusal: { reason: string; malformed: boolean }): DomainError {
  return refusal.malformed
    ? new DomainError("invalid", "INVALID_URL", `url is not usable: ${refusal.reason}.`)
    : new DomainError("invalid", "URL_NOT_ALLOWED", `url is not allowed: ${refusal.reason}.`);
}

/** The 400 for a target refused only once its name was resolved (a private address behind it). */
export function refusedTargetError(message: string): DomainError {
  return new DomainError("invalid", "URL_NOT_ALLOWED", `url is not allowed: ${message}.`);
}

/**
 * The same rule for an entry point that takes a domain rather than a URL (monitors, claims):
 * DOMAIN_NOT_ALLOWED (400) with the reason /check gives, for a special-use or private-network
 * name. Off with FETCH_ALLOW_PRIVATE, as the URL rules are. `domain` is already normalised.
 */
export function refuseNonPublicDomain(domain: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const reason = describeNonPublicName(domain);
  if (reason) throw nonPublicDomainError(reason);
}

/** The 400 for a domain that names no public site, by name or by the addresses behind it. */
export function nonPublicDomainError(reason: string): DomainError {
  return new DomainError("invalid", "DOMAIN_NOT_ALLOWED", `domain is not allowed: ${reason}.`);
}
