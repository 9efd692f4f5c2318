/**
 * The progress line while a check runs, on stderr (stdout stays the report, so it can be piped):
 * rewritten in place on a terminal, or one line a second when asked for where there is none
 * (a CI log). It counts the crawl's requests as the guarded fetcher makes and ends them.
 */
import type { OpenFetcher } from "../../src/adapters/outbound/fetch-types.ts";

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Progress {
  /** The same fetcher opener, counting each request. */
  counting(open: OpenFetcher): OpenFetcher;
  /** Ends the line (cleared on a terminal). */
  stop(): void;
}

export function createProgress(options: {
  stream: ProgressStream;
  enabled: boolean;
  label: string;
  now?: () => number;
  intervalMs?: number;
}): Progress {
  if (!options.enabled) return { counting: (open) => open, stop: () => undefined };
  const now = options.now ?? Date.now;
  const started = now();
  const tty = options.stream.isTTY === true;
  let asked = 0;
  let answered = 0;
  let lastLine = "";
  const line = () => {
    const elapsed = ((now() - started) / 1000).toFixed(1);
    const requests = asked > 0 ? `: ${answered} of ${asked} requests answered` : "";
    return `${options.label}${requests}, ${elapsed} s`;
  };
  const draw = () => {
    const text = line();
    if (text === lastLine) return;
    lastLine = text;
    options.stream.write(tty ? `\r\u001b[2K${text}` : `${text}\n`);
  };
  draw();
  const timer = setInterval(draw, options.intervalMs ?? (tty ? 100 : 1000));
  timer.unref?.();
  return {
    counting: (open) => (budget) => {
      const fetcher = open(budget);
      return async (url, request) => {
        asked++;
        try {
          return await fetcher(url, request);
        } finally {
          answered++;
        }
      };
    },
    stop: () => {
      clearInterval(timer);
      if (tty) options.stream.write("\r\u001b[2K");
      else options.stream.write(`${line()}, done\n`);
    },
  };
}
