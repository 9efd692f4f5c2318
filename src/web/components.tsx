/** Small building blocks the pages share. */
import type { Child } from "hono/jsx";

/**
 * A table too wide for a phone. On a narrow screen each row becomes a block of its cells, one per
 * line (the column heads stay for screen readers only), so every column can be read without
 * scrolling sideways; on a wider screen it is an ordinary table.
 */
export function StackingTable({ children }: { children: Child }) {
  return <table class="stacking">{children}</table>;
}
