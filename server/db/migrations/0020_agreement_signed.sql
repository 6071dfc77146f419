ALTER TABLE "accounts" ADD COLUMN "agreement_signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seats" ADD COLUMN "agreement_signed_at" timestamp with time zone;