/**
 * The Worker as `wrangler deploy` would upload it, run in workerd through Miniflare behind the
 * local edge, without `wrangler dev`'s own proxy in between. For load measurements: under bursts
 * of hundreds of connections that proxy (a Durable Object queueing every request, plus a log call
 * per request to wrangler's Node process) now and then never delivers an answer the Worker gave,
 * which would count against the Worker. What runs is the same bundle and the same runtime.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { type LocalEdge, startLocalEdge } from "./local-edge.ts";
import { freePort } from "./wrangler-dev.ts";

export interface BundledWorker {
  edge: LocalEdge;
  stop(): Promise<void>;
}

/**
 * Bundles the default Worker with wrangler, then serves it on 127.0.0.1:`port` behind the local
 * edge; `showLog` prints the Worker's log (its warnings and errors, and its console output).
 */
export async function startBundledWorker(
  port: number,
  vars: Record<string, string>,
  showLog = false,
): Promise<BundledWorker> {
  const outdir = mkdtempSync(join(tmpdir(), "agent-readiness-bundle-"));
  const build = spawnSync(
    process.execPath,
    ["node_modules/wrangler/bin/wrangler.js", "deploy", "--dry-run", "--outdir", outdir],
    { encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
  );
  if (build.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${build.stderr}`);
  const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync("wrangler.toml", "utf8"))?.[1];
  const workerPort = await freePort();
  const miniflare = new Miniflare({
    modules: true,
    modulesRoot: outdir,
    scriptPath: join(outdir, "all.js"),
    compatibilityDate,
    bindings: vars,
    queueProducers: { CRAWL_QUEUE: { queueName: "crawl-jobs" } },
    host: "127.0.0.1",
    port: workerPort,
    // Cloudflare's request.cf data would be downloaded otherwise; the fallback is enough here.
    cf: false,
    log: showLog ? new Log(LogLevel.INFO) : undefined,
  });
  await miniflare.ready;
  const edge = await startLocalEdge(port, workerPort);
  return {
    edge,
    async stop() {
      await edge.stop();
      await miniflare.dispose();
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}
