/** The fixture web as the Worker under test reaches it (origins on 127.0.0.1). */
import { env } from "cloudflare:workers";
import { fixtureOrigin } from "../fixtures/web/expectations.ts";

/** The origin of a fixture site, on the ports the integration stack serves. */
export function fixture(name: string): string {
  return fixtureOrigin(name, Number((env as unknown as Record<string, string>).FIXTURE_BASE_PORT));
}

/** The domain the index keys a fixture site by (host and port: private addresses are allowed). */
export function fixtureDomain(name: string): string {
  return new URL(fixture(name)).host;
}
