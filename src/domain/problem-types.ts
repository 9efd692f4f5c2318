/**
 * Every problem code the service answers with, in one table: its HTTP status, the problem type's
 * title (RFC 9457 §3.1.4: the same for every occurrence of the type), and in plain words what
 * happened and what to do. Each problem's `type` is `<origin>/problems/<code-in-kebab-case>`, and
 * that URL serves this entry as a page (src/routes/web/problem-pages.ts): HTML for a browser,
 * Markdown for an agent.
 *
 * Emitters take their codes from here: `DomainError` and `HttpProblem` accept only a
 * `ProblemCode`, so a code missing from the table fails the typecheck, and
 * test/unit/problem-types.test.ts scans the sources both ways (every code emitted is listed,
 * every listed code is emitted somewhere). It lives in the domain because domain errors name
 * their codes; it knows no transport beyond the status numbers it documents.
 */

export interface ProblemType {
  /** The status the code answers with; a few codes answer with one of two (the first is the usual one). */
  status: number | readonly [number, number];
  /** The problem type's short summary, the problem document's `title`. */
  title: string;
  /** What happened, in plain words. */
  happened: string;
  /** What the client or person can do about it. */
  todo: string;
}

export const PROBLEM_TYPES = {
  // The request itself: its shape, size and encoding.
  VALIDATION_FAILED: {
    status: 400,
    title: "Invalid request",
    happened:
      "One or more fields of the request break the documented rules: a value is missing, of the wrong type, out of range or unknown. `errors` lists each one with where it was (query, path, header, body or an MCP tool's arguments), its name and what is wrong.",
    todo: "Fix the fields `errors` names and send the request again; the OpenAPI document (/openapi.json) gives every field's rules.",
  },
  BAD_REQUEST: {
    status: 400,
    title: "Bad request",
    happened:
      "The request could not be read as HTTP the service serves, for example a malformed request line or header.",
    todo: "Send a well-formed HTTP request; `detail` says what was wrong.",
  },
  INVALID_JSON: {
    status: 400,
    title: "Invalid JSON",
    happened: "The request body was sent as JSON but is not valid JSON.",
    todo: "Send a body that parses as JSON (RFC 8259), with Content-Type: application/json.",
  },
  INVALID_CONTENT_TYPE: {
    status: 400,
    title: "Invalid content type",
    happened: "The request has a body, but not one declared as JSON.",
    todo: "Send the body as JSON with Content-Type: application/json.",
  },
  CONTENT_TOO_LARGE: {
    status: 413,
    title: "Content too large",
    happened:
      "The request body is larger than the service reads (`limit_bytes`); it was refused from its declared length, before it was read.",
    todo: "Send a smaller body. No endpoint needs more than `limit_bytes`.",
  },
  URI_TOO_LONG: {
    status: 414,
    title: "URI too long",
    happened: "The request's path and query are longer than the service reads (`limit_bytes`).",
    todo: "Shorten the query: long inputs belong in a POST body where an endpoint takes one.",
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    title: "Request header fields too large",
    happened:
      "The request's header fields together are larger than the service reads (`limit_bytes`); `detail` names the largest.",
    todo: "Send fewer or smaller headers (often an oversized cookie).",
  },
  EXPECTATION_FAILED: {
    status: 417,
    title: "Expectation failed",
    happened:
      "The request carried an `Expect` header the service does not meet. The local stack's edge (`npm start`) answers `Expect: 100-continue` itself and refuses any other expectation.",
    todo: "Send the request without that `Expect` header.",
  },
  MISDIRECTED_REQUEST: {
    status: 421,
    title: "Misdirected request",
    happened:
      "The request's `Host` is not one the local service (`npm start`) answers: it serves only its loopback addresses and its configured public origin, so a web page that rebinds its own name to 127.0.0.1 cannot drive it (DNS rebinding).",
    todo: "Call the local service by the address `npm start` printed, e.g. http://127.0.0.1:8787/, or set PUBLIC_ORIGIN to the name you use.",
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    title: "Origin not allowed",
    happened:
      "The request came from a web page of another origin than the local service's own (`Origin` header), which the local service (`npm start`) refuses so that no other site can drive it.",
    todo: "Call the local service from its own pages, from a script or from an MCP client without a foreign `Origin`.",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    title: "Method not allowed",
    happened: "The path exists but does not take this method; the `Allow` header lists the methods it takes.",
    todo: "Use one of the methods in `Allow`.",
  },
  NOT_FOUND: {
    status: 404,
    title: "Not found",
    happened: "Nothing is at this path, or the resource it names does not exist.",
    todo: "Check the path against the OpenAPI document (/openapi.json) or the list of pages (/sitemap.xml).",
  },
  INVALID_PAGE_TOKEN: {
    status: 400,
    title: "Invalid page token",
    happened: "The `page_token` (or cursor) is not one this service issued for this query, or it has expired.",
    todo: "Start again from the first page with the same query, and pass the next page's token as it was returned.",
  },
  INVALID_DAYS: {
    status: 400,
    title: "Invalid period",
    happened: "The period asked for is not a whole number of days in the range the report covers.",
    todo: "Ask for a period in the range `detail` gives.",
  },
  INVALID_FILTER: {
    status: 400,
    title: "Invalid filter",
    happened: "A registry filter has no values, or a value its key does not take (a score, a boolean, a date).",
    todo: "Give each filter key values of its type; `detail` names the key and what it takes.",
  },
  UNSUPPORTED_FILTER: {
    status: 400,
    title: "Unsupported filter",
    happened: "The registry query filters on a key the registry does not index.",
    todo: "Filter only on the keys the registry documents; `detail` lists them.",
  },
  UNSUPPORTED_FACET: {
    status: 400,
    title: "Unsupported facet",
    happened: "The registry query asks for a facet the registry does not count.",
    todo: "Ask only for the facets `detail` lists.",
  },
  UNSUPPORTED_ORDER: {
    status: 400,
    title: "Order not supported",
    happened: "The listing was asked for in an order it does not offer.",
    todo: "Use one of the orders `detail` names, or leave the order out.",
  },
  INVALID_IDENTIFIER: {
    status: 400,
    title: "Invalid identifier",
    happened:
      "The agent identifier is not one the registry issues (a site's domain, or a domain with a resource path).",
    todo: "Use an identifier exactly as a registry search returned it.",
  },

  // Sites, checks and submissions.
  INVALID_URL: {
    status: 400,
    title: "Invalid URL",
    happened: "The URL cannot name a site: it is not an absolute http or https URL, or it is malformed.",
    todo: "Send an absolute URL such as https://example.com (the web form also takes a bare host name).",
  },
  URL_NOT_ALLOWED: {
    status: 400,
    title: "URL not allowed",
    happened:
      "The URL is well formed but the service will not fetch it: a port other than 80 or 443, credentials in it, or a name or address that is not public (loopback, a private network, a reserved name), before or after DNS resolution.",
    todo: "Check a public site on its usual port. On `npm start`, the local demo sites it prints are the one exception.",
  },
  INVALID_DOMAIN: {
    status: 400,
    title: "Invalid domain",
    happened: "The domain is not a host name a site can have.",
    todo: "Send a host name such as example.com, without a scheme, path or port.",
  },
  INVALID_HOST: {
    status: 400,
    title: "Invalid host",
    happened: "The host given for an order is not a site's domain name.",
    todo: "Give the domain of the site the order is for, such as example.com.",
  },
  DOMAIN_NOT_ALLOWED: {
    status: 400,
    title: "Domain not allowed",
    happened:
      "The domain names no public site: a special-use or private-network name, or one that resolves to a private address.",
    todo: "Use a public domain name.",
  },
  SITE_NOT_FOUND: {
    status: 404,
    title: "Site not found",
    happened: "No indexed site has this domain.",
    todo: "Check the site live (POST /api/v1/check or the /check page) or submit it to the index (POST /api/v1/submit).",
  },
  CRAWL_QUEUE_UNAVAILABLE: {
    status: 503,
    title: "Crawl queue unavailable",
    happened: "The crawl could not be queued just now; nothing was recorded.",
    todo: "Retry after the `Retry-After` seconds.",
  },

  // Limits and the service's own state.
  RATE_LIMITED: {
    status: 429,
    title: "Too many requests",
    happened:
      "This client (or this priority key) used up a documented limit for now; the `RateLimit` headers and `retry_after_seconds` say when it resumes.",
    todo: "Wait `Retry-After` seconds. A priority key (GET /api/v1/catalog) raises the limits of search and checks.",
  },
  RATE_LIMIT_UNAVAILABLE: {
    status: 503,
    title: "Rate limiting unavailable",
    happened:
      "The store that counts this endpoint's limit could not be reached, and this endpoint does not run uncounted.",
    todo: "Retry after the `Retry-After` seconds.",
  },
  DEPENDENCY_UNAVAILABLE: {
    status: 503,
    title: "Service unavailable",
    happened:
      "A store the service needs (the database, Redis, the checks Worker) could not be reached or did not answer in time; nothing was written.",
    todo: "Retry after the `Retry-After` seconds; `detail` names what is down.",
  },
  IDEMPOTENCY_UNAVAILABLE: {
    status: 503,
    title: "Idempotency unavailable",
    happened:
      "The lock that keeps an idempotent write from running twice could not be taken, so the write was refused rather than risk a double.",
    todo: "Retry after the `Retry-After` seconds with the same Idempotency-Key.",
  },
  MAIL_UNAVAILABLE: {
    status: 503,
    title: "Mail unavailable",
    happened:
      "No mailer is configured or it could not send, so no e-mail (sign-in link, monitor confirmation) went out.",
    todo: "Retry later. Locally, `npm start` keeps every message in its outbox.",
  },
  PAYMENTS_UNAVAILABLE: {
    status: 503,
    title: "Payments unavailable",
    happened: "No payment provider is configured, so nothing can be bought; every free feature keeps working.",
    todo: "Retry later, or use the free features.",
  },
  SIGNING_UNAVAILABLE: {
    status: 503,
    title: "Signing unavailable",
    happened:
      "The keys that sign attribution tokens and receipts are not configured, and the service never answers unsigned.",
    todo: "Retry later.",
  },
  SERVICE_MISCONFIGURED: {
    status: 500,
    title: "Service misconfigured",
    happened: "A setting the service needs for this request is missing or invalid.",
    todo: "Nothing on your side: retry later. An operator fixes the configuration.",
  },
  DEMAND_QUERY_FAILED: {
    status: 500,
    title: "Demand query failed",
    happened: "The demand report could not be computed.",
    todo: "Retry later; the report is read-only, so a retry is safe.",
  },
  INTERNAL_ERROR: {
    status: 500,
    title: "Internal error",
    happened: "The service failed to handle the request. No internal message leaves the service.",
    todo: "Retry later; quote `request_id` when you report it.",
  },

  // Browsers, sessions and keys.
  CROSS_ORIGIN_MUTATION: {
    status: 403,
    title: "Cross-origin request refused",
    happened: "A browser sent this change from another site's page; the service refuses cross-site mutations.",
    todo: "Send it from the service's own pages, or from a client that is not a browser.",
  },
  SAME_ORIGIN_REQUIRED: {
    status: 403,
    title: "Same-origin request required",
    happened:
      "A change authenticated by the session cookie did not show it came from the service's own pages (`Origin` or `Sec-Fetch-Site`).",
    todo: "Send it from the service's own pages; a browser does so by itself.",
  },
  SESSION_REQUIRED: {
    status: 401,
    title: "Session required",
    happened: "This needs a signed-in session, and the request has none that is live.",
    todo: "Sign in with an e-mail link (POST /api/v1/auth/email, or the /sign-in page) and send the `svc_session` cookie.",
  },
  SIGN_IN_TOKEN_INVALID: {
    status: 401,
    title: "Sign-in link invalid",
    happened: "The sign-in token is unknown, already used or expired (links last 15 minutes and work once).",
    todo: "Ask for a new sign-in link.",
  },
  PROVIDER_KEY_REQUIRED: {
    status: 401,
    title: "Provider key required",
    happened:
      "This provider endpoint needs a live provider key in `X-SVC-Provider-Key`, and none (or an unknown or revoked one) was sent.",
    todo: "Send the key the claim's verification or rotation returned; rotate to get a new one.",
  },
  PROVIDER_AUTH_UNAVAILABLE: {
    status: 503,
    title: "Provider authentication unavailable",
    happened: "The provider key could not be checked just now.",
    todo: "Retry after the `Retry-After` seconds.",
  },
  PRIORITY_KEY_INVALID: {
    status: 401,
    title: "Priority key invalid",
    happened: "The priority key in `Authorization: Bearer` is unknown, revoked or past its subscription.",
    todo: "Send a live key, or leave the header out to use the free limits.",
  },
  INVALID_IDEMPOTENCY_KEY: {
    status: 400,
    title: "Invalid Idempotency-Key",
    happened: "The Idempotency-Key header is missing or not of the documented form.",
    todo: "Send a fresh, unique key of the documented form with each new write, and the same key when retrying it.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    title: "Idempotency-Key reused",
    happened: "This Idempotency-Key was already used with a different request body.",
    todo: "Use a new key for a new request; reuse a key only to retry the very same request.",
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    title: "Idempotency conflict",
    happened: "This Idempotency-Key was already used for a different outcome.",
    todo: "Use a new key for a new outcome; reuse a key only to retry the very same request.",
  },

  // Monitors.
  MONITOR_LIMIT_REACHED: {
    status: 429,
    title: "Monitor limit reached",
    happened:
      "This address already has as many score-drop monitors as one may hold, or asked for too many confirmations.",
    todo: "Unsubscribe from one (every alert has a link) or wait before asking again.",
  },
  CONFIRMATION_TOKEN_INVALID: {
    status: 404,
    title: "Confirmation link invalid",
    happened: "The monitor's confirmation link is unknown or expired.",
    todo: "Sign up for the monitor again to get a new link.",
  },
  UNSUBSCRIBE_TOKEN_INVALID: {
    status: 404,
    title: "Unsubscribe link invalid",
    happened: "The unsubscribe link is unknown, or the monitor is already gone.",
    todo: "Nothing to do if you no longer get alerts; otherwise use the link in the latest alert.",
  },

  // Commerce.
  PRODUCT_NOT_FOR_CHECKOUT: {
    status: 400,
    title: "Product not for checkout",
    happened: "The product named is not one that can be bought through checkout.",
    todo: "Pick a product the catalog (GET /api/v1/catalog) lists for checkout.",
  },
  PLAN_NOT_APPLICABLE: {
    status: 400,
    title: "Plan not applicable",
    happened: "A plan was given for a product that has no plans.",
    todo: "Leave `plan` out, or give it only for the product `detail` names.",
  },
  PAYMENT_MODE_UNSUPPORTED: {
    status: 501,
    title: "Payment mode not supported",
    happened:
      "The payment mode asked for (direct card entry) is named by the interface but not offered: the service never sees card data.",
    todo: "Use the hosted checkout the endpoint offers.",
  },
  CHECKOUT_SESSION_NOT_FOUND: {
    status: 404,
    title: "Checkout session not found",
    happened: "No checkout session of this service has that id.",
    todo: "Use the activation link the checkout returned to.",
  },
  CHECKOUT_NOT_PAID: {
    status: 409,
    title: "Checkout not paid",
    happened: "The checkout session exists but is not paid, so there is nothing to activate yet.",
    todo: "Complete the payment, then open the activation link again.",
  },
  SUBSCRIPTION_ENDED: {
    status: 409,
    title: "Subscription ended",
    happened: "The subscription this checkout started has ended.",
    todo: "Subscribe again to get a new key.",
  },
  WEBHOOK_SIGNATURE_INVALID: {
    status: 400,
    title: "Webhook signature invalid",
    happened: "The payment webhook's signature does not match its body and the configured secret.",
    todo: "Only the payment provider calls this endpoint; check the webhook secret.",
  },

  // Provider claims.
  DOMAIN_NOT_INDEXED: {
    status: 404,
    title: "Domain not indexed",
    happened: "A domain can be claimed only once it is in the index, and this one is not.",
    todo: "Submit it (POST /api/v1/submit) and claim it once it has been crawled.",
  },
  DOMAIN_ALREADY_CLAIMED: {
    status: 409,
    title: "Domain already claimed",
    happened: "Another account holds the live claim of this domain.",
    todo: "A domain has one live claim at a time; it frees up when that claim is revoked.",
  },
  ACCOUNT_ALREADY_HAS_CLAIM: {
    status: 409,
    title: "Account already has a claim",
    happened: "This account already holds a live claim, and an account holds one.",
    todo: "Revoke the current claim first, or use it.",
  },
  CLAIM_NOT_FOUND: {
    status: 404,
    title: "Claim not found",
    happened: "No claim of this account has that id.",
    todo: "List your claims in the provider console and use one of their ids.",
  },
  CLAIM_REVOKED: {
    status: 409,
    title: "Claim revoked",
    happened: "The claim is revoked, for good.",
    todo: "Create a new claim of the domain.",
  },
  CLAIM_NOT_VERIFIED: {
    status: 409,
    title: "Claim not verified",
    happened: "The claim's DNS ownership proof has not passed yet, and this needs a verified claim.",
    todo: "Publish the TXT record the claim gave, then verify the claim.",
  },
  CLAIM_NOT_FRESH: {
    status: [409, 404],
    title: "Claim not fresh",
    happened:
      "The claim is no longer verified and fresh: its DNS ownership proof has not passed within the last 7 days, or the daily recheck failed. A provider read answers 404, a write 409.",
    todo: "Keep the TXT record published and verify the claim again.",
  },
  CHALLENGE_EXPIRED: {
    status: 409,
    title: "Challenge expired",
    happened: "The claim's DNS challenge expired before it was proven.",
    todo: "Ask for a new challenge of the claim and publish its TXT record.",
  },
  CHALLENGE_MISSING: {
    status: 409,
    title: "Challenge record missing",
    happened: "The DNS resolvers found no TXT record of the challenge at the claim's name.",
    todo: "Publish the TXT record exactly as shown, wait for DNS to carry it, and verify again.",
  },
  CHALLENGE_MISMATCH: {
    status: 409,
    title: "Challenge mismatch",
    happened: "A TXT record is at the claim's name, but not with the challenge's value, or the resolvers disagree.",
    todo: "Publish the exact value shown when the claim was created, and verify again.",
  },
  CHALLENGE_CHECK_FAILED: {
    status: 409,
    title: "Challenge check failed",
    happened: "The DNS resolvers could not be asked about the challenge just now.",
    todo: "Verify again in a few minutes.",
  },
  KEY_ROTATION_CONFLICT: {
    status: 409,
    title: "Key rotation conflict",
    happened: "Another rotation of this claim's key ran at the same time.",
    todo: "Try again; the key that rotation returned is the live one.",
  },

  // Offers and acceptances.
  OFFER_NOT_FOUND: {
    status: 404,
    title: "Offer not found",
    happened: "No offer of this claim has that id.",
    todo: "List the claim's offers and use one of their ids.",
  },
  OFFER_NOT_DRAFT: {
    status: 409,
    title: "Offer not a draft",
    happened: "Only drafts change, and this offer is active, paused or revoked.",
    todo: "Create a new offer with the new terms.",
  },
  OFFER_NOT_ACTIVE: {
    status: 409,
    title: "Offer not active",
    happened: "The offer is not active, so it cannot be paused or used.",
    todo: "Read the offer's status first.",
  },
  OFFER_CHANGED: {
    status: 409,
    title: "Offer changed",
    happened: "The offer changed while this update was made (another update, an activation or a revocation).",
    todo: "Read the offer again and redo the update.",
  },
  OFFER_LIMIT_REACHED: {
    status: 409,
    title: "Offer limit reached",
    happened: "The claim already holds as many offers as a claim may hold, whatever their status.",
    todo: "Revoke an offer that is no longer needed.",
  },
  OFFER_MISMATCH: {
    status: 409,
    title: "Offer mismatch",
    happened:
      "The offer id, version and exact terms hash do not name this claim's offer at its current version and terms.",
    todo: "Read the offer and send its current id, version and exact_terms_sha256.",
  },
  OFFER_NOT_ACTIVATABLE: {
    status: 409,
    title: "Offer cannot be activated",
    happened: "The operator cannot activate the offer yet; `detail` lists what stands in the way.",
    todo: "Clear each obstacle `detail` lists, then activate again.",
  },
  OPERATOR_REQUIRED: {
    status: 400,
    title: "Operator required",
    happened: "An operator act must name the operator acting, and none was named.",
    todo: "Pass --by <name> or set the OPERATOR environment variable.",
  },
  ACCEPTANCE_NOT_FOUND: {
    status: 404,
    title: "Acceptance not found",
    happened: "No commercial acceptance has that id.",
    todo: "List pending acceptances (`npm run operator -- list-pending`) and use one of their ids.",
  },
  ACCEPTANCE_ALREADY_VERIFIED: {
    status: 409,
    title: "Acceptance already verified",
    happened: "That acceptance was already verified by an operator; `detail` says by whom and when.",
    todo: "Nothing to do: it stays verified.",
  },
  RENEWAL_CHAIN_INVALID: {
    status: 409,
    title: "Renewal chain invalid",
    happened:
      "A renewal must name an earlier acceptance or renewal of this claim for the same offer and exact terms, and this one does not.",
    todo: "Set related_acceptance_event_id to the acceptance this renews.",
  },

  // Action interests, tickets, handoffs and outcomes.
  ACTION_INTEREST_SOURCE_UNAVAILABLE: {
    status: 404,
    title: "No search returned this domain",
    happened:
      "No live, non-synthetic search receipt returned this domain, so no interest in acting on it can be recorded.",
    todo: "Record interest only for a domain a real search (GET /api/v1/search) returned, while its receipt lives.",
  },
  ACTION_INTEREST_CONFLICT: {
    status: 409,
    title: "Action interest conflict",
    happened: "This search result already recorded a different action.",
    todo: "One result records one action type; send the same one again, or act on another result.",
  },
  TICKET_SOURCE_UNAVAILABLE: {
    status: 404,
    title: "No search disclosed this offer",
    happened: "No live, non-synthetic search receipt disclosed this offer beside its organic results.",
    todo: "Prepare a ticket only for an offer a real search showed, while its receipt lives.",
  },
  TICKET_CONFLICT: {
    status: 409,
    title: "Ticket conflict",
    happened: "This search already prepared a different ticket for this offer.",
    todo: "Use the ticket already prepared.",
  },
  TICKET_NOT_FOUND: {
    status: 404,
    title: "Ticket not found",
    happened: "No action ticket has that id, or it is not this provider's.",
    todo: "Use the ticket id the preparation or the handoff returned.",
  },
  TICKET_NOT_ELIGIBLE: {
    status: 409,
    title: "Ticket not eligible",
    happened: "This ticket cannot be handed off now: it is not in a state that allows a handoff.",
    todo: "Prepare a new ticket.",
  },
  TICKET_EXPIRED: {
    status: 409,
    title: "Ticket expired",
    happened: "The ticket expired before this outcome arrived.",
    todo: "Nothing can be reported on it now; a new action needs a new ticket.",
  },
  TICKET_ID_MISMATCH: {
    status: 400,
    title: "Ticket id mismatch",
    happened: "The ticket id in the request does not match the ticket the attribution token is bound to.",
    todo: "Send the ticket id and the attribution token of the same ticket.",
  },
  TICKET_AUTHORIZATION_EXPIRED: {
    status: 410,
    title: "Ticket authorization expired",
    happened: "The authorization behind this ticket has ended, for good.",
    todo: "Prepare a new ticket from a fresh search.",
  },
  AUTHORIZATION_UNAVAILABLE: {
    status: 409,
    title: "Offer no longer available",
    happened: "The offer is no longer active at the version that was disclosed.",
    todo: "Search again to see the offers that are live now.",
  },
  AUTHORIZATION_REVOKED: {
    status: 409,
    title: "Authorization revoked",
    happened: "The ticket's authorization was revoked: its offer, claim or key was revoked after it was prepared.",
    todo: "Search again to see the offers that are live now.",
  },
  FUNDED_CAPACITY_UNAVAILABLE: {
    status: 409,
    title: "Offer budget used up",
    happened:
      "The offer's credit limit for its terms period is taken by what is charged and what open tickets could still charge.",
    todo: "Try again in the next terms period, or choose another offer.",
  },
  PROVIDER_CLAIM_UNAVAILABLE: {
    status: 409,
    title: "Provider claim unavailable",
    happened: "The provider's claim of this domain is no longer verified and fresh, so its offers cannot be acted on.",
    todo: "Go to the provider directly, or search again.",
  },
  COMMERCIAL_EVIDENCE_UNAVAILABLE: {
    status: 409,
    title: "Commercial evidence unavailable",
    happened: "The offer's exact terms carry no current, owner-verified provider acceptance.",
    todo: "Search again later; the provider must have its terms accepted and verified first.",
  },
  HANDOFF_CONFLICT: {
    status: 409,
    title: "Handoff conflict",
    happened: "This ticket was already handed off with a different controlled-intent disclosure consent.",
    todo: "Repeat the handoff with the consent it was first made with.",
  },
  INVALID_ATTRIBUTION_TOKEN: {
    status: 400,
    title: "Invalid attribution token",
    happened: "The attribution token is not one this service signed, or it is malformed.",
    todo: "Send the token exactly as the handoff returned it.",
  },
  ATTRIBUTION_EXPIRED: {
    status: 410,
    title: "Attribution expired",
    happened: "The attribution token has expired, for good.",
    todo: "An expired attribution cannot be used; a new action needs a new ticket.",
  },
  CONTROLLED_INTENT_UNAVAILABLE: {
    status: 404,
    title: "Controlled intent unavailable",
    happened:
      "No controlled intent is available to this provider for this token: the principal did not disclose one, or it is not this provider's.",
    todo: "Serve the principal without it; disclosure is optional.",
  },
  INVALID_TRANSITION: {
    status: 409,
    title: "Invalid outcome",
    happened: "The ticket's state does not allow this outcome (for example a completed ticket cannot fail).",
    todo: "Read the ticket's state; report only outcomes that follow from it.",
  },
  OUTCOME_RACE: {
    status: 409,
    title: "Concurrent outcomes",
    happened: "Other outcomes of this ticket kept arriving at the same time.",
    todo: "Retry with the same Idempotency-Key.",
  },
  RECEIPT_NOT_FOUND: {
    status: 404,
    title: "Receipt not found",
    happened: "No outcome receipt of this provider has that id.",
    todo: "Use the receipt id an outcome returned.",
  },
  INVALID_SIGNED_RECEIPT: {
    status: 400,
    title: "Invalid signed receipt",
    happened: "The signed receipt is not the exact canonical JSON object the service returned.",
    todo: "Send the receipt byte for byte as it was returned.",
  },
} as const satisfies Record<string, ProblemType>;

