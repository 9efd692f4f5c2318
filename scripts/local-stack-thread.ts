/**
 * The local stack in a worker thread of its own (`startLocalStackThread` in
 * scripts/measure-support.ts): its event loop apart from the one that fires a burst, in the same
 * process. Posts its endpoints once ready; stops when told "stop". With `observeCalls` it keeps
 * what each SQL and Redis request cost and hands the list over (and forgets it) when told
 * "take-calls". Told `{storeRttMs}`, it changes the simulated store round trip (LOCAL_STORE_RTT_MS).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ServedCall } from "./local-stack/served-calls.ts";
import { type LocalStackOptions, startLocalStack } from "./local-stack.ts";

const { observeCalls, ...options } = workerData as Omit<LocalStackOptions, "observeCalls"> & { observeCalls?: boolean };
let calls: ServedCall[] = [];
const {
  stop,
  storeRequests: _counts,
  setStoreRtt,
  ...endpoints
} = await startLocalStack({
  ...options,
  observeCalls: observeCalls ? (call) => calls.push(call) : undefined,
});
parentPort?.postMessage({ ready: true, ...endpoints });
parentPort?.on("message", (message) => {
  if (message === "stop") void stop().then(() => parentPort?.postMessage({ stopped: true }));
  if (typeof message === "object" && message && "storeRttMs" in message) {
    setStoreRtt(Number(message.storeRttMs));
    parentPort?.postMessage({ storeRttSet: true });
  }
  if (message === "take-calls") {
    parentPort?.postMessage({ calls });
    calls = [];
  }
});
