-- Handoff receipts, outcome receipts and ledger rows are append-only (the function comes from
-- migration offers_guards). A ticket is never removed, and only its status (with when it changed,
-- the outcome receipt that moved it and the revocation time) may change: what it binds (search,
-- claim, offer version, terms hash, bounty, consent, intent, expiry) stays as it was signed.
CREATE TRIGGER action_handoff_receipts_append_only BEFORE UPDATE OR DELETE ON action_handoff_receipts
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint
CREATE TRIGGER provider_outcome_receipts_append_only BEFORE UPDATE OR DELETE ON provider_outcome_receipts
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint
CREATE TRIGGER exchange_charge_ledger_append_only BEFORE UPDATE OR DELETE ON exchange_charge_ledger
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint
CREATE FUNCTION refuse_change_of_ticket_binding() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'action_tickets are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF (NEW.id, NEW.search_id, NEW.claim_id, NEW.offer_id, NEW.offer_version, NEW.commercial_terms_sha256,
      NEW.domain, NEW.charge_event, NEW.bounty_cents, NEW.contract_version, NEW.consent_version,
      NEW.intent_topic, NEW.intent_region_code, NEW.intent_budget_band, NEW.intent_urgency,
      NEW.intent_requirement_flags, NEW.request_sha256, NEW.created_at, NEW.expires_at)
     IS DISTINCT FROM
     (OLD.id, OLD.search_id, OLD.claim_id, OLD.offer_id, OLD.offer_version, OLD.commercial_terms_sha256,
      OLD.domain, OLD.charge_event, OLD.bounty_cents, OLD.contract_version, OLD.consent_version,
      OLD.intent_topic, OLD.intent_region_code, OLD.intent_budget_band, OLD.intent_urgency,
      OLD.intent_requirement_flags, OLD.request_sha256, OLD.created_at, OLD.expires_at) THEN
    RAISE EXCEPTION 'an action ticket''s bindings never change' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER action_tickets_bindings_fixed BEFORE UPDATE OR DELETE ON action_tickets
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_ticket_binding();
