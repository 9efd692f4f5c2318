/**
 * A site's score history as a small chart drawn on the server: an inline SVG (no script, no
 * image request), scores 0–100 up the side, time along the bottom, oldest on the left. The same
 * numbers follow as a table for screen readers and for anyone who wants the exact values.
 */

export interface ScorePoint {
  agentic_score: number;
  recorded_at: string;
}

// The drawing's own units; CSS scales it to the column's width.
const WIDTH = 360;
const HEIGHT = 150;
const PLOT = { left: 30, right: WIDTH - 12, top: 10, bottom: HEIGHT - 24 };
const GRID_SCORES = [0, 50, 100];

/** The day of an ISO timestamp, as the chart and its table show it. */
export function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

/**
 * Where each point is drawn: x by time (evenly spread when all share one instant), y by score.
 * Exported for tests; `history` may come in any order.
 */
export function plotPoints(history: ScorePoint[]): { x: number; y: number; point: ScorePoint }[] {
  const ordered = [...history].sort((a, b) => Date.parse(a.recorded_at) - Date.parse(b.recorded_at));
  const first = Date.parse(ordered[0]?.recorded_at ?? "");
  const last = Date.parse(ordered.at(-1)?.recorded_at ?? "");
  const span = last - first;
  const plotWidth = PLOT.right - PLOT.left;
  return ordered.map((point, index) => {
    const share =
      ordered.length === 1
        ? 0.5
        : span > 0
          ? (Date.parse(point.recorded_at) - first) / span
          : index / (ordered.length - 1);
    return {
      x: Math.round((PLOT.left + share * plotWidth) * 10) / 10,
      y: Math.round((PLOT.bottom - (point.agentic_score / 100) * (PLOT.bottom - PLOT.top)) * 10) / 10,
      point,
    };
  });
}

/** The chart and its table, or a sentence when there is no history yet. `id` prefixes its ids. */
export function ScoreHistoryChart({ history, id }: { history: ScorePoint[]; id: string }) {
  if (history.length === 0) return <p class="muted">No score history yet: it starts with the first crawl.</p>;
  const points = plotPoints(history);
  const first = points[0]!.point;
  const last = points.at(-1)!.point;
  const summary =
    points.length === 1
      ? `One score so far: ${last.agentic_score} on ${dayOf(last.recorded_at)}.`
      : `${points.length} scores from ${dayOf(first.recorded_at)} (${first.agentic_score}) to ${dayOf(last.recorded_at)} (${last.agentic_score}).`;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id={`${id}-title`}>Score history</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {GRID_SCORES.map((score) => {
          const y = PLOT.bottom - (score / 100) * (PLOT.bottom - PLOT.top);
          return (
            <g>
              <line x1={PLOT.left} x2={PLOT.right} y1={y} y2={y} stroke="#cbd5e1" stroke-width="1" />
              <text x={PLOT.left - 6} y={y + 4} text-anchor="end" font-size="11" fill="#4b5563">
                {score}
              </text>
            </g>
          );
        })}
        <text x={PLOT.left} y={HEIGHT - 6} font-size="11" fill="#4b5563">
          {dayOf(first.recorded_at)}
        </text>
        {points.length > 1 ? (
          <text x={PLOT.right} y={HEIGHT - 6} text-anchor="end" font-size="11" fill="#4b5563">
            {dayOf(last.recorded_at)}
          </text>
        ) : null}
        {points.length > 1 ? (
          <polyline
            points={points.map(({ x, y }) => `${x},${y}`).join(" ")}
            fill="none"
            stroke="#1d4ed8"
            stroke-width="2"
            stroke-linejoin="round"
          />
        ) : null}
        {points.map(({ x, y, point }) => (
          <circle cx={x} cy={y} r="3.5" fill="#1d4ed8">
            <title>{`${point.agentic_score} on ${dayOf(point.recorded_at)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>{summary}</figcaption>
      <details>
        <summary>Every score</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Recorded</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {[...points].reverse().map(({ point }) => (
              <tr>
                <td>
                  <time datetime={point.recorded_at}>{dayOf(point.recorded_at)}</time>
                </td>
                <td>{point.agentic_score}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
