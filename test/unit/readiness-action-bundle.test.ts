/**
 * The GitHub Action runs the committed bundle of the checker (action/agent-readiness.mjs): it must
 * be exactly what `npm run build:action` builds from the sources now, so the Action checks a site
 * with the same code as `npm run readiness` and `POST /check`. After a change to the checker or
 * the domain code it imports, run `npm run build:action` and commit the result.
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { describe, expect, it } from "vitest";
import { ACTION_BUNDLE, buildActionBundle } from "../../scripts/build-action.ts";

describe("the Action's bundle of the checker", () => {
  it("is what npm run build:action builds from the sources now", async () => {
    const built = await buildActionBundle();
    const committed = readFileSync(ACTION_BUNDLE, "utf8");
    // Compared by length and a few lines first, so a stale bundle fails with a readable message.
    expect(committed.length, "action/agent-readiness.mjs is stale: run npm run build:action").toBe(built.length);
    expect(committed === built, "action/agent-readiness.mjs is stale: run npm run build:action").toBe(true);
  }, 60_000);

  it("imports nothing but Node's own modules", () => {
    const committed = readFileSync(ACTION_BUNDLE, "utf8");
    const imported = [...committed.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    for (const specifier of imported) expect(specifier).toMatch(/^node:/);
    const required = [...committed.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1] ?? "");
    const builtins = new Set(builtinModules);
    for (const specifier of required) expect(builtins.has(specifier.replace(/^node:/, "")), specifier).toBe(true);
  });
});
