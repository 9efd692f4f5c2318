/**
 * A small horizontal bar chart drawn on the server: an inline SVG (no script, no image request),
 * one labelled bar per row with its number written beside it, so the chart never relies on length
 * alone. The page's table beside it carries the same numbers for screen readers.
 */

export interface Bar {
  label: string;
  value: number;
}

// The drawing's own units; CSS scales it to the column's width.
const WIDTH = 360;
const ROW = 26;
const LABEL_WIDTH = 80;
const VALUE_WIDTH = 56;

/** Each bar's drawn length (0 for 0; at least 2 units for any positive value, so it shows). Exported for tests. */
export function barLengths(bars: readonly Bar[]): number[] {
  const most = Math.max(0, ...bars.map((bar) => bar.value));
  const room = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  return bars.map((bar) => (bar.value <= 0 || most === 0 ? 0 : Math.max(2, Math.round((bar.value / most) * room))));
}

/** The chart with a caption; `id` prefixes its ids, `summary` is what a screen reader hears. */
export function BarChart({
  bars,
  id,
  title,
  summary,
}: {
  bars: readonly Bar[];
  id: string;
  title: string;
  summary: string;
}) {
  const lengths = barLengths(bars);
  const height = bars.length * ROW + 4;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width={WIDTH}
        height={height}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {bars.map((bar, index) => {
          const y = index * ROW + 2;
          const length = lengths[index] ?? 0;
          return (
            <g>
              <text x={LABEL_WIDTH - 8} y={y + 16} text-anchor="end" font-size="13" fill="#111827">
                {bar.label}
              </text>
              <rect x={LABEL_WIDTH} y={y + 3} width={length} height={ROW - 8} rx="3" fill="#1d4ed8" />
              <text x={LABEL_WIDTH + length + 6} y={y + 16} font-size="13" fill="#111827">
                {String(bar.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>{summary}</figcaption>
    </figure>
  );
}
