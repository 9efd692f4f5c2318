/**
 * The privacy page: what the service records and what it does not, the exact meaning of every
 * consent version an agent may attest (one anchored section each, the anchors the spec publishes),
 * and the provider exchange's published policy flags, rendered from the same object as the
 * descriptor's. Features not built yet are described as the policy that applies once they are offered.
 */
import { PROVIDER_EXCHANGE_POLICY } from "../../domain/descriptor/provider-exchange-policy.ts";
import { buildSiteLinks, describeService } from "../../domain/descriptor/site-documents.ts";
import { INVOCATION_CONDITION } from "../../domain/search-receipts/action-interest-sidecar.ts";
import {
  ACTION_INTEREST_ARGUMENTS,
  ACTION_INTEREST_CONFIRMATION_VERSION,
  ACTION_INTEREST_TOOL,
  ACTION_TYPES,
  RECEIPT_LIFETIME_DAYS,
} from "../../domain/search-receipts/receipt-constants.ts";
import { StackingTable } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

/** The element ids the spec publishes consent wording under ({site_url}/privacy#…). */
export const PRIVACY_ANCHORS = {
  actionInterest: "action-interest-v1",
  ticketConsent: "consent-v1",
  handoffConsent: "handoff-consent-v1",
  controlledIntentDisclosure: "controlled-intent-disclosure-consent-v1",
} as const;

/** Contract and consent versions (spec, "Versioning" item 3), exact strings. */
export const CONSENT_VERSIONS = {
  actionInterest: ACTION_INTEREST_CONFIRMATION_VERSION,
  ticketConsent: "principal-consent v1",
  ticketPreparation: "svc-action-ticket-preparation-v2",
  handoffConsent: "svc-provider-handoff-consent-v1",
  handoffReceipt: "svc-action-handoff-v1",
  controlledIntentDisclosure: "svc-provider-controlled-intent-disclosure-consent-v1",
  controlledIntentResolver: "svc-provider-controlled-intent-resolver-v1",
} as const;

type PolicyFlag = keyof typeof PROVIDER_EXCHANGE_POLICY;

// Keyed by the policy object's own keys, so a new flag cannot be published without its meaning.
const POLICY_FLAG_MEANINGS: Record<PolicyFlag, string> = {
  controlled_intent_disclosure_default: "Controlled-intent disclosure is off unless the principal turns it on.",
  controlled_intent_disclosure_optional: "Disclosing controlled intent is optional; declining never blocks a handoff.",
  controlled_intent_resolver_charge: "Resolving controlled intent charges nobody.",
  controlled_intent_resolver_creates_proof: "Resolving controlled intent is not commercial proof of anything.",
  direct_provider_access_free: "Going to a provider directly, without this service, stays free.",
  provider_demand_privacy_threshold_receipts:
    "Topic and action-type rows of a provider's demand report are left out below this many receipts.",
  provider_demand_returns_individual_receipts: "Demand reports never return an individual receipt.",
  provider_demand_scope: "A provider sees demand only for the domain of its own authenticated claim.",
  provider_status_scope: "A provider sees pilot status only for its own authenticated claim.",
  provider_read_rate_limit: "How often a provider may read each of its report surfaces.",
  provider_mor_contract_required:
    "A provider must accept a contract making it the merchant of record of what it sells to the principal.",
  ticket_or_handoff_charge: "Preparing an action ticket or handing off charges nobody.",
  agent_identities_sold: "Agent identities are not sold.",
  organic_rank_sold: "Organic rank is not sold.",
  raw_queries_sold: "Raw queries are not sold.",
  provider_demand_result_selection_receipt_threshold:
    "Selection counts and rates of a demand report are withheld below this many result selections.",
  provider_demand_action_interest_receipt_threshold:
    "Action-interest counts and rates of a demand report are withheld below this many interest receipts.",
  provider_demand_action_interest_cohort:
    "Interests and selections count in the window of the search they came from, the same searches rates divide by.",
  provider_demand_retention_days:
    "Search receipts, selections and action interests are deleted this many days after the search.",
};

/** The published flags with their values and meanings, in the policy object's order. */
export function listPolicyFlags(): { name: PolicyFlag; value: string; meaning: string }[] {
  return (Object.entries(PROVIDER_EXCHANGE_POLICY) as [PolicyFlag, boolean | number | string][]).map(
    ([name, value]) => ({ name, value: JSON.stringify(value), meaning: POLICY_FLAG_MEANINGS[name] }),
  );
}

