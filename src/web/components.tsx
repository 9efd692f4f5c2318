/** Small building blocks the pages share. */
import type { Child } from "hono/jsx";

/**
 * A table wider than a phone, in a box of its own that scrolls sideways so the page does not.
 * Browsers make such a scroller keyboard-focusable themselves while it overflows, so it takes no
 * tabindex: a tab stop on every table would be noise on a wide screen where nothing scrolls.
 */
export function ScrollingTable({ children }: { children: Child }) {
  return (
    <div class="table-scroll">
      <table>{children}</table>
    </div>
  );
}
