/**
 * auth.md, the open agent-registration protocol (`auth_md`, category auth): `/auth.md` is an
 * auth.md document (readers/auth-md.ts), and the authorization server the site's RFC 9728
 * protected-resource metadata leads to (the same chain as `oauth_protected_resource`: the 401's
 * `resource_metadata`, the path-suffixed URL, the origin's) carries an `agent_auth` block with a
 * `register_uri` in its RFC 8414 metadata. The register_uri is read, never called: a crawl never
 * registers and never POSTs.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 */
import { readAgentAuthBlock, readAuthMd } from "../../readers/auth-md.ts";
import { isHtmlAnswer, isRecord, parseJson } from "../../signals/blocking.ts";
import type { ProbeAnswer } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  isPlaceholder,
  type Judge,
  linkedOutcome,
  missing,
  unanswered,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS, type ChecklistAnswers } from "../checklist-answers.ts";
import { authorizationServerMetadataUrl, protectedResourceServers } from "./auth.ts";

const FIX = {
  authMd: fixWith(
    "If agents may register for your service, publish /auth.md (Markdown titled `# auth.md`) and an `agent_auth` block with a `register_uri` in your authorization server's RFC 8414 metadata, reached through RFC 9728 protected-resource metadata.",
    '# auth.md\n\nThis service supports agentic registration. Discover it through\n/.well-known/oauth-protected-resource, then read `agent_auth` from\n/.well-known/oauth-authorization-server:\n\n{"agent_auth": {"register_uri": "https://auth.example.com/agent/auth",\n  "identity_types_supported": ["user_claimed"]}}',
  ),
} as const;

/** The authorization server metadata auth.md leads to, and how it was reached. */
function serverMetadata(answers: ChecklistAnswers): { url: string; via: string } | null {
  const server = protectedResourceServers(answers)[0];
  const url = server ? authorizationServerMetadataUrl(server) : null;
  return url ? { url, via: `the authorization server (${server}) of the protected-resource metadata` } : null;
}

export const checkAuthMd: Judge = (answers) => {
  const path = CHECKLIST_PATHS.authMd;
  const response = answerAt(answers, path);
  const early = unanswered(response, answers, FIX.authMd);
  if (early) return early;
  const answer = response as ProbeAnswer;
  if (isHtmlAnswer(answer))
    return missing(`${path} answered an HTML page (a soft 404)`, evidenceOf(response), FIX.authMd);
  if (parseJson(answer.body) !== undefined)
    return missing(`${path} answered JSON, not Markdown`, evidenceOf(response), FIX.authMd);
  const document = readAuthMd(answer.body);
  if (!document.titled)
    return verdict(
      "fail",
      document.title
        ? `${path} is titled "${document.title.slice(0, 60)}", not auth.md`
        : `${path} is not an auth.md document (no "# auth.md" title)`,
      evidenceOf(response),
      FIX.authMd,
    );
  // The chain: RFC 9728 metadata → its authorization server → the agent_auth block.
  const found = serverMetadata(answers);
  const fallback = { url: `${answers.origin}${CHECKLIST_PATHS.authorizationServer}`, via: "the origin's own metadata" };
  const target = found ?? fallback;
  const metadata = answers.get.get(target.url);
  const evidence = evidenceOf(response, metadata);
  const linked = linkedOutcome(metadata, answers);
  if (linked.state === "undecided")
    return verdict(
      "error",
      `${path} is an auth.md document, but whether its authorization server carries agent_auth could not be decided: ${linked.clause}`,
      evidence,
      FIX.authMd,
    );
  if (linked.state !== "answer")
    return verdict(
      "fail",
      found
        ? `${path} is an auth.md document, but ${target.via} has no RFC 8414 metadata (${linked.clause})`
        : `${path} is an auth.md document, but no RFC 9728 metadata leads to an authorization server and this origin has no RFC 8414 metadata (${linked.clause})`,
      evidence,
      FIX.authMd,
    );
  const parsed = parseJson(linked.answer.body);
  const block = isRecord(parsed) ? readAgentAuthBlock(parsed, target.url) : null;
  if (!block)
    return verdict(
      "fail",
      `${path} is an auth.md document, but ${target.via} (${linked.where}) has no agent_auth block`,
      evidence,
      FIX.authMd,
    );
  if (!block.registerUri)
    return verdict(
      "fail",
      block.registerUriText
        ? `the agent_auth block's register_uri (${block.registerUriText.slice(0, 80)}) is not an http(s) URL`
        : "the agent_auth block has no register_uri",
      evidence,
      FIX.authMd,
    );
  if (isPlaceholder(block.registerUri, answers.origin))
    return verdict(
      "fail",
      `the agent_auth block's register_uri is a placeholder (${block.registerUri})`,
      evidence,
      FIX.authMd,
    );
  const reason = `${path} is an auth.md document and ${target.via} names register_uri ${block.registerUri} in agent_auth (read, not called: the crawl never registers)`;
  if (!found)
    return verdict(
      "warn",
      `${reason}; but no RFC 9728 protected-resource metadata leads agents there`,
      evidence,
      FIX.authMd,
    );
  return verdict("pass", reason, evidence);
};
