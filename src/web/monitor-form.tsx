/**
 * The sign-up form for a domain's score-drop alerts, on its own page (/monitor) and on each site's
 * report. It posts to /monitor, which calls the same operation as POST /api/v1/monitor/register.
 */
import { MONITOR_PATHS } from "../domain/monitors/monitor-constants.ts";
import { Notice } from "./components.tsx";

export interface MonitorFormProps {
  origin: string;
  /** The domain to watch: a hidden field when fixed (a site's report), else a field to fill in. */
  domain?: string;
  fixedDomain?: boolean;
  email?: string;
  error?: string;
}

export function MonitorSignUpForm({ origin, domain, fixedDomain, email, error }: MonitorFormProps) {
  const button = fixedDomain ? `Alert me when ${domain}'s score drops` : "Alert me when the score drops";
  return (
    <form id="monitor" class="url-form" method="post" action={`${origin}${MONITOR_PATHS.signUp}`}>
      {error ? (
        <Notice tone="error" title="The alert could not be set up.">
          <p>{error}</p>
        </Notice>
      ) : null}
      {fixedDomain ? (
        <input type="hidden" name="domain" value={domain ?? ""} />
      ) : (
        <div class="form-field">
          <label for="monitor-domain">Domain to watch</label>
          <p id="monitor-domain-hint" class="field-hint">
            A domain without https://, such as example.com.
          </p>
          <div class="field-row">
            <input
              id="monitor-domain"
              name="domain"
              type="text"
              required
              maxlength={253}
              spellcheck={false}
              autocomplete="off"
              aria-describedby="monitor-domain-hint"
              value={domain ?? ""}
            />
          </div>
        </div>
      )}
      <div class="form-field">
        <label for="monitor-email">Your e-mail address</label>
        <p id="monitor-email-hint" class="field-hint">
          We first send a confirmation link; alerts go only to an address that confirmed.
        </p>
        <div class="field-row">
          <input
            id="monitor-email"
            name="email"
            type="email"
            required
            maxlength={254}
            autocomplete="email"
            aria-describedby="monitor-email-hint"
            value={email ?? ""}
          />
          <button type="submit">{button}</button>
        </div>
      </div>
    </form>
  );
}
