/**
 * Preload for `node --import` that lets the MCP conformance CLI (@modelcontextprotocol/conformance)
 * start on Node 20. Its bundle imports `globSync` from "fs", which Node adds in 22, so on Node 20
 * the module fails to link before any scenario runs. Only its `tier-check` command calls it; for
 * that package alone, "fs" resolves to Node's own module plus a `globSync` that refuses. Does
 * nothing where Node already has `globSync`.
 */
import * as fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  const fsWithGlob = `data:text/javascript,${encodeURIComponent(
    'export * from "node:fs"; export function globSync() { throw new Error("globSync needs Node 22"); }',
  )}`;
  const hooks = `
    export async function resolve(specifier, context, nextResolve) {
      const fromConformance = context.parentURL?.includes("/@modelcontextprotocol/conformance/");
      if (fromConformance && (specifier === "fs" || specifier === "node:fs")) {
        return { url: ${JSON.stringify(fsWithGlob)}, shortCircuit: true };
      }
      return nextResolve(specifier, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
