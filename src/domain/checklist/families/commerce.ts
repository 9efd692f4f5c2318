/**
 * The commerce family: the protocols agents pay and buy through. `ap2`: the A2A agent card
 * declares the Agent Payments Protocol extension (AP2's docs/a2a-extension.md: the extension URI
 * `https://github.com/google-agentic-commerce/ap2/tree/v0.1` in `capabilities.extensions[]`, with
 * `params.roles`, at least one of the AP2 roles). Read from the agent card the agents family
 * fetched (no request of its own); nothing is ever paid.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */
import { isRecord } from "../../signals/blocking.ts";
import type { ProbeResponse } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  isErrorBody,
  type Judge,
  missing,
  readJsonAnswer,
  standingOf,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS } from "../checklist-answers.ts";

const FIX = {
  ap2: fixWith(
    "If your agent takes or makes payments, declare the AP2 extension in its A2A agent card's capabilities, with the roles it performs.",
    '"capabilities": {"extensions": [{"uri": "https://github.com/google-agentic-commerce/ap2/tree/v0.1",\n  "required": true, "params": {"roles": ["merchant"]}}]}',
  ),
} as const;

/** The AP2 extension URI's stem (versions are path segments after it). */
const AP2_URI = /^https:\/\/github\.com\/google-agentic-commerce\/ap2(?:\/|$)/i;

/** The roles of AP2's AgentCard extension parameters. */
const AP2_ROLES = new Set([
  "merchant",
  "shopper",
  "credentials-provider",
  "payment-processor",
  "micropayment-provider",
  "streaming-payment-consumer",
]);

export const checkAp2: Judge = (answers) => {
  const paths = [CHECKLIST_PATHS.a2aCard, CHECKLIST_PATHS.a2aLegacy];
  const responses: (ProbeResponse | undefined)[] = paths.map((path) => answerAt(answers, path));
  const evidence = evidenceOf(...responses);
  for (const [i, response] of responses.entries()) {
    const standing = standingOf(response, answers);
    if (standing.kind !== "answer") continue;
    const read = readJsonAnswer(standing.answer, paths[i]!);
    if ("problem" in read || isErrorBody(read.document) || !isRecord(read.document)) continue;
    const capabilities = isRecord(read.document.capabilities) ? read.document.capabilities : null;
    const extensions = Array.isArray(capabilities?.extensions) ? capabilities.extensions : [];
    const ap2 = extensions.find((each) => isRecord(each) && typeof each.uri === "string" && AP2_URI.test(each.uri));
    if (!isRecord(ap2))
      return missing(`the A2A agent card at ${paths[i]} declares no AP2 extension`, evidence, FIX.ap2);
    const params = isRecord(ap2.params) ? ap2.params : null;
    const roles = Array.isArray(params?.roles) ? params.roles.filter((role) => typeof role === "string") : [];
    const known = roles.filter((role) => AP2_ROLES.has(role));
    if (known.length === 0)
      return verdict(
        "fail",
        `the A2A agent card at ${paths[i]} declares the AP2 extension without an AP2 role (params.roles)`,
        evidence,
        FIX.ap2,
      );
    if (known.length < roles.length)
      return verdict(
        "warn",
        `the A2A agent card at ${paths[i]} declares AP2 (${known.join(", ")}) with roles AP2 does not define (${roles.filter((role) => !AP2_ROLES.has(role)).join(", ")})`,
        evidence,
        FIX.ap2,
      );
    return verdict("pass", `the A2A agent card at ${paths[i]} declares AP2 as ${known.join(", ")}`, evidence);
  }
  for (const response of responses) {
    const standing = standingOf(response, answers);
    if (response && (standing.kind === "blocked" || standing.kind === "error"))
      return verdict(standing.kind, standing.clause, evidence, FIX.ap2);
  }
  return missing("no A2A agent card, so no AP2 extension", evidence, FIX.ap2);
};
