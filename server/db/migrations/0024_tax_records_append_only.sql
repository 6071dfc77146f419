CREATE FUNCTION "tax_records_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'tax_records is append-only'; END $$;--> statement-breakpoint
CREATE TRIGGER "tax_records_append_only" BEFORE UPDATE OR DELETE ON "tax_records" FOR EACH ROW EXECUTE FUNCTION "tax_records_append_only"();
