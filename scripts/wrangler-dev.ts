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
  { inspectorPort, ...options }: Pick<SpawnOptions, "stdio" | "detached"> & { inspectorPort?: number } = {},
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
      ...inspectorPortArgs(inspectorPort),
      "--show-interactive-dev-session=false",
      ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    ],
    {
      ...options,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
}

/**
 * The inspector port of a `wrangler dev`: one of its own when given. Left to wrangler, every
 * `wrangler dev` on the machine asks for 9229 and falls back to another only if 9229 looked
 * taken when it checked, so two starting at once (two e2e files, another checkout's `npm start`)
 * both take it and one dies ("Address already in use (127.0.0.1:9229)").
 */
export function inspectorPortArgs(inspectorPort: number | undefined): string[] {
  return inspectorPort === undefined ? [] : ["--inspector-port", String(inspectorPort)];
}

/** Ports above Linux's ephemeral range (32768–60999): the system never hands them out on its own. */
const CHOSEN_PORTS = { first: 61_000, count: 4_000 };

/**
 * A port free right now on 127.0.0.1, for a server that will listen on it a little later. It is
 * chosen above the ephemeral range rather than by asking the system for port 0: a port the system
 * gave out once it may give any other process's outgoing connection or `listen(0)` meanwhile (two
 * `npm start` side by side took each other's ports that way).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = CHOSEN_PORTS.first + Math.floor(Math.random() * CHOSEN_PORTS.count);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port among ${CHOSEN_PORTS.count} above ${CHOSEN_PORTS.first}`);
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
  const wrangler = spawnWranglerDev(wranglerPort, vars, { ...options, inspectorPort: await freePort() });
  let edge: LocalEdge;
  try {
    edge = await startLocalEdge(Number(port), wranglerPort);
  } catch (error) {
    // The edge's port was taken: wrangler (and its workerd) must not outlive this failed start.
    stopWrangler(wrangler, options.detached);
    throw error;
  }
  return {
    wrangler,
    edge,
    wranglerPort,
    async stop() {
      stopWrangler(wrangler, options.detached);
      await edge.stop();
    },
  };
}

/** Ends wrangler dev, with its whole process group when it was started detached. */
function stopWrangler(wrangler: ChildProcess, detached: boolean | undefined): void {
  if (detached && wrangler.pid && wrangler.exitCode === null) {
    try {
      process.kill(-wrangler.pid, "SIGTERM");
    } catch {
      // already gone
    }
  } else if (wrangler.exitCode === null) wrangler.kill("SIGTERM");
}
