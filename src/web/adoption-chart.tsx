/**
 * The charts of /state, drawn on the server as inline SVG (no script, no image request): one
 * item's share of sites over the days, and the split of MCP endpoint health. Each is an image with
 * a title and a description that say what it shows in words, a visible caption with the same
 * figures, and a table of the values (first day of each month and the last), so nothing is only
 * in the drawing.
 */
import { type AdoptionSeries, formatShare, monthlyPoints } from "./adoption-summary.ts";

const WIDTH = 320;
const HEIGHT = 130;
const PLOT = { left: 44, right: WIDTH - 8, top: 8, bottom: HEIGHT - 22 };

/**
 * The top of the share axis: the next 10 % above the largest share (at least 10 %). Given several
 * series (a group of charts), one top for all of them, so the curves of a group can be compared
 * by eye: a 10 % item does not look like a 60 % one.
 */
export function shareAxisTop(series: AdoptionSeries | readonly AdoptionSeries[]): number {
  const all: readonly AdoptionSeries[] = "points" in series ? [series] : series;
  const largest = Math.max(...all.flatMap((entry) => entry.points.map((point) => point.share)), 0);
  return Math.min(1, Math.max(0.1, Math.ceil(largest * 10 - 1e-9) / 10));
}

/**
 * Where the line runs: x by day (the first day left, the last right), y by share. At most one
 * point a week (and the last), which is all a 320-unit drawing can show.
 */
export function chartLine(series: AdoptionSeries, top: number = shareAxisTop(series)): string {
  const { points } = series;
  const firstTime = Date.parse(points[0]!.day);
  const span = Math.max(1, Date.parse(points.at(-1)!.day) - firstTime);
  const drawn = points.filter((_, index) => (points.length - 1 - index) % 7 === 0 || index === 0);
  return drawn
    .map((point) => {
      const x =
        points.length === 1
          ? (PLOT.left + PLOT.right) / 2
          : PLOT.left + ((Date.parse(point.day) - firstTime) / span) * (PLOT.right - PLOT.left);
      const y = PLOT.bottom - (point.share / top) * (PLOT.bottom - PLOT.top);
      return `${Math.round(x * 10) / 10},${Math.round(y * 10) / 10}`;
    })
    .join(" ");
}

/** The sentence that describes a series: its text alternative and caption. */
export function describeSeries(series: AdoptionSeries): string {
  const { first, latest } = series;
  const counted =
    series.kind === "signal"
      ? "of all indexed sites"
      : series.kind === "check"
        ? "of the sites whose checklist has this check (a pass only)"
        : "of the sites that advertise an MCP endpoint";
  if (first.day === latest.day) {
    return `${formatShare(latest.share)} ${counted} on ${latest.day} (${latest.with_item} of ${latest.sites}).`;
  }
  return `${formatShare(first.share)} on ${first.day}, ${formatShare(latest.share)} on ${latest.day} (${latest.with_item} of ${latest.sites} sites), ${counted}.`;
}

/**
 * One item's share over time. `id` is unique on the page; `top` is the group's shared axis top
 * (this series' own when not given).
 */
export function AdoptionChart({
  series,
  id,
  top = shareAxisTop(series),
}: {
  series: AdoptionSeries;
  id: string;
  top?: number;
}) {
  const summary = describeSeries(series);
  return (
    <figure class="chart adoption-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id={`${id}-title`}>{`${series.label}: share of sites over time`}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[0, top / 2, top].map((share) => {
          const y = PLOT.bottom - (share / top) * (PLOT.bottom - PLOT.top);
          return (
            <g>
              <line x1={PLOT.left} x2={PLOT.right} y1={y} y2={y} stroke="#cbd5e1" stroke-width="1" />
              <text x={PLOT.left - 5} y={y + 4} text-anchor="end" font-size="11" fill="#4b5563">
                {`${Math.round(share * 1000) / 10} %`}
              </text>
            </g>
          );
        })}
        <text x={PLOT.left} y={HEIGHT - 5} font-size="11" fill="#4b5563">
          {series.first.day}
        </text>
        <text x={PLOT.right} y={HEIGHT - 5} text-anchor="end" font-size="11" fill="#4b5563">
          {series.latest.day}
        </text>
        <polyline
          points={chartLine(series, top)}
          fill="none"
          stroke="#1d4ed8"
          stroke-width="2"
          stroke-linejoin="round"
        />
      </svg>
      <figcaption>
        <strong>{series.label}</strong>: {summary}
      </figcaption>
      <details>
        <summary>
          Values<span class="visually-hidden"> of {series.label}</span>
        </summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Share</th>
              <th scope="col">Sites</th>
            </tr>
          </thead>
          <tbody>
            {monthlyPoints(series.points).map((point) => (
              <tr>
                <td>
                  <time datetime={point.day}>{point.day}</time>
                </td>
                <td>{formatShare(point.share)}</td>
                <td>
                  {point.with_item} of {point.sites}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** The classes' colours; the stylesheet's `.swatch-N` repeat them for the legend (no inline styles: CSP). */
export const HEALTH_COLOURS = ["#15803d", "#b45309", "#6d28d9", "#b91c1c"];

/** The split of MCP endpoint health on the latest day, as one bar; the table beside it has the figures. */
export function HealthBar({ series, id }: { series: AdoptionSeries[]; id: string }) {
  const total = series[0]?.latest.sites ?? 0;
  let x = 0;
  const summary = series.map((entry) => `${entry.label.toLowerCase()}: ${formatShare(entry.latest.share)}`).join("; ");
  return (
    <figure class="chart">
      <svg
        viewBox="0 0 320 28"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id={`${id}-title`}>{`How the MCP endpoints of ${total} sites answered`}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {series.map((entry, index) => {
          const width = total > 0 ? (entry.latest.with_item / total) * 320 : 0;
          const rect = (
            <rect
              x={Math.round(x * 10) / 10}
              y="2"
              width={Math.round(width * 10) / 10}
              height="24"
              fill={HEALTH_COLOURS[index % HEALTH_COLOURS.length]}
            />
          );
          x += width;
          return rect;
        })}
      </svg>
      <figcaption>
        <ul class="legend">
          {series.map((entry, index) => (
            <li>
              <span class={`swatch swatch-${index}`} aria-hidden="true" />
              {entry.label}: {formatShare(entry.latest.share)}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
