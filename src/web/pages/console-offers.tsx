/**
 * Offers in the provider console: a claim's offers (`/console/claims/{id}/offers`), the form of a
 * new offer, and an offer's page (`/console/offers/{id}`) with every term, the commercial-terms
 * hash and how to recompute it, the edit form of a draft (each save a new version) and the pause
 * button of an active offer. Plain forms posting to the service's own origin; no script.
 */

import {
  CHARGE_EVENTS,
  OFFER_ACTION_TYPES,
  OFFER_LIMITS,
  PRINCIPAL_PRICE_MODES,
} from "../../domain/offers/offer-constants.ts";
import type { OwnerOfferRecord } from "../../domain/offers/offer-record.ts";
import { Notice, StackingTable } from "../components.tsx";
import { CONSOLE_PATHS } from "../console-paths.ts";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";
import { formatTime } from "./console.tsx";

/** An offer as the console shows it: the owner's record (its commercial state is not shown here). */
export type ConsoleOffer = OwnerOfferRecord;

/** The offer form's fields as typed (text), so a refused form comes back as it was sent. */
export type OfferFormValues = Partial<Record<OfferFormField, string>>;

export const OFFER_FORM_FIELDS = [
  "name",
  "summary",
  "action_type",
  "action_url",
  "charge_event",
  "bounty_cents",
  "principal_price_mode",
  "principal_price_cents",
  "terms_credit_limit_cents",
  "terms_period_days",
] as const;
export type OfferFormField = (typeof OFFER_FORM_FIELDS)[number];

/** A form's refusal: one message per field, and one for the whole form when no field is to blame. */
export interface OfferFormErrors {
  fields: Partial<Record<OfferFormField, string>>;
  form?: string;
}

const STATUS_WORDS = { draft: "Draft", active: "Active", paused: "Paused" } as const;

function OfferStatus({ status }: { status: ConsoleOffer["status"] }) {
  return <span class={`status status-offer-${status}`}>{STATUS_WORDS[status]}</span>;
}

const cents = (value: number | undefined) =>
  value === undefined ? "—" : `${value} ¢ (${(value / 100).toFixed(2)} USD)`;

function Breadcrumb({ origin, claimId, domain }: { origin: string; claimId: string; domain: string }) {
  return (
    <p class="breadcrumb">
      <a href={`${origin}${CONSOLE_PATHS.home}`}>Provider console</a> ›{" "}
      <a href={`${origin}${CONSOLE_PATHS.claim(claimId)}`}>{domain}</a> ›{" "}
      <a href={`${origin}${CONSOLE_PATHS.offers(claimId)}`}>Offers</a>
    </p>
  );
}

export interface OffersPageProps {
  origin: string;
  claimId: string;
  domain: string;
  offers: ConsoleOffer[];
}

