/**
 * The A2A agent card reader (A2A protocol 1.0, AgentCard; the 0.3 shape with a top-level `url`):
 * name, description, skills as an array, capabilities as an object, and an interface URL.
 */
import { isRecord } from "../signals/blocking.ts";

/** One skill of an agent card (AgentSkill: id, name, description, tags), as far as it names itself. */
export interface AgentCardSkill {
  name: string;
  description: string | null;
  tags: string[];
}

/** A document read as an A2A agent card. */
export interface AgentCardReading {
  name: string;
  description: string;
  interfaceUrl: string;
  version: "1.0" | "0.3";
  /** The skills with a name (or else an id), in order, at most AGENT_CARD_SKILLS_KEPT. */
  skills: AgentCardSkill[];
}

/** At most this many skills of a card are read. */
export const AGENT_CARD_SKILLS_KEPT = 64;

function readSkills(skills: unknown[]): AgentCardSkill[] {
  const read: AgentCardSkill[] = [];
  for (const skill of skills.slice(0, AGENT_CARD_SKILLS_KEPT)) {
    if (!isRecord(skill)) continue;
    const name = typeof skill.name === "string" && skill.name.trim() ? skill.name : skill.id;
    if (typeof name !== "string" || !name.trim()) continue;
    const tags = Array.isArray(skill.tags) ? skill.tags.filter((tag): tag is string => typeof tag === "string") : [];
    const description = typeof skill.description === "string" && skill.description.trim() ? skill.description : null;
    read.push({ name, description, tags });
  }
  return read;
}

/** How a document reads as an A2A agent card, or a problem. */
export function readAgentCard(document: unknown): AgentCardReading | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  if (typeof document.name !== "string" || !document.name.trim()) return { problem: "has no name" };
  if (typeof document.description !== "string") return { problem: "has no description" };
  if (!Array.isArray(document.skills)) return { problem: "has no skills array" };
  if (!isRecord(document.capabilities)) return { problem: "has no capabilities object" };
  const interfaces = Array.isArray(document.supportedInterfaces) ? document.supportedInterfaces : [];
  const fromInterfaces = interfaces.find((item) => isRecord(item) && typeof item.url === "string");
  const read = { name: document.name, description: document.description, skills: readSkills(document.skills) };
  if (fromInterfaces && isRecord(fromInterfaces))
    return { ...read, interfaceUrl: fromInterfaces.url as string, version: "1.0" };
  if (typeof document.url === "string") return { ...read, interfaceUrl: document.url, version: "0.3" };
  return { problem: "names no interface URL (supportedInterfaces[].url or url)" };
}
