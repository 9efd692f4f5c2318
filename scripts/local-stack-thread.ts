/**
 * The local stack in a worker thread of its own (`startLocalStackThread` in
 * scripts/measure-support.ts): its event loop apart from the one that fires a burst, in the same
 * process. Posts its endpoints once ready; stops when told "stop".
 */
import { parentPort, workerData } from "node:worker_threads";
import { type LocalStackOptions, startLocalStack } from "./local-stack.ts";

const { stop, ...endpoints } = await startLocalStack(workerData as LocalStackOptions);
parentPort?.postMessage({ ready: true, ...endpoints });
parentPort?.on("message", (message) => {
  if (message === "stop") void stop().then(() => parentPort?.postMessage({ stopped: true }));
});
