/**
 * The A2A agent card reader (A2A protocol 1.0, AgentCard; the 0.3 shape with a top-level `url`):
 * name, description, skills as an array, capabilities as an object, and an interface URL.
 */
import { isRecord } from "../signals/blocking.ts";

/** How a document reads as an A2A agent card, or a problem. */
export function readAgentCard(
  document: unknown,
): { name: string; interfaceUrl: string; version: "1.0" | "0.3" } | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  if (typeof document.name !== "string" || !document.name.trim()) return { problem: "has no name" };
  if (typeof document.description !== "string") return { problem: "has no description" };
  if (!Array.isArray(document.skills)) return { problem: "has no skills array" };
  if (!isRecord(document.capabilities)) return { problem: "has no capabilities object" };
  const interfaces = Array.isArray(document.supportedInterfaces) ? document.supportedInterfaces : [];
  const fromInterfaces = interfaces.find((item) => isRecord(item) && typeof item.url === "string");
  if (fromInterfaces && isRecord(fromInterfaces))
    return { name: document.name, interfaceUrl: fromInterfaces.url as string, version: "1.0" };
  if (typeof document.url === "string") return { name: document.name, interfaceUrl: document.url, version: "0.3" };
  return { problem: "names no interface URL (supportedInterfaces[].url or url)" };
}
