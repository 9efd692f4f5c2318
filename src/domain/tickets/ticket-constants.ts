/**
 * Contract strings and the controlled vocabularies of action tickets (the spec leaves their
 * values open; docs/exchange-tickets.md publishes them). A ticket's intent is made only of these
 * closed lists: no free text, so no name, contact, prompt or identity can be carried in it.
 */
import { DEMAND_TOPICS } from "../demand/topics.ts";

export const TICKET_PREPARATION_CONTRACT_VERSION = "svc-action-ticket-preparation-v2" as const;
/** The principal-consent v1 attestation of ticket preparation (privacy page, #consent-v1). */
export const PRINCIPAL_CONSENT_VERSION = "principal-consent v1" as const;
export const HANDOFF_RECEIPT_CONTRACT_VERSION = "svc-action-handoff-v1" as const;
export const HANDOFF_CONSENT_VERSION = "svc-provider-handoff-consent-v1" as const;
export const INTENT_DISCLOSURE_CONSENT_VERSION = "svc-provider-controlled-intent-disclosure-consent-v1" as const;
export const INTENT_RESOLVER_CONTRACT_VERSION = "svc-provider-controlled-intent-resolver-v1" as const;
/** The type of a signed outcome receipt, named inside it. */
export const OUTCOME_RECEIPT_TYPE = "svc-provider-outcome-receipt-v1" as const;

/** The query parameter of the attributed action URL that carries the bearer to the provider. */
export const ATTRIBUTION_URL_PARAMETER = "svc_attribution_token" as const;

/** Controlled topics: the spec's demand topics. */
export const INTENT_TOPICS = DEMAND_TOPICS;

/** USD budget bands (what the principal expects to spend), whole dollars. */
export const BUDGET_BANDS = [
  "usd_0",
  "usd_1_99",
  "usd_100_499",
  "usd_500_1999",
  "usd_2000_9999",
  "usd_10000_plus",
] as const;

export const URGENCIES = ["immediate", "this_week", "this_month", "exploring"] as const;

/** Allowlisted requirement flags: what the principal needs from the provider, nothing personal. */
export const REQUIREMENT_FLAGS = [
  "api_access",
  "free_trial",
  "invoice_billing",
  "single_sign_on",
  "data_residency",
  "human_support",
  "accessibility",
  "open_source",
  "self_hosting",
  "compliance_documentation",
] as const;

/** ISO 3166-1 alpha-2 codes officially assigned (the optional region of a ticket's intent). */
export const REGION_CODES = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
  "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO " +
  "JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR " +
  "MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO " +
  "RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV " +
  "TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");

/** Abuse limits the spec leaves open, per client (tickets, handoffs, receipt checks) or per key (resolver). */
export const TICKET_LIMIT = { name: "action-tickets", limit: 60, window: "1 h" } as const;
export const HANDOFF_LIMIT = { name: "action-handoffs", limit: 60, window: "1 h" } as const;
export const RECEIPT_VERIFY_LIMIT = { name: "action-receipt-verify", limit: 240, window: "1 h" } as const;
export const RESOLVE_LIMIT = { name: "provider-intent-resolve", limit: 240, window: "1 h" } as const;
export const PROVIDER_RECEIPTS_LIMIT = { name: "provider-receipts", limit: 240, window: "1 h" } as const;

/** The Idempotency-Key bounds of outcomes (spec: 8 to 200 characters). */
export const OUTCOME_IDEMPOTENCY_KEY = { header: "Idempotency-Key", minLength: 8, maxLength: 200 } as const;

/**
 * Days a ticket's controlled intent is kept after the ticket's creation: the demand retention
 * (docs/demand.md, "Retention"). No bearer outlives it (ATTRIBUTION_TTL_SECONDS is at most 30 days).
 */
export const CONTROLLED_INTENT_RETENTION_DAYS = 30;
