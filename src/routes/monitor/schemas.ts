/** Bodies of the monitor group's endpoints. */
import { z } from "@hono/zod-openapi";
import { storableText } from "../shared/text.ts";

export const MonitorRegistrationSchema = z
  .strictObject({
    email: z.email({ error: "must be an e-mail address" }).max(254),
    domain: storableText("must be a domain name").min(1, { error: "must be a domain name" }).max(253).openapi({
      description: "A domain without scheme, e.g. example.com (any case, Unicode allowed)",
      example: "example.com",
    }),
  })
  .openapi("MonitorRegistration");

export const MonitorRegisteredSchema = z
  .object({
    ok: z.boolean(),
    domain: z.string().openapi({ description: "The domain as the index keys it (lower-case ASCII)" }),
    unsubscribe_url: z.url().openapi({
      description:
        "Stops this monitor without sign-in: GET shows a page with a button, POST unsubscribes (RFC 8058 one-click, as the alerts' List-Unsubscribe header). Keep it: it is shown once.",
    }),
  })
  .openapi("MonitorRegistered");

export const MonitorTokenSchema = z
  .strictObject({ token: storableText().min(1, { error: "must not be empty" }).max(200) })
  .openapi("MonitorToken");