/** A claim's offers, newest first, and the way to a new one. */
export function OffersPage({ origin, claimId, domain, offers }: OffersPageProps) {
  return (
    <Layout
      origin={origin}
      url={`${origin}${CONSOLE_PATHS.offers(claimId)}`}
      title={`Offers of ${domain} · Provider console`}
      description="Your offers beside organic results: their terms, versions and status."
    >
      <p class="breadcrumb">
        <a href={`${origin}${CONSOLE_PATHS.home}`}>Provider console</a> ›{" "}
        <a href={`${origin}${CONSOLE_PATHS.claim(claimId)}`}>{domain}</a>
      </p>
      <h1>Offers of {domain}</h1>
      <p>
        An offer is shown beside organic results, marked sponsored, once the operator activates it; it never changes the
        results, their order or any score. New offers are drafts; a draft can be edited, each save a new version.
      </p>
      <p>
        <a class="button-link secondary" href={`${origin}${CONSOLE_PATHS.newOffer(claimId)}`}>
          New offer
        </a>
      </p>
      {offers.length ? (
        <StackingTable>
          <caption class="visually-hidden">Offers of {domain}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Offer</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">Bounty</th>
              <th scope="col">Charged when</th>
              <th scope="col">Terms hash</th>
            </tr>
          </thead>
          <tbody>
            {offers.map((offer) => (
              <tr>
                <td>
                  <a href={`${origin}${CONSOLE_PATHS.offer(offer.id)}`}>{offer.name}</a>
                </td>
                <td data-label="Status">
                  <OfferStatus status={offer.status} />
                </td>
                <td data-label="Version">{offer.version}</td>
                <td data-label="Bounty">{cents(offer.bounty_cents)}</td>
                <td data-label="Charged when">{offer.charge_event}</td>
                <td data-label="Terms hash">
                  <code>{offer.commercial_terms_sha256.slice(0, 12)}…</code>
                </td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
      ) : (
        <p>No offers yet.</p>
      )}
    </Layout>
  );
}

function Field({
  name,
  label,
  hint,
  values,
  errors,
  type = "text",
  required = false,
  max,
}: {
  name: OfferFormField;
  label: string;
  hint?: string;
  values: OfferFormValues;
  errors: OfferFormErrors;
  type?: "text" | "url" | "number";
  required?: boolean;
  max?: number;
}) {
  const id = `offer-${name.replaceAll("_", "-")}`;
  const error = errors.fields[name];
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} class="field-hint">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        value={values[name] ?? ""}
        required={required}
        maxlength={type === "number" ? undefined : max}
        inputmode={type === "number" ? "numeric" : undefined}
        min={type === "number" ? "0" : undefined}
        max={type === "number" ? max : undefined}
        step={type === "number" ? "1" : undefined}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={described || undefined}
      />
      {error ? (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Choice({
  name,
  label,
  options,
  values,
  errors,
  hint,
}: {
  name: OfferFormField;
  label: string;
  options: readonly string[];
  values: OfferFormValues;
  errors: OfferFormErrors;
  hint?: string;
}) {
  const id = `offer-${name.replaceAll("_", "-")}`;
  const error = errors.fields[name];
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} class="field-hint">
          {hint}
        </p>
      ) : null}
      <select id={id} name={name} aria-invalid={error ? "true" : undefined} aria-describedby={described || undefined}>
        {options.map((option) => (
          <option value={option} selected={values[name] === option}>
            {option}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The offer form: every term of the API's offer request; currency and billing are fixed. */
function OfferForm({
  action,
  button,
  domain,
  values,
  errors,
}: {
  action: string;
  button: string;
  domain: string;
  values: OfferFormValues;
  errors: OfferFormErrors;
}) {
  return (
    <form method="post" action={action} class="offer-form" novalidate>
      {errors.form || Object.keys(errors.fields).length ? (
        <Notice tone="error" title="The offer was not saved.">
          {errors.form ? <p>{errors.form}</p> : null}
          {Object.keys(errors.fields).length ? (
            <ul>
              {Object.entries(errors.fields).map(([field, message]) => (
                <li>
                  <a href={`#offer-${field.replaceAll("_", "-")}`}>
                    {field}: {message}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}
      <Field name="name" label="Name" values={values} errors={errors} required max={OFFER_LIMITS.nameMax} />
      <div class="field">
        <label for="offer-summary">Summary</label>
        <textarea
          id="offer-summary"
          name="summary"
          rows={3}
          required
          maxlength={OFFER_LIMITS.summaryMax}
          aria-invalid={errors.fields.summary ? "true" : undefined}
          aria-describedby={errors.fields.summary ? "offer-summary-error" : undefined}
        >
          {values.summary ?? ""}
        </textarea>
        {errors.fields.summary ? (
          <p id="offer-summary-error" class="field-error">
            {errors.fields.summary}
          </p>
        ) : null}
      </div>
      <div class="filter-grid">
        <Choice name="action_type" label="Action" options={OFFER_ACTION_TYPES} values={values} errors={errors} />
        <Choice
          name="charge_event"
          label="Charged when the action is"
          options={CHARGE_EVENTS}
          values={values}
          errors={errors}
        />
        <Field
          name="bounty_cents"
          label="Bounty (US cents)"
          type="number"
          required
          max={OFFER_LIMITS.bountyCentsMax}
          values={values}
          errors={errors}
        />
        <Choice
          name="principal_price_mode"
          label="Price to the principal"
          options={PRINCIPAL_PRICE_MODES}
          values={values}
          errors={errors}
        />
        <Field
          name="principal_price_cents"
          label="Principal price (US cents)"
          hint="Required when the price is fixed."
          type="number"
          max={OFFER_LIMITS.principalPriceCentsMax}
          values={values}
          errors={errors}
        />
        <Field
          name="terms_credit_limit_cents"
          label="Credit limit (US cents)"
          hint="The cap of the terms; needed for activation."
          type="number"
          max={OFFER_LIMITS.termsCreditLimitCentsMax}
          values={values}
          errors={errors}
        />
        <Field
          name="terms_period_days"
          label="Terms period (days)"
          hint="Empty: 30 days."
          type="number"
          max={OFFER_LIMITS.termsPeriodDaysMax}
          values={values}
          errors={errors}
        />
      </div>
      <Field
        name="action_url"
        label="Action URL"
        hint={`HTTPS on ${domain} or a subdomain; no query or fragment.`}
        type="url"
        required
        max={2048}
        values={values}
        errors={errors}
      />
      <p class="field-hint">Currency USD; billing mode: terms (capped pay-per-action).</p>
      <button type="submit">{button}</button>
    </form>
  );
}

export interface NewOfferPageProps {
  origin: string;
  claimId: string;
  domain: string;
  values?: OfferFormValues;
  errors?: OfferFormErrors;
}

/** The form of a new offer (a draft, version 1). */
export function NewOfferPage({ origin, claimId, domain, values, errors }: NewOfferPageProps) {
  return (
    <Layout
      origin={origin}
      url={`${origin}${CONSOLE_PATHS.newOffer(claimId)}`}
      title={`New offer for ${domain} · Provider console`}
      description="Create a draft offer: its action, bounty and terms."
    >
      <Breadcrumb origin={origin} claimId={claimId} domain={domain} />
      <h1>New offer for {domain}</h1>
      <OfferForm
        action={`${origin}${CONSOLE_PATHS.offers(claimId)}`}
        button="Create the draft"
        domain={domain}
        values={values ?? { action_url: `https://${domain}/` }}
        errors={errors ?? { fields: {} }}
      />
    </Layout>
  );
}

/** The form's values of a saved offer. */
export function offerFormValues(offer: ConsoleOffer): OfferFormValues {
  const text = (value: number | undefined) => (value === undefined ? "" : String(value));
  return {
    name: offer.name,
    summary: offer.summary,
    action_type: offer.action_type,
    action_url: offer.action_url,
    charge_event: offer.charge_event,
    bounty_cents: String(offer.bounty_cents),
    principal_price_mode: offer.principal_price_mode,
    principal_price_cents: text(offer.principal_price_cents),
    terms_credit_limit_cents: text(offer.terms_credit_limit_cents),
    terms_period_days: text(offer.terms_period_days),
  };
}

export interface OfferPageProps {
  origin: string;
  offer: ConsoleOffer;
  /** The RFC 8785 canonical JSON the terms hash is taken over. */
  canonicalTerms: string;
  notice?: { tone: "success" | "error"; title: string; text: string };
  values?: OfferFormValues;
  errors?: OfferFormErrors;
}

/** An offer: its terms, the terms hash and how to recompute it, editing a draft, pausing an active offer. */
export function OfferPage({ origin, offer, canonicalTerms, notice, values, errors }: OfferPageProps) {
  return (
    <Layout
      origin={origin}
      url={`${origin}${CONSOLE_PATHS.offer(offer.id)}`}
      title={`${offer.name} · Provider console`}
      description="An offer's terms, its commercial-terms hash and its status."
    >
      <Breadcrumb origin={origin} claimId={offer.claim_id} domain={offer.domain} />
      <h1>{offer.name}</h1>
      {notice ? (
        <Notice tone={notice.tone} title={notice.title}>
          <p>{notice.text}</p>
        </Notice>
      ) : null}
      <dl class="claim-facts">
        <div>
          <dt>Status</dt>
          <dd>
            <OfferStatus status={offer.status} />
          </dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{offer.version}</dd>
        </div>
        <div>
          <dt>Action</dt>
          <dd>{offer.action_type}</dd>
        </div>
        <div>
          <dt>Charged when</dt>
          <dd>{offer.charge_event}</dd>
        </div>
        <div>
          <dt>Bounty</dt>
          <dd>{cents(offer.bounty_cents)}</dd>
        </div>
        <div>
          <dt>Price to the principal</dt>
          <dd>
            {offer.principal_price_mode}
            {offer.principal_price_cents !== undefined ? `, ${cents(offer.principal_price_cents)}` : ""}
          </dd>
        </div>
        <div>
          <dt>Credit limit</dt>
          <dd>{cents(offer.terms_credit_limit_cents)}</dd>
        </div>
        <div>
          <dt>Terms period</dt>
          <dd>{offer.terms_period_days ?? 30} days</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatTime(offer.updated_at)}</dd>
        </div>
      </dl>
      <p>{offer.summary}</p>
      <p>
        Action URL: <code class="url">{offer.action_url}</code>
      </p>

      <h2 id="terms-heading">Commercial-terms hash</h2>
      <p>
        <code class="url">{offer.commercial_terms_sha256}</code>
      </p>
      <p>
        It is the SHA-256 (lower-case hex) of the UTF-8 bytes of the RFC 8785 canonical JSON of the terms below
        (contract <code>{offer.commercial_terms_contract_version}</code>). The name and summary are not terms: changing
        them makes a new version with the same hash. To check it yourself, save the text below exactly, without a final
        newline, as <code>terms.json</code>, and run <code>sha256sum terms.json</code>.
      </p>
      <label for="canonical-terms">The hashed terms (canonical JSON)</label>
      <textarea id="canonical-terms" class="snippet" rows={6} readonly spellcheck={false}>
        {canonicalTerms}
      </textarea>

      {offer.status === "active" ? (
        <>
          <h2 id="pause-heading">Pause</h2>
          <p>Pausing takes the offer out of search results at once. Activating it again is the operator's act.</p>
          <form method="post" action={`${origin}${CONSOLE_PATHS.pauseOffer(offer.id)}`} class="inline-form">
            <button type="submit" class="danger">
              Pause the offer
            </button>
          </form>
        </>
      ) : null}

      {offer.status === "draft" && offer.revoked_at === null ? (
        <>
          <h2 id="edit-heading">Edit the draft</h2>
          <p>Each save is a new version; the terms hash changes when the terms do.</p>
          <OfferForm
            action={`${origin}${CONSOLE_PATHS.offer(offer.id)}`}
            button="Save a new version"
            domain={offer.domain}
            values={values ?? offerFormValues(offer)}
            errors={errors ?? { fields: {} }}
          />
        </>
      ) : null}
    </Layout>
  );
}

export function renderOffersPage(props: OffersPageProps): Promise<string> {
  return renderPage(<OffersPage {...props} />);
}

export function renderNewOfferPage(props: NewOfferPageProps): Promise<string> {
  return renderPage(<NewOfferPage {...props} />);
}

export function renderOfferPage(props: OfferPageProps): Promise<string> {
  return renderPage(<OfferPage {...props} />);
}
