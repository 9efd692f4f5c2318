/**
 * Domain input as people and agents type it: any case, a trailing dot, Unicode. The index keys
 * sites by the lower-case ASCII (punycode) host name without scheme, port or trailing dot.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The index's form of a domain name, or null when the input is not a host name at all. */
export function normalizeDomain(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, "");
  if (!trimmed || trimmed.length > 253 || /[\s/:@?#\\]/.test(trimmed)) return null;
  let ascii: string;
  try {
    // The URL parser applies IDNA (Unicode to punycode) and lower-cases, as browsers do.
    ascii = new URL(`http://${trimmed}`).hostname;
  } catch {
    return null;
  }
  const labels = ascii.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // A bare IPv4 address is not a site's domain.
  if (labels.every((label) => /^\d+$/.test(label))) return null;
  return ascii;
}