/** Values as code, separated by commas. */
function CodeList({ values }: { values: readonly string[] }) {
  return (
    <>
      {values.map((value, i) => (
        <>
          {i > 0 ? ", " : ""}
          <code>{value}</code>
        </>
      ))}
    </>
  );
}

/** The privacy page inside the layout. */
export function PrivacyPage({ origin }: { origin: string }) {
  const links = buildSiteLinks(origin);
  const { name } = describeService(origin);
  const policy = PROVIDER_EXCHANGE_POLICY;
  return (
    <Layout
      origin={origin}
      url={links.privacy}
      title={`Privacy and consent: ${name}`}
      description="What the service records (query-free receipts), what it never records, and the exact meaning of each consent version."
      current="privacy"
    >
      <h1>Privacy and consent</h1>
      <p class="lead">
        What {name} records, what it never records, and what each consent version means. An agent that sends one of the
        versions below attests to exactly what its section says. The versions are exact strings; the anchors of this
        page are part of the interface.
      </p>

      <section id="what-is-recorded">
        <h2>What searching records</h2>
        <p>
          Every search records a <strong>query-free receipt</strong>: a random <code>search_id</code>, the surface that
          asked (web, REST or MCP), whether the request was marked synthetic (<code>X-SVC-Synthetic: true</code>, kept
          out of demand), how many results were returned, which organic domains were returned at which positions, and
          when the receipt was created and expires. Receipts expire after {RECEIPT_LIFETIME_DAYS} days, and everything
          bound to them expires with them.
        </p>
        <p>
          No receipt table has a column for the query, an IP address, a user agent or an identity, so none of them can
          be stored there. A detail view of a returned result (<code>GET /site/{"{domain}"}?search_id=</code>) records
          only the search, the domain and the time.
        </p>
        <p>
          Rate limits count requests per client address in short-lived counters that expire with the limit's window;
          they are never stored with a receipt. The hosting platform's operational logs may briefly hold request details
          for debugging; the service does not copy them into its database.
        </p>
      </section>

      <section id="score-drop-alerts">
        <h2>Score-drop alerts</h2>
        <p>
          Asking for score-drop alerts stores the e-mail address (in lower case), the domains it watches, when it
          confirmed, when each monitor was unsubscribed, and each alert sent (which crawl, the scores, the signals
          lost). Links in those e-mails hold random tokens stored only as their SHA-256. Nothing but the confirmation
          e-mail is sent to an address before it confirms, and every alert can be stopped with one click, without
          signing in.
        </p>
      </section>

      <section id={PRIVACY_ANCHORS.actionInterest}>
        <h2>
          Action interest: <code>{CONSENT_VERSIONS.actionInterest}</code>
        </h2>
        <p>
          An agent may record that its principal is interested in one action on one organic result it was just shown,
          with <code>POST {links.apiBase}/action-interests</code> or the MCP tool <code>{ACTION_INTEREST_TOOL}</code>.
        </p>
        <h3>What the agent attests</h3>
        <p>
          Sending <code>caller_attests_principal_interest: true</code> with{" "}
          <code>confirmation_version: {CONSENT_VERSIONS.actionInterest}</code> states that the agent's principal has
          explicitly said, in the current conversation, that they want this action type with this exact domain. The rule
          agents are given: “{INVOCATION_CONDITION}”
        </p>
        <p>
          The service does not verify the principal's identity, the agent's agency or its authority; the receipt records
          the attestation, not a proof.
        </p>
        <h3>What is recorded</h3>
        <p>
          One receipt per returned result: a receipt id, the <code>search_id</code>, the domain (one of that search's
          organic results), the action type (one of <CodeList values={ACTION_TYPES} />
          ), the confirmation version, when it was recorded and when it expires. It expires with its source search, at
          most {RECEIPT_LIFETIME_DAYS} days after it.
        </p>
        <h3>What is not recorded</h3>
        <p>
          The call accepts only <CodeList values={ACTION_INTEREST_ARGUMENTS} />. No query, prompt, contact detail, agent
          or principal identity, IP address or user agent is accepted or stored.
        </p>
        <h3>What it does not do</h3>
        <p>
          Recording an interest contacts no provider, creates no ticket and no charge, does not change any rank or
          score, and is not commercial proof. When provider demand reports are offered, a provider sees only aggregate
          counts for its own verified domain, suppressed below a privacy threshold, and never an individual receipt.
        </p>
      </section>

      <section id={PRIVACY_ANCHORS.ticketConsent}>
        <h2>
          Action-ticket preparation: <code>{CONSENT_VERSIONS.ticketConsent}</code>
        </h2>
        <p>
          This is the policy that applies when action tickets are offered (contract{" "}
          <code>{CONSENT_VERSIONS.ticketPreparation}</code>). A ticket prepares one action on a provider offer that was
          disclosed beside, never inside, the organic results of a committed search receipt.
        </p>
        <p>
          The exact attestation <code>{CONSENT_VERSIONS.ticketConsent}</code> states that the principal has explicitly
          consented to preparing an action ticket for that offer. A ticket accepts controlled constraints only: no name,
          e-mail address, contact detail, raw prompt, agent identity or principal identity. It returns a signed
          attribution bearer and the handoff endpoint, not the provider's action URL; its answers are never cached (
          <code>private, no-store</code>).
        </p>
        <p>Preparing a ticket charges nobody.</p>
      </section>

      <section id={PRIVACY_ANCHORS.handoffConsent}>
        <h2>
          Handoff to a provider: <code>{CONSENT_VERSIONS.handoffConsent}</code>
        </h2>
        <p>
          This is the policy that applies when handoffs are offered. The attestation{" "}
          <code>{CONSENT_VERSIONS.handoffConsent}</code> states that the principal has consented to being handed off to
          the provider, whose control of its domain is proven by DNS, through an attributed action URL.
        </p>
        <p>
          The ticket's bearer and id travel in the request body, never in a URL or query string. The service records one
          append-only handoff receipt (<code>{CONSENT_VERSIONS.handoffReceipt}</code>) bound to the ticket, the offer
          version, the hash of the commercial terms and the consent version, and only then returns the provider's action
          URL. That receipt holds no query, agent or principal identity, contact data, network address, referrer or user
          agent.
        </p>
        <p>
          Handing off charges nobody. Only an authenticated outcome the provider reports afterwards (the offer's
          disclosed charge event) can create the disclosed charge, and it is the provider who pays it.
        </p>
      </section>

      <section id={PRIVACY_ANCHORS.controlledIntentDisclosure}>
        <h2>
          Controlled-intent disclosure: <code>{CONSENT_VERSIONS.controlledIntentDisclosure}</code>
        </h2>
        <p>
          This is the policy that applies when controlled-intent disclosure is offered. It is a separate, optional
          consent given at handoff, and off unless the principal gives it; declining it does not block the handoff.
        </p>
        <p>
          With it, the provider may resolve the ticket's controlled intent (resolver contract{" "}
          <code>{CONSENT_VERSIONS.controlledIntentResolver}</code>) after an observed handoff. The resolver returns only
          a controlled topic, an optional region code, a USD budget band, an urgency, allowlisted requirement flags and
          opaque binding metadata. It never returns a query, a search receipt, an identity, contact or network data, an
          action URL, a price, accounting data, a charge, an outcome or commercial proof.
        </p>
        <p>Resolving is free and proves nothing commercially.</p>
      </section>

      <section id="policy-flags">
        <h2>Published policy flags</h2>
        <p>
          The <code>provider_exchange</code> constants of the <a href={links.descriptor}>index descriptor</a>, as
          published there.
        </p>
        <StackingTable>
          <thead>
            <tr>
              <th scope="col">Flag</th>
              <th scope="col">Value</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {listPolicyFlags().map(({ name: flag, value, meaning }) => (
              <tr>
                <td>
                  <code>{flag}</code>
                </td>
                <td>
                  <code>{value}</code>
                </td>
                <td>{meaning}</td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
        <p>
          Demand reports are limited to the authenticated claim domain (<code>{policy.provider_demand_scope}</code>) and
          never return individual receipts; topic and action-type rows need{" "}
          {policy.provider_demand_privacy_threshold_receipts} receipts. Organic ordering and scores are never changed by
          any paid or provider-funded feature.
        </p>
      </section>
    </Layout>
  );
}

/** The privacy page's HTML for a public origin. */
export function renderPrivacyPage(origin: string): Promise<string> {
  return renderPage(<PrivacyPage origin={origin} />);
}
