import type { JSX } from "hono/jsx/jsx-runtime";

/** A page element (a `<Layout>` tree) as the HTML text of its document. */
export async function renderPage(page: JSX.Element): Promise<string> {
  // A JSX element is a node whose toString() renders it; the text is a promise when a component is async.
  return (await page).toString();
}
