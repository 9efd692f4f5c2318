/**
 * The `cloudflare:workers` module for the unit project, which loads the Worker entries in Node
 * (test/unit/worker-entries.test.ts) where workerd's built-in module does not exist. The entries
 * take one thing from it: the base class of the checks Worker's RPC entrypoint, which workerd
 * recognises at deploy; here it only needs to be a class that keeps its context and bindings, as
 * workerd's does. Every call over RPC is tested in workerd (test/bundles/live-checks-rpc.test.ts).
 */
export class WorkerEntrypoint<Env = unknown> {
  constructor(
    protected readonly ctx: ExecutionContext,
    protected readonly env: Env,
  ) {}
}
