/** The provider exchange's published policy constants (spec, "Versioning" item 5). Exact values. */
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
} as const;
