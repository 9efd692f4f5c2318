/** Small building blocks the pages share. */
import type { Child } from "hono/jsx";
import { CRAWL_TIME_BUDGET_MS } from "../domain/crawling/crawl-budget.ts";
import { PROGRESS_SCRIPT } from "./progress-script.ts";

/**
 * A table too wide for a phone. On a narrow screen each row becomes a block of its cells, one per
 * line (the column heads stay for screen readers only), so every column can be read without
 * scrolling sideways; on a wider screen it is an ordinary table.
 */
export function StackingTable({ children }: { children: Child }) {
  return <table class="stacking">{children}</table>;
}

/** A message above a form or a report: an error (bad input, a refusal), a warning or plain information. */
export function Notice({
  tone,
  title,
  children,
}: {
  tone: "error" | "warning" | "info" | "success";
  title: string;
  children?: Child;
}) {
  // An error answers what the person just did, so it is announced; the rest is read in turn.
  return (
    <div class={`notice notice-${tone}`} role={tone === "error" ? "alert" : undefined}>
      <p class="notice-title">{title}</p>
      {children}
    </div>
  );
}

/** The id of the progress message of a slow form; the progress script shows it on submit. */
export function progressId(formId: string): string {
  return `${formId}-progress`;
}

export interface UrlFormProps {
  /** The form's id; its field is `${id}-url`. */
  id: string;
  action: string;
  method: "get" | "post";
  label: string;
  button: string;
  value?: string;
  placeholder: string;
  /** A plain-words error about the field, shown under it and tied to it. */
  error?: string;
  hint?: string;
  /** Show a progress message with the seconds elapsed while the answer is awaited (needs the progress script). */
  progress?: string;
}

/** A form with one URL field, as the check, submit and MCP verification pages use it. */
export function UrlForm({
  id,
  action,
  method,
  label,
  button,
  value,
  placeholder,
  error,
  hint,
  progress,
}: UrlFormProps) {
  const field = `${id}-url`;
  const described = [hint ? `${field}-hint` : "", error ? `${field}-error` : ""].filter(Boolean).join(" ");
  return (
    <form
      id={id}
      class="url-form"
      action={action}
      method={method}
      data-progress={progress ? progressId(id) : undefined}
    >
      <label for={field}>{label}</label>
      {hint ? (
        <p id={`${field}-hint`} class="field-hint">
          {hint}
        </p>
      ) : null}
      <div class="field-row">
        <input
          type="text"
          inputmode="url"
          id={field}
          name="url"
          value={value}
          placeholder={placeholder}
          autocomplete="url"
          spellcheck={false}
          required
          maxlength={2048}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={described || undefined}
        />
        <button type="submit">{button}</button>
      </div>
      {error ? (
        <p id={`${field}-error`} class="field-error">
          {error}
        </p>
      ) : null}
      {progress ? <ProgressMessage formId={id} text={progress} /> : null}
    </form>
  );
}

/** What the progress message of a live check says. */
export const CHECK_PROGRESS = `Checking the site; this takes up to ${CRAWL_TIME_BUDGET_MS / 1000} seconds.`;

/**
 * The progress message of a slow form: hidden until the progress script shows it on submit, then
 * an indeterminate bar, the text (announced once) and the seconds elapsed (not announced).
 */
export function ProgressMessage({ formId, text }: { formId: string; text: string }) {
  return (
    <p id={progressId(formId)} class="progress" role="status" hidden>
      <progress aria-label={text} /> <span>{text}</span>{" "}
      <span class="muted" aria-hidden="true">
        (<span data-seconds>0</span> s)
      </span>
    </p>
  );
}

/** The page's one script, placed after its forms: the progress message of its slow forms. */
export function ProgressScript() {
  return <script dangerouslySetInnerHTML={{ __html: PROGRESS_SCRIPT }} />;
}
