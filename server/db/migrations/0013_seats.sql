CREATE TABLE "seats" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" text NOT NULL,
	"seat_number" integer NOT NULL,
	"status" text DEFAULT 'invited' NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"invited_by" text NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_token_hash" text,
	"claim_expires_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"password_hash" text,
	"revoked_at" timestamp with time zone,
	"suspended_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seats_claim_token_hash_unique" UNIQUE("claim_token_hash")
);
--> statement-breakpoint
ALTER TABLE "handoff_tokens" ADD COLUMN "seat_id" uuid;--> statement-breakpoint
ALTER TABLE "seats" ADD CONSTRAINT "seats_transaction_id_orders_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."orders"("transaction_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seats_live_number_idx" ON "seats" USING btree ("transaction_id","seat_number") WHERE status <> 'revoked' and suspended_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "seats_live_email_idx" ON "seats" USING btree ("transaction_id",lower("email")) WHERE status <> 'revoked';--> statement-breakpoint
CREATE INDEX "seats_email_idx" ON "seats" USING btree (lower("email"));--> statement-breakpoint
ALTER TABLE "handoff_tokens" ADD CONSTRAINT "handoff_tokens_seat_id_seats_id_fk" FOREIGN KEY ("seat_id") REFERENCES "public"."seats"("id") ON DELETE no action ON UPDATE no action;