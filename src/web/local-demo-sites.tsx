/**
 * The local demo sites of `npm start` (LOCAL_DEMO_HOSTS, honoured on the local stack only), each
 * with a button that runs the live check of it: the main feature tried with no network. Shown on
 * the check form and instead of "Check again now" on a demo index site, whose name never resolves.
 * Nothing is shown where no demo site is configured (a deployed service).
 */
import { buildSiteLinks } from "../domain/descriptor/site-documents.ts";
import { CHECK_PROGRESS, ProgressMessage, progressId } from "./components.tsx";

export function LocalDemoSites({ origin, hosts }: { origin: string; hosts: readonly string[] }) {
  if (hosts.length === 0) return null;
  const action = buildSiteLinks(origin).check;
  return (
    <ul class="demo-sites">
      {hosts.map((host, index) => {
        const id = `check-demo-${index + 1}`;
        const url = `http://${host}/`;
        return (
          <li>
            <form id={id} class="inline-form" action={action} method="post" data-progress={progressId(id)}>
              <input type="hidden" name="url" value={url} />
              <code>{url}</code> <button type="submit">Check {url}</button>
              <ProgressMessage formId={id} text={CHECK_PROGRESS} />
            </form>
          </li>
        );
      })}
    </ul>
  );
}
