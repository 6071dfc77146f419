CREATE TABLE "commission_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_key" text NOT NULL,
	"kind" text NOT NULL,
	"referrer_id" uuid NOT NULL,
	"transaction_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"payment_id" text,
	"invoice_cents" integer NOT NULL,
	"seats" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"rule_id" bigint,
	"rule_text" text NOT NULL,
	"reverses" bigint,
	"self_referral" boolean DEFAULT false NOT NULL,
	"earned_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commission_entries_entry_key_unique" UNIQUE("entry_key")
);
--> statement-breakpoint
CREATE TABLE "commission_rules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"referrer_id" uuid,
	"kind" text NOT NULL,
	"percent_basis_points" integer,
	"flat_cents_per_seat" integer,
	"months" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"referrer_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_batch_entries" (
	"batch_id" bigint NOT NULL,
	"entry_id" bigint NOT NULL,
	"referrer_id" uuid NOT NULL,
	"released" boolean DEFAULT false NOT NULL,
	CONSTRAINT "payout_batch_entries_batch_id_entry_id_pk" PRIMARY KEY("batch_id","entry_id")
);
--> statement-breakpoint
CREATE TABLE "payout_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"reference" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"voided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "referrers" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_referrer_id_referrers_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."referrers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_transaction_id_orders_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."orders"("transaction_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_rules" ADD CONSTRAINT "commission_rules_referrer_id_referrers_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."referrers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_links" ADD CONSTRAINT "partner_links_referrer_id_referrers_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."referrers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_entries" ADD CONSTRAINT "payout_batch_entries_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_entries" ADD CONSTRAINT "payout_batch_entries_entry_id_commission_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."commission_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_entries" ADD CONSTRAINT "payout_batch_entries_referrer_id_referrers_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."referrers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_entries_referrer_idx" ON "commission_entries" USING btree ("referrer_id");--> statement-breakpoint
CREATE INDEX "commission_entries_transaction_idx" ON "commission_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "commission_rules_referrer_idx" ON "commission_rules" USING btree ("referrer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batch_entries_one_live_idx" ON "payout_batch_entries" USING btree ("entry_id") WHERE released = false;--> statement-breakpoint
CREATE FUNCTION "commission_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'commission_entries is append-only'; END $$;--> statement-breakpoint
CREATE TRIGGER "commission_entries_append_only" BEFORE UPDATE OR DELETE ON "commission_entries" FOR EACH ROW EXECUTE FUNCTION "commission_entries_append_only"();
