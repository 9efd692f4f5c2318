/**
 * The embeddable score badge: a compact two-part SVG ("agent ready | 85/100") in the flat style
 * READMEs show, self-contained (no font, image or script from anywhere), every text escaped.
 */

/** What a badge says: the score of an indexed site, or that the index does not hold it. */
export type BadgeSubject = { kind: "score"; score: number } | { kind: "not_indexed" };

export const BADGE_LABEL = "agent ready";
export const BADGE_HEIGHT = 20;

const LABEL_COLOUR = "#374151";
const NOT_INDEXED_COLOUR = "#6b7280";

/** Which of four bands a score falls in; the pages and the badge colour each band alike. */
export function scoreBand(score: number): "high" | "mid" | "low" | "poor" {
  if (score >= 80) return "high";
  if (score >= 50) return "mid";
  if (score >= 20) return "low";
  return "poor";
}

const BAND_COLOURS = { high: "#15803d", mid: "#a16207", low: "#c2410c", poor: "#b91c1c" } as const;

/**
 * The colour of a score; each is dark enough for white text (contrast at least 4.5:1), and the
 * number itself is always written, so the colour never carries the meaning alone.
 */
export function scoreColour(score: number): string {
  return BAND_COLOURS[scoreBand(score)];
}

/** The badge's right-hand text. */
export function badgeMessage(subject: BadgeSubject): string {
  return subject.kind === "score" ? `${subject.score}/100` : "not indexed";
}

// Approximate advance widths of Verdana at 11 px; the text is then fitted exactly with textLength.
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    if (/[ilj.,:;!|' ]/.test(char)) width += 3.6;
    else if (/[frt/()[\]]/.test(char)) width += 4.6;
    else if (/[mwMW]/.test(char)) width += 10.5;
    else if (/[A-Z0-9]/.test(char)) width += 7.2;
    else width += 6.6;
  }
  return Math.ceil(width);
}

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char] as string,
  );
}

/** The badge's width in pixels (its height is BADGE_HEIGHT), for the HTML snippet's img size. */
export function badgeWidth(subject: BadgeSubject): number {
  return textWidth(BADGE_LABEL) + textWidth(badgeMessage(subject)) + 20;
}

/** The badge as an SVG document. `title` is its accessible name (e.g. "example.com: agent ready 85/100"). */
export function renderBadge(subject: BadgeSubject, title: string): string {
  const message = badgeMessage(subject);
  const colour = subject.kind === "score" ? scoreColour(subject.score) : NOT_INDEXED_COLOUR;
  const labelText = textWidth(BADGE_LABEL);
  const messageText = textWidth(message);
  const labelWidth = labelText + 10;
  const messageWidth = messageText + 10;
  const width = labelWidth + messageWidth;
  const text = (x: number, length: number, content: string) =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3" textLength="${length}" lengthAdjust="spacingAndGlyphs">${content}</text>` +
    `<text x="${x}" y="14" textLength="${length}" lengthAdjust="spacingAndGlyphs">${content}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${BADGE_HEIGHT}" viewBox="0 0 ${width} ${BADGE_HEIGHT}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `<clipPath id="r"><rect width="${width}" height="${BADGE_HEIGHT}" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${labelWidth}" height="${BADGE_HEIGHT}" fill="${LABEL_COLOUR}"/><rect x="${labelWidth}" width="${messageWidth}" height="${BADGE_HEIGHT}" fill="${colour}"/><rect width="${width}" height="${BADGE_HEIGHT}" fill="url(#s)"/></g>`,
    `<g fill="#fff" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`,
    text(5, labelText, escapeXml(BADGE_LABEL)),
    text(labelWidth + 5, messageText, escapeXml(message)),
    "</g></svg>",
    "",
  ].join("");
}
