/**
 * The search form: the query and every filter of GET /api/v1/search, as fields that work without
 * script. A field left empty means "any", as if the parameter were not sent.
 */
import { SEARCH_FILTER_PARAMS, SEARCH_FILTERS, type SearchFilterParam } from "../domain/search/search-filters.ts";
import { MAX_QUERY_LENGTH } from "../domain/search/text-query.ts";
import { AUDIT_ONLY_CATEGORIES, CATEGORIES } from "../domain/sites/site-fields.ts";
import type { FieldError } from "../http/problem.ts";

/** The form's fields, by their API parameter names, in the order the form shows them: the filters as declared once. */
export const SEARCH_FORM_FIELDS = ["q", ...SEARCH_FILTER_PARAMS, "page"] as const;
export type SearchFormField = "q" | SearchFilterParam | "page";

/** What the form holds: the text of each field as sent (absent when not sent). */
export type SearchFormValues = Partial<Record<SearchFormField, string>>;

/** How each field is named for people, also in error messages: a filter's label is its declaration's. */
export const SEARCH_FIELD_LABELS: Record<SearchFormField, string> = {
  q: "Words",
  ...(Object.fromEntries(SEARCH_FILTERS.map((filter) => [filter.param, filter.label])) as Record<
    SearchFilterParam,
    string
  >),
  page: "Page",
};

const FLAG_FIELDS = SEARCH_FILTERS.filter((filter) => filter.kind === "flag").map((filter) => filter.param);
const FILTER_FIELDS = SEARCH_FILTER_PARAMS;

/** True when any filter (not the words or the page) is set, so the filters start open. */
export function hasFilters(values: SearchFormValues): boolean {
  return FILTER_FIELDS.some((field) => values[field]);
}

function ErrorFor({ field, errors }: { field: SearchFormField; errors: FieldError[] }) {
  const messages = errors.filter((error) => error.field === field).map((error) => error.message);
  if (!messages.length) return null;
  return (
    <p id={`${field}-error`} class="field-error">
      {SEARCH_FIELD_LABELS[field]} {messages.join("; ")}.
    </p>
  );
}

/** Attributes tying a field to its error message, when it has one. */
function invalidity(field: SearchFormField, errors: FieldError[]) {
  return errors.some((error) => error.field === field)
    ? { "aria-invalid": "true", "aria-describedby": `${field}-error` }
    : {};
}

export interface SearchFormProps {
  action: string;
  values?: SearchFormValues;
  errors?: FieldError[];
}

export function SearchForm({ action, values = {}, errors = [] }: SearchFormProps) {
  return (
    <search>
      <form class="search-form" action={action} method="get">
        <div class="field-row">
          <label for="q" class="visually-hidden">
            Search the index
          </label>
          <input
            type="search"
            id="q"
            name="q"
            value={values.q}
            placeholder="e.g. payments"
            maxlength={MAX_QUERY_LENGTH}
            {...invalidity("q", errors)}
          />
          <button type="submit">Search</button>
        </div>
        <ErrorFor field="q" errors={errors} />
        <details class="filters" open={hasFilters(values) || errors.length > 0}>
          <summary>Filters</summary>
          <div class="filter-grid">
            <div class="field">
              <label for="category">{SEARCH_FIELD_LABELS.category}</label>
              <select id="category" name="category" {...invalidity("category", errors)}>
                <option value="">Any</option>
                {CATEGORIES.map((category) => (
                  <option value={category} selected={values.category === category}>
                    {category}
                    {(AUDIT_ONLY_CATEGORIES as readonly string[]).includes(category) ? " (audit only)" : ""}
                  </option>
                ))}
              </select>
              <ErrorFor field="category" errors={errors} />
            </div>
            <div class="field">
              <label for="tag">{SEARCH_FIELD_LABELS.tag}</label>
              <input
                type="text"
                id="tag"
                name="tag"
                value={values.tag}
                placeholder="e.g. payment"
                autocomplete="off"
                {...invalidity("tag", errors)}
              />
              <ErrorFor field="tag" errors={errors} />
            </div>
            <div class="field">
              <label for="min_score">{SEARCH_FIELD_LABELS.min_score}</label>
              <input
                type="number"
                id="min_score"
                name="min_score"
                value={values.min_score}
                min={0}
                max={100}
                step={1}
                inputmode="numeric"
                placeholder="0 to 100"
                {...invalidity("min_score", errors)}
              />
              <ErrorFor field="min_score" errors={errors} />
            </div>
            {FLAG_FIELDS.map((field) => (
              <div class="field">
                <label for={field}>{SEARCH_FIELD_LABELS[field]}</label>
                <select id={field} name={field} {...invalidity(field, errors)}>
                  <option value="">Any</option>
                  <option value="true" selected={values[field] === "true"}>
                    With
                  </option>
                  <option value="false" selected={values[field] === "false"}>
                    Without
                  </option>
                </select>
                <ErrorFor field={field} errors={errors} />
              </div>
            ))}
          </div>
        </details>
        <ErrorFor field="page" errors={errors} />
      </form>
    </search>
  );
}
