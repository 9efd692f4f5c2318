-- A ticket's controlled intent is append-only, and leaves only through the retention purge once
-- its expiry (30 days after the ticket's creation) has passed (docs/exchange-tickets.md, "Retention").
CREATE TRIGGER "action_ticket_intents_append_only" BEFORE UPDATE OR DELETE ON "action_ticket_intents"
FOR EACH ROW EXECUTE FUNCTION append_only_guard('expires_at');--> statement-breakpoint
CREATE TRIGGER "action_ticket_intents_no_truncate" BEFORE TRUNCATE ON "action_ticket_intents"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
-- Independent of the other rules: nothing hangs on an intent, and it names no receipt.
INSERT INTO "retention_rules" ("table_name", "expiry_column", "purge_order") VALUES
  ('action_ticket_intents', 'expires_at', 5);--> statement-breakpoint
-- The ticket's bindings without the intent columns (moved out above); everything else as in
-- migration tickets_guards: a ticket is never removed, only its status may change.
CREATE OR REPLACE FUNCTION refuse_change_of_ticket_binding() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'action_tickets are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF (NEW.id, NEW.search_id, NEW.claim_id, NEW.offer_id, NEW.offer_version, NEW.commercial_terms_sha256,
      NEW.domain, NEW.charge_event, NEW.bounty_cents, NEW.contract_version, NEW.consent_version,
      NEW.request_sha256, NEW.created_at, NEW.expires_at)
     IS DISTINCT FROM
     (OLD.id, OLD.search_id, OLD.claim_id, OLD.offer_id, OLD.offer_version, OLD.commercial_terms_sha256,
      OLD.domain, OLD.charge_event, OLD.bounty_cents, OLD.contract_version, OLD.consent_version,
      OLD.request_sha256, OLD.created_at, OLD.expires_at) THEN
    RAISE EXCEPTION 'an action ticket''s bindings never change' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
