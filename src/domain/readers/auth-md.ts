/**
 * auth.md, the open agent-registration protocol: its two formats.
 *
 * 1. The document, `/auth.md` at the service root: Markdown whose title is `# auth.md`, a numbered
 *    walkthrough an agent follows (discover through RFC 9728 protected-resource metadata, then
 *    the authorization server's RFC 8414 metadata; register; claim…). Agents read its headings,
 *    fenced blocks and prose; the structured metadata stays the authority for endpoints.
 * 2. The `agent_auth` block the protocol adds to the authorization server's RFC 8414 metadata:
 *    `register_uri` (where an agent registers), `claim_uri`, `revocation_uri`,
 *    `identity_types_supported`, the per-type `*_supported` arrays, `events_supported`, `skill`.
 *
 * Markdown is read line by line (headings only), as the llms.txt checks read it: no Markdown
 * parser is needed to find a title and its sections.
 */
import { isRecord, resolveHttpUrl } from "../signals/blocking.ts";

export interface AuthMdDocument {
  /** The first ATX heading of level 1, as written (without the `#`), or null. */
  title: string | null;
  /** True when that title is `auth.md` (case and surrounding backquotes aside). */
  titled: boolean;
  /** The level-2 headings, as written. */
  sections: string[];
  /** True when the text reads as HTML rather than Markdown. */
  html: boolean;
  /** True when the text names RFC 9728 metadata (`oauth-protected-resource`) or `agent_auth`. */
  namesDiscovery: boolean;
}

/** Reads the text of `/auth.md`. */
export function readAuthMd(text: string): AuthMdDocument {
  const head = text.slice(0, 65_536);
  const html = /^\s*(?:<!doctype html|<html[\s>])/i.test(head);
  let title: string | null = null;
  const sections: string[] = [];
  let fenced = false;
  for (const line of head.split(/\r?\n/)) {
    if (/^\s{0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    if (heading[1] === "#" && title === null) title = heading[2]!;
    else if (heading[1] === "##") sections.push(heading[2]!);
  }
  const titled = title !== null && title.replace(/`/g, "").trim().toLowerCase() === "auth.md";
  const namesDiscovery = /oauth-protected-resource|agent_auth/i.test(head);
  return { title, titled, sections, html, namesDiscovery };
}

export interface AgentAuthBlock {
  /** `register_uri` as an absolute http(s) URL, or null when absent or not a URL. */
  registerUri: string | null;
  /** `register_uri` as written, when it is a string. */
  registerUriText: string | null;
  /** The identity types the block lists (`identity_types_supported`). */
  identityTypes: string[];
  /** The other `*_uri` endpoints named (claim, revocation…), absolute. */
  otherUris: string[];
}

/**
 * The `agent_auth` block of RFC 8414 authorization server metadata: null when the metadata has
 * none (or it is not an object).
 */
export function readAgentAuthBlock(metadata: unknown, metadataUrl: string): AgentAuthBlock | null {
  if (!isRecord(metadata) || !isRecord(metadata.agent_auth)) return null;
  const block = metadata.agent_auth;
  const registerUriText = typeof block.register_uri === "string" ? block.register_uri : null;
  const registerUri = registerUriText ? resolveHttpUrl(registerUriText, metadataUrl) : null;
  const identityTypes = Array.isArray(block.identity_types_supported)
    ? block.identity_types_supported.filter((each): each is string => typeof each === "string")
    : [];
  const otherUris = Object.entries(block)
    .filter(([key, value]) => key !== "register_uri" && key.endsWith("_uri") && typeof value === "string")
    .map(([, value]) => resolveHttpUrl(value as string, metadataUrl))
    .filter((value): value is string => value !== null);
  return { registerUri, registerUriText, identityTypes, otherUris };
}
