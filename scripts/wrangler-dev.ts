import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { createServer } from "node:net";
import { type LocalEdge, startLocalEdge } from "./local-edge.ts";

/**
 * Runs `wrangler dev` on 127.0.0.1:`port` with the Worker settings as `--var`s, and without the
 * network calls wrangler would make on its own (metrics, Cloudflare's cf object). Clients should
 * reach it through the local edge (`startLocalWorker`), as they reach a deployed Worker through
 * Cloudflare's.
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

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** `wrangler dev` behind the local edge. */
export interface LocalWorker {
  wrangler: ChildProcess;
  edge: LocalEdge;
  /** wrangler dev's own port behind the edge (its scheduled-handler trigger is there). */
  wranglerPort: number;
  /** Stops the edge, and wrangler's process group when it was started detached. */
  stop(): Promise<void>;
}

/**
 * Serves the Worker on 127.0.0.1:`port` as production does: `wrangler dev` on a private port
 * behind the local edge, which sets CF-Connecting-IP from the connection as Cloudflare does
 * (scripts/local-edge.ts), so no client can choose the address it is counted as.
 */
export async function startLocalWorker(
  port: number | string,
  vars: Record<string, string>,
  options: Pick<SpawnOptions, "stdio" | "detached"> = {},
): Promise<LocalWorker> {
  const wranglerPort = await freePort();
  const wrangler = spawnWranglerDev(wranglerPort, vars, options);
  const edge = await startLocalEdge(Number(port), wranglerPort);
  return {
    wrangler,
    edge,
    wranglerPort,
    async stop() {
      if (options.detached && wrangler.pid && wrangler.exitCode === null) {
        try {
          process.kill(-wrangler.pid, "SIGTERM");
        } catch {
          // already gone
        }
      } else if (wrangler.exitCode === null) wrangler.kill("SIGTERM");
      await edge.stop();
    },
  };
}
