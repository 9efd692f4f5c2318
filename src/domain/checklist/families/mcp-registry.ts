/**
 * The MCP Registry's HTTP namespace proof (`mcp_registry_auth`, category discovery):
 * `/.well-known/mcp-registry-auth` holds `v=MCPv1; k=ed25519; p=<key>` lines (readers/
 * mcp-registry-auth.ts) whose key parses as the registry parses it. It proves the site's domain
 * owns the registry namespace of its reverse-DNS name (`com.example/*`). Absent, it is neutral
 * unless the site runs an MCP server (then fail: the server cannot be listed under the domain's
 * name by HTTP proof). Nothing is ever sent to the registry.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 */
import { readMcpRegistryAuth } from "../../readers/mcp-registry-auth.ts";
import { isHtmlAnswer, parseJson } from "../../signals/blocking.ts";
import { evidenceOf, fixWith, isErrorBody, type Judge, missing, standingOf, verdict } from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS, type ChecklistAnswers } from "../checklist-answers.ts";

const FIX = {
  registryAuth: fixWith(
    "To list your MCP server in the MCP Registry under your domain's namespace, publish the public key of `mcp-publisher login http` at /.well-known/mcp-registry-auth (plain text, one line per key).",
    "v=MCPv1; k=ed25519; p=<base64 of the 32-byte Ed25519 public key>",
  ),
} as const;

function absent(answers: ChecklistAnswers, clause: string, evidence: ReturnType<typeof evidenceOf>) {
  if (answers.signals.has_mcp_server.status === "present")
    return verdict(
      "fail",
      `${clause}, though the site runs an MCP server: it has no HTTP proof of its MCP Registry namespace`,
      evidence,
      FIX.registryAuth,
    );
  return missing(clause, evidence, FIX.registryAuth);
}

export const checkMcpRegistryAuth: Judge = (answers) => {
  const path = CHECKLIST_PATHS.mcpRegistryAuth;
  const response = answerAt(answers, path);
  const evidence = evidenceOf(response);
  const standing = standingOf(response, answers);
  if (standing.kind !== "answer")
    return standing.kind === "absent"
      ? absent(answers, standing.clause, evidence)
      : verdict(standing.kind, standing.clause, evidence, FIX.registryAuth);
  const answer = standing.answer;
  if (isHtmlAnswer(answer)) return absent(answers, `${path} answered an HTML page (a soft 404)`, evidence);
  const document = parseJson(answer.body);
  if (document !== undefined && isErrorBody(document))
    return absent(answers, `${path} answered a JSON error body`, evidence);
  const read = readMcpRegistryAuth(answer.body);
  if (read.keys.length === 0)
    return verdict("fail", `${path} holds no v=MCPv1; k=…; p=… record`, evidence, FIX.registryAuth);
  const good = read.keys.filter((key) => key.problem === null);
  const bad = read.keys.filter((key) => key.problem !== null);
  if (good.length === 0)
    return verdict(
      "fail",
      `${path}'s ${read.keys.length === 1 ? "key does" : "keys do"} not parse: ${bad[0]!.problem}`,
      evidence,
      FIX.registryAuth,
    );
  const algorithms = [...new Set(good.map((key) => key.algorithm))].join(", ");
  if (bad.length > 0)
    return verdict(
      "warn",
      `${path} holds ${good.length} usable ${algorithms} key${good.length === 1 ? "" : "s"}, but another does not parse: ${bad[0]!.problem}`,
      evidence,
      FIX.registryAuth,
    );
  return verdict(
    "pass",
    `${path} holds ${good.length === 1 ? "an" : good.length} MCP Registry ${algorithms} public key${good.length === 1 ? "" : "s"} that parse${good.length === 1 ? "s" : ""}`,
    evidence,
  );
};
