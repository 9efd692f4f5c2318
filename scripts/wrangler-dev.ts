import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

/**
 * Runs `wrangler dev` on 127.0.0.1:`port` with the Worker settings as `--var`s, and without the
 * network calls wrangler would make on its own (metrics, Cloudflare's cf object).
 */
export function spawnWranglerDev(
  port: number | string,
  vars: Record<string, string>,
  options: Pick<SpawnOptions, "stdio" | "detached"> = {},
): ChildProcess {
  return spawn(
    process.execPath,
    [
      "node_modules/wrangler/bin/wrangler.js",
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
      ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    ],
    {
      ...options,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
}
