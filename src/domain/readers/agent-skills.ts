/**
 * The Agent Skills index reader (Agent Skills Discovery RFC 0.2.0: each skill with a `url` and a
 * sha256 `digest`; the 0.1 shape lists `files` instead).
 */
import { isRecord, resolveHttpUrl } from "../signals/blocking.ts";

/** One skill of an index. */
export interface SkillEntry {
  name: string;
  /** What the skill does, in the index's words (the 0.2.0 schema's `description`). */
  description: string | null;
  url: string | null;
  digest: string | null;
}

/** An Agent Skills index's entries, or a problem. */
export function readSkillsIndex(
  document: unknown,
  base: string,
): { version: "0.2" | "0.1"; skills: SkillEntry[] } | { problem: string } {
  if (!isRecord(document) || !Array.isArray(document.skills)) return { problem: "has no skills array" };
  if (document.skills.length === 0) return { problem: "lists no skills" };
  const skills: SkillEntry[] = [];
  let withFiles = 0;
  for (const [index, raw] of document.skills.entries()) {
    if (!isRecord(raw) || typeof raw.name !== "string") return { problem: `skill ${index + 1} has no name` };
    if (Array.isArray(raw.files)) withFiles++;
    skills.push({
      name: raw.name,
      description: typeof raw.description === "string" && raw.description.trim() ? raw.description : null,
      url: typeof raw.url === "string" ? resolveHttpUrl(raw.url, base) : null,
      digest: typeof raw.digest === "string" ? raw.digest : null,
    });
  }
  if (skills.every((skill) => skill.url && skill.digest)) return { version: "0.2", skills };
  if (withFiles === skills.length) return { version: "0.1", skills };
  return { problem: "lists skills without a url and digest (or files) for each" };
}
