ALTER TABLE "seats" ADD COLUMN "reset_token_hash" text;--> statement-breakpoint
ALTER TABLE "seats" ADD COLUMN "reset_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seats" ADD CONSTRAINT "seats_reset_token_hash_unique" UNIQUE("reset_token_hash");