-- Handled Stripe events are append-only: the event id row is what makes fulfilment idempotent,
-- so it may never be changed or removed (a removed row would let a replay fulfil twice).
CREATE FUNCTION stripe_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'stripe_events is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stripe_events_append_only BEFORE UPDATE OR DELETE ON stripe_events
	FOR EACH ROW EXECUTE FUNCTION stripe_events_append_only();
--> statement-breakpoint
CREATE TRIGGER stripe_events_no_truncate BEFORE TRUNCATE ON stripe_events
	FOR EACH STATEMENT EXECUTE FUNCTION stripe_events_append_only();
