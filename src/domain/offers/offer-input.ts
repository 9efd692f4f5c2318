/** The offer request's rules that need the claim: the action URL on the verified domain. */
import { DomainError } from "../errors.ts";

/** An offer request after schema validation (the spec's ProviderOfferRequest). */
export interface OfferInput {
  claim_id?: string | undefined;
  name: string;
  summary: string;
  action_type: string;
  action_url: string;
  charge_event: string;
  bounty_cents: number;
  currency: "usd";
  principal_price_mode: string;
  principal_price_cents?: number | undefined;
  principal_currency: "usd";
  billing_mode: "terms";
  terms_credit_limit_cents?: number | undefined;
  terms_period_days?: number | undefined;
}

const invalidField = (field: string, message: string) =>
  new DomainError("invalid", "VALIDATION_FAILED", `${field} ${message}`, {
    errors: [{ location: "body", field, message }],
  });

/** The host name a domain has in a URL (IDNs in their ASCII form). */
function urlHostOf(domain: string): string {
  return new URL(`https://${domain}/`).hostname;
}

/**
 * Refuses an action URL that is not HTTPS on the claim's domain or one of its subdomains, or that
 * carries a query, a fragment, credentials or a port other than 443. The schema already checked
 * the URL parses; the raw text is checked too, since `?` or `#` alone leave an empty search/hash.
 */
export function assertActionUrlOnDomain(actionUrl: string, domain: string): void {
  const must = `must be an HTTPS URL on ${domain} or its subdomains, without query, fragment, credentials or port`;
  let url: URL;
  try {
    url = new URL(actionUrl);
  } catch {
    throw invalidField("action_url", must);
  }
  const host = url.hostname.toLowerCase();
  const claimed = urlHostOf(domain).toLowerCase();
  const onDomain = host === claimed || host.endsWith(`.${claimed}`);
  if (
    url.protocol !== "https:" ||
    !onDomain ||
    actionUrl.includes("?") ||
    actionUrl.includes("#") ||
    url.username !== "" ||
    url.password !== "" ||
    url.port !== ""
  ) {
    throw invalidField("action_url", must);
  }
}

/** A fixed principal price must be stated; the other modes may state one (a "from" price). */
export function assertPriceCoherent(input: Pick<OfferInput, "principal_price_mode" | "principal_price_cents">): void {
  if (input.principal_price_mode === "fixed" && input.principal_price_cents === undefined) {
    throw invalidField("principal_price_cents", "is required when principal_price_mode is fixed");
  }
}
