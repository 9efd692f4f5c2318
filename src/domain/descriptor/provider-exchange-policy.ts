import {
  ACTION_INTEREST_COHORT,
  ACTION_INTEREST_RECEIPT_THRESHOLD,
  DEMAND_RETENTION_DAYS,
  RESULT_SELECTION_RECEIPT_THRESHOLD,
} from "../demand/demand-constants.ts";

/**
 * The provider exchange's published policy constants (spec, "Versioning" item 5), exact values;
 * then our published choices where the spec leaves demand's values open (docs/demand.md).
 */
export const PROVIDER_EXCHANGE_POLICY = {
  controlled_intent_disclosure_default: false,
  controlled_intent_disclosure_optional: true,
  controlled_intent_resolver_charge: false,
  controlled_intent_resolver_creates_proof: false,
  direct_provider_access_free: true,
  provider_demand_privacy_threshold_receipts: 20,
  provider_demand_returns_individual_receipts: false,
  provider_demand_scope: "authenticated_claim_domain_only",
  provider_status_scope: "authenticated_claim_only",
  provider_read_rate_limit: "240 per hour per provider key per read surface",
  provider_mor_contract_required: true,
  ticket_or_handoff_charge: false,
  agent_identities_sold: false,
  organic_rank_sold: false,
  raw_queries_sold: false,
  provider_demand_result_selection_receipt_threshold: RESULT_SELECTION_RECEIPT_THRESHOLD,
  provider_demand_action_interest_receipt_threshold: ACTION_INTEREST_RECEIPT_THRESHOLD,
  provider_demand_action_interest_cohort: ACTION_INTEREST_COHORT,
  provider_demand_retention_days: DEMAND_RETENTION_DAYS,
} as const;
