#!/usr/bin/env node
// The package's bin: `npx agent-readiness <url>` from a checkout. The checker is TypeScript run
// as the repository's scripts are (tsx, installed with the checkout's dependencies).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../scripts/readiness.ts");
await main();
