/**
 * Payments through Stripe, with the official `stripe` SDK on its fetch HTTP client (the one that
 * runs in workerd) and its Web Crypto provider for webhook signatures. The rest of the service
 * sees only the `Payments` interface: hosted Checkout Sessions (the service never sees card data)
 * and verified webhook events. The local stack's stand-in speaks the same API (STRIPE_API_URL).
 */
import type Stripe from "stripe";

// The SDK is large: it is loaded on the first payment call, not with every Worker's module, so
// requests that never pay (nearly all) do not wait for it at a cold start.
let sdk: Promise<typeof Stripe> | undefined;
const loadSdk = () => {
  sdk ??= import("stripe").then((module) => module.default);
  return sdk;
};

/** One line of a hosted checkout, priced from the catalog. */
export interface CheckoutLine {
  name: string;
  description: string;
  amountCents: number;
  currency: string;
  /** Set for a subscription: the price recurs every interval. */
  interval?: "month";
}

export interface CreateCheckoutInput {
  mode: "payment" | "subscription";
  line: CheckoutLine;
  email: string;
  /** Our order id: Stripe keeps it as client_reference_id and in the metadata. */
  orderId: string;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
}

/** The parts of a Checkout Session the service decides on. */
export interface CheckoutSessionView {
  id: string;
  url: string | null;
  /** open, complete or expired. */
  status: string | null;
  /** paid, unpaid or no_payment_required. */
  paymentStatus: string;
  mode: string;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  subscriptionId: string | null;
}

/** A webhook event whose signature was verified: its id, type and object. */
export interface VerifiedEvent {
  id: string;
  type: string;
  object: Record<string, unknown>;
}

export interface Payments {
  createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSessionView>;
  /** The session as Stripe has it, or null when Stripe knows no such session. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionView | null>;
  /** Verifies the Stripe-Signature header over the exact payload; throws `WebhookSignatureError`. */
  verifyWebhook(payload: string, signatureHeader: string): Promise<VerifiedEvent>;
}

/** A webhook whose signature is missing, wrong, or older than the tolerance. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** Stripe could not be reached or refused the call for a reason that is not the caller's input. */
export class PaymentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaymentsError";
  }
}

export interface StripePaymentsOptions {
  secretKey: string;
  webhookSecret: string;
  /** https://api.stripe.com, or the local stand-in. */
  apiUrl: string;
  /** Seconds a signed webhook stays acceptable (Stripe's own default: 300). */
  toleranceSeconds?: number;
}

/** Stripe's own default tolerance for a webhook signature's timestamp. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

function viewOf(session: Stripe.Checkout.Session): CheckoutSessionView {
  const subscription = session.subscription;
  return {
    id: session.id,
    url: session.url ?? null,
    status: session.status ?? null,
    paymentStatus: session.payment_status,
    mode: session.mode,
    clientReferenceId: session.client_reference_id ?? null,
    metadata: (session.metadata ?? {}) as Record<string, string>,
    subscriptionId: typeof subscription === "string" ? subscription : (subscription?.id ?? null),
  };
}

/** The real payments adapter: Stripe's API through the SDK. */
export function createStripePayments(options: StripePaymentsOptions): Payments {
  const api = new URL(options.apiUrl);
  let client: Promise<{ stripe: Stripe; Sdk: typeof Stripe }> | undefined;
  const connect = () => {
    client ??= loadSdk().then((Sdk) => ({
      Sdk,
      stripe: new Sdk(options.secretKey, {
        httpClient: Sdk.createFetchHttpClient(),
        host: api.hostname,
        port: api.port || (api.protocol === "https:" ? 443 : 80),
        protocol: api.protocol === "https:" ? "https" : "http",
        // One retry at most: a request waits for it, and creates carry an idempotency key.
        maxNetworkRetries: 1,
        timeout: 10_000,
      }),
    }));
    return client;
  };
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;

  const wrap = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      console.error("stripe call failed", String(error));
      throw new PaymentsError("Stripe did not complete the call");
    }
  };

  return {
    async createCheckoutSession(input) {
      const priceData: Stripe.Checkout.SessionCreateParams.LineItem.PriceData = {
        currency: input.line.currency,
        unit_amount: input.line.amountCents,
        product_data: { name: input.line.name, description: input.line.description },
        ...(input.line.interval ? { recurring: { interval: input.line.interval } } : {}),
      };
      const { stripe } = await connect();
      const session = await wrap(() =>
        stripe.checkout.sessions.create(
          {
            mode: input.mode,
            line_items: [{ quantity: 1, price_data: priceData }],
            customer_email: input.email,
            client_reference_id: input.orderId,
            metadata: input.metadata,
            ...(input.mode === "subscription" ? { subscription_data: { metadata: input.metadata } } : {}),
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          // One session per order even when the call is retried.
          { idempotencyKey: `checkout-${input.orderId}` },
        ),
      );
      return viewOf(session);
    },

    async retrieveCheckoutSession(id) {
      const { stripe, Sdk } = await connect();
      try {
        return viewOf(await stripe.checkout.sessions.retrieve(id));
      } catch (error) {
        if (error instanceof Sdk.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        console.error("stripe call failed", String(error));
        throw new PaymentsError("Stripe did not answer about the session");
      }
    },

    async verifyWebhook(payload, signatureHeader) {
      const { stripe, Sdk } = await connect();
      try {
        const event = await stripe.webhooks.constructEventAsync(
          payload,
          signatureHeader,
          options.webhookSecret,
          tolerance,
          Sdk.createSubtleCryptoProvider(),
        );
        return { id: event.id, type: event.type, object: event.data.object as unknown as Record<string, unknown> };
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
