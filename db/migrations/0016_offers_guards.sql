-- The exchange's records of what happened are append-only: offer versions, commercial
-- acceptances, owner verifications and operator acts can be neither changed nor removed, and a
-- disclosure can only leave with its search receipt (the foreign key's cascade), never change.
CREATE FUNCTION refuse_change_of_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER provider_offer_versions_append_only BEFORE UPDATE OR DELETE ON provider_offer_versions
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint
CREATE TRIGGER commercial_acceptance_events_append_only BEFORE UPDATE OR DELETE ON commercial_acceptance_events
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint
CREATE TRIGGER acceptance_owner_verifications_append_only BEFORE UPDATE OR DELETE ON acceptance_owner_verifications
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint
CREATE TRIGGER operator_acts_append_only BEFORE UPDATE OR DELETE ON operator_acts
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint
CREATE TRIGGER search_offer_disclosures_no_update BEFORE UPDATE ON search_offer_disclosures
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();
