/**
 * The relevance benchmark's two sets (docs/benchmarks.md, "Relevance"): every judged intent is
 * on the tuning side or the held-out side by a hash of its graded services, so that two queries
 * judged with one set of grades ("send sms" and "text message") and the requests written for
 * them always fall on the same side. Ranking work looks only at the tuning side's figures.
 */
import { createHash } from "node:crypto";
import { JUDGEMENTS, type Judgement } from "./relevance-judgements.ts";
import { REQUESTS } from "./relevance-requests.ts";

export type Side = "tune" | "held-out";

export interface JudgedQuery {
  q: string;
  kind: "short" | "request";
  side: Side;
  grades: Judgement["grades"];
}

/** The side of a judgement: even first byte of the hash of its sorted graded domains is tuning. */
export function sideOf(judgement: Judgement): Side {
  const key = Object.keys(judgement.grades).sort().join(" ");
  const byte = createHash("sha256").update(`relevance-split:${key}`).digest()[0] ?? 0;
  return byte % 2 === 0 ? "tune" : "held-out";
}

/** Every judged short query and request, each with its side. */
export function judgedQueries(): JudgedQuery[] {
  return JUDGEMENTS.flatMap((judgement) => {
    const side = sideOf(judgement);
    const requests = REQUESTS[judgement.q] ?? [];
    return [
      { q: judgement.q, kind: "short" as const, side, grades: judgement.grades },
      ...requests.map((q) => ({ q, kind: "request" as const, side, grades: judgement.grades })),
    ];
  });
}