/** A problem code the service may answer with: a key of PROBLEM_TYPES. */
export type ProblemCode = keyof typeof PROBLEM_TYPES;

/** The code in the form a problem's `type` URL carries: `VALIDATION_FAILED` → `validation-failed`. */
export function problemTypeSlug(code: ProblemCode): string {
  return code.toLowerCase().replaceAll("_", "-");
}

/** The code a `type` URL's last segment stands for, or undefined for one no problem has. */
export function problemCodeOfSlug(slug: string): ProblemCode | undefined {
  const code = slug.toUpperCase().replaceAll("-", "_");
  return Object.hasOwn(PROBLEM_TYPES, code) && /^[a-z0-9-]+$/.test(slug) ? (code as ProblemCode) : undefined;
}

/** The statuses a code answers with, the usual one first. */
export function problemStatuses(code: ProblemCode): readonly number[] {
  const { status } = PROBLEM_TYPES[code] as ProblemType;
  return typeof status === "number" ? [status] : status;
}

/** Where a problem type is documented, relative to the origin. */
export const PROBLEMS_PATH = "/problems";

/** The problem type pages a sitemap lists: the index, then one page per code. */
export function problemPagePaths(): string[] {
  return [
    PROBLEMS_PATH,
    ...Object.keys(PROBLEM_TYPES).map((code) => `${PROBLEMS_PATH}/${problemTypeSlug(code as ProblemCode)}`),
  ];
}
