/**
 * When a store (Postgres over HTTP, Redis over REST) counts as unavailable: it refuses or drops
 * the connection, answers with a server error, or stays silent. Slow is not unavailable: under a
 * burst, answers arrive late but steadily, and a request that gave up on them would act on a
 * guess (let a request through uncounted, or answer 503 while the store is working).
 */

/** A store could not be reached or did not answer; the message names it, never a secret. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly store: "database" | "redis",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

// When each endpoint last answered anything to this isolate. Module scope on purpose: every
// request of the isolate sees the others' answers, which is what tells slow from silent.
const lastAnswerAt = new Map<string, number>();

/** One call's watch over its endpoint. */
export interface SilenceWatch {
  /** Aborts, with a StoreUnavailableError, once the endpoint has been silent for too long. */
  signal: AbortSignal;
  /** Records that the endpoint answered (anything, an error reply included). */
  answered(): void;
  /** Ends the watch; call it however the call ended. */
  release(): void;
}

// A check that runs this late, or less, ran on an isolate with no backlog: any answer that had
// arrived would have been handled before it.
const ON_TIME_MS = 50;
// However busy the isolate or the store, one call waits at most this many silences: a connection
// the network lost without a word must not hold its request while other calls are answered.
const MAX_SILENCES = 10;

/**
 * Watches one call to `endpoint` (a store's URL): its signal aborts only when the endpoint has
 * answered nothing, to this call or to any other call of this isolate, for `silenceMs` since the
 * call began or since its last answer, whichever is later. A queue of answers arriving steadily
 * keeps every waiting call alive; a store that is gone (or hangs) fails them all after `silenceMs`.
 *
 * Silence is only concluded by a check that ran on time. Under a burst the isolate itself can be
 * busy for longer than `silenceMs` (hundreds of requests to parse and route), with the store's
 * answers waiting behind that work; its timers run late then, and the check looks again once the
 * isolate has caught up. Whatever happens, one call gives up after MAX_SILENCES × `silenceMs`.
 *
 * @example const watch = watchForSilence(url, 800, "redis"); try { await fetch(url, { signal: watch.signal }); watch.answered(); } finally { watch.release(); }
 */
export function watchForSilence(endpoint: string, silenceMs: number, store: "database" | "redis"): SilenceWatch {
  const startedAt = Date.now();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const checkIn = (delay: number) => {
    const due = Date.now() + delay;
    timer = setTimeout(() => check(due), delay);
  };
  const giveUpAt = startedAt + silenceMs * MAX_SILENCES;
  const check = (due: number) => {
    const now = Date.now();
    if (now >= giveUpAt) {
      controller.abort(new StoreUnavailableError(store, `no answer from the ${store} in ${now - startedAt} ms`));
      return;
    }
    const quietSince = Math.max(startedAt, lastAnswerAt.get(endpoint) ?? 0);
    const left = quietSince + silenceMs - now;
    if (left > 0) return checkIn(Math.min(left, giveUpAt - now));
    if (now - due > ON_TIME_MS) return checkIn(ON_TIME_MS);
    controller.abort(new StoreUnavailableError(store, `the ${store} answered nothing for ${silenceMs} ms`));
  };
  checkIn(silenceMs);
  return {
    signal: controller.signal,
    answered: () => {
      lastAnswerAt.set(endpoint, Date.now());
    },
    release: () => clearTimeout(timer),
  };
}
