/** Search calls and the fixed parts of their answers, as the interface spec states them. */
import { expect } from "vitest";

/** 128 random bits in unpadded base64url. */
export const SEARCH_ID_FORMAT = /^[A-Za-z0-9_-]{22}$/;

export type SiteBody = Record<string, unknown> & { domain: string; agentic_score: number; category: string };

export interface SearchBody {
  access: string;
  receipt_recorded: boolean;
  search_id: string;
  results: SiteBody[];
  paid_offers_available: boolean;
  paid_offers: unknown[];
  action_interest: Record<string, unknown> & { available: boolean; eligible_domains: string[] };
  total: number;
  total_exact: boolean;
  page: number;
  per_page: number;
  has_next: boolean;
}

type Get = (path: string, init?: RequestInit) => Promise<Response>;

/** GET /api/v1/search with these parameters; asserts a 200 and returns the body. */
export async function searchOk(
  get: Get,
  params: Record<string, string | number | boolean>,
  headers: Record<string, string> = {},
): Promise<SearchBody> {
  const query = new URLSearchParams(
    Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]),
  );
  const response = await get(`/api/v1/search?${query}`, { headers });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return (await response.json()) as SearchBody;
}

export const domainsOf = (body: { results: { domain: string }[] }) => body.results.map((site) => site.domain);

export const ACTION_TYPES = ["quote", "trial", "demo", "booking", "application", "signup", "purchase"];

/** The action_interest sidecar, every member and constant of the spec's "Action-interest sidecar". */
export function expectedSidecar({
  available,
  searchId,
  domains,
}: {
  available: boolean;
  searchId: string;
  domains: string[];
}) {
  return {
    available,
    search_id: searchId,
    eligible_domains: domains,
    action_types: ACTION_TYPES,
    caller_attestation_required: true,
    endpoint: "http://svc.test/api/v1/action-interests",
    confirmation_version: "svc-action-interest-v1",
    confirmation_url: "http://svc.test/privacy#action-interest-v1",
    invocation_condition: expect.stringMatching(/explicitly.*current.*never infer.*selection/is),
    call_contract: {
      action_type_must_be_one_of: ACTION_TYPES,
      arguments_must_contain_only: [
        "search_id",
        "domain",
        "action_type",
        "caller_attests_principal_interest",
        "confirmation_version",
      ],
      available,
      domain_must_be_one_of: domains,
      executable_without_explicit_principal_intent: false,
      fixed_arguments_if_invocation_condition_met: {
        caller_attests_principal_interest: true,
        confirmation_version: "svc-action-interest-v1",
        search_id: searchId,
      },
      invoke_only_if: expect.stringMatching(/explicitly/),
      query_prompt_contact_identity_fields_are_accepted: false,
      tool: "record_action_interest",
    },
    provider_contacted: false,
    commercial_proof: false,
    organic_rank_affected: false,
  };
}

/**
 * The organic tie-break of a domain, computed apart from the database: the first 8 bytes of its
 * SHA-256 as a signed 64-bit integer (sites.organic_tiebreak, migration 0005).
 */
export async function organicTiebreak(domain: string): Promise<bigint> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(domain));
  return new DataView(digest).getBigInt64(0);
}

/** Sites sorted in organic order: agentic_score descending, then the tie-break, then the domain. */
export async function sortOrganic<T extends { domain: string; agentic_score: number }>(sites: T[]): Promise<T[]> {
  const keyed = await Promise.all(sites.map(async (site) => ({ site, tiebreak: await organicTiebreak(site.domain) })));
  keyed.sort(
    (a, b) =>
      b.site.agentic_score - a.site.agentic_score ||
      (a.tiebreak < b.tiebreak ? -1 : a.tiebreak > b.tiebreak ? 1 : 0) ||
      (a.site.domain < b.site.domain ? -1 : 1),
  );
  return keyed.map(({ site }) => site);
}

/** Asserts organic order: agentic_score descending, ties by the domain's hash (organicTiebreak). */
export async function expectOrganicOrder(results: { domain: string; agentic_score: number }[]) {
  expect(results.map((site) => site.domain)).toEqual((await sortOrganic(results)).map((site) => site.domain));
}
