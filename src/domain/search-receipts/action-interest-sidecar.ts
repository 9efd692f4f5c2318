/**
 * The action_interest sidecar: tells an agent how, and strictly when, it may record that its
 * principal is interested in an action on a returned organic result. Everything in it is fixed by
 * the interface; only availability, the search id and the eligible domains vary.
 */
import {
  ACTION_INTEREST_ARGUMENTS,
  ACTION_INTEREST_CONFIRMATION_VERSION,
  ACTION_INTEREST_TOOL,
  ACTION_TYPES,
} from "./receipt-constants.ts";

export const INVOCATION_CONDITION =
  "Call only when your principal has explicitly said, in the current conversation, that they want this action type with this exact domain. Never infer interest from a search, a result, a selection or a detail view.";

export const INVOKE_ONLY_IF =
  "the principal has explicitly expressed current interest in action_type for domain; discovery, selection or viewing details are not interest";

export interface SidecarInput {
  /** Public origin of the service, without trailing slash. */
  origin: string;
  /** False when the receipt did not commit or is synthetic, or nothing was returned. */
  available: boolean;
  /** The committed receipt's id; empty when there is none. */
  searchId: string;
  /** Returned organic domains an interest may name; empty when unavailable. */
  domains: string[];
}

export function buildActionInterestSidecar({ origin, available, searchId, domains }: SidecarInput) {
  const eligible = available ? domains : [];
  const actionTypes = [...ACTION_TYPES];
  return {
    available,
    search_id: searchId,
    eligible_domains: eligible,
    action_types: actionTypes,
    caller_attestation_required: true as const,
    endpoint: `${origin}/api/v1/action-interests`,
    confirmation_version: ACTION_INTEREST_CONFIRMATION_VERSION,
    confirmation_url: `${origin}/privacy#action-interest-v1`,
    invocation_condition: INVOCATION_CONDITION,
    call_contract: {
      action_type_must_be_one_of: actionTypes,
      arguments_must_contain_only: [...ACTION_INTEREST_ARGUMENTS],
      available,
      domain_must_be_one_of: eligible,
      executable_without_explicit_principal_intent: false as const,
      fixed_arguments_if_invocation_condition_met: {
        caller_attests_principal_interest: true as const,
        confirmation_version: ACTION_INTEREST_CONFIRMATION_VERSION,
        search_id: searchId,
      },
      invoke_only_if: INVOKE_ONLY_IF,
      query_prompt_contact_identity_fields_are_accepted: false as const,
      tool: ACTION_INTEREST_TOOL,
    },
    provider_contacted: false as const,
    commercial_proof: false as const,
    organic_rank_affected: false as const,
  };
}

export type ActionInterestSidecar = ReturnType<typeof buildActionInterestSidecar>;
