ALTER TABLE "accounts" ADD COLUMN "password_ciphertext" text;--> statement-breakpoint
ALTER TABLE "handoff_tokens" ADD COLUMN "token_ciphertext" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seat_change_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seat_change_attempt" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reconciled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_open_created_at_idx" ON "orders" USING btree ("created_at") WHERE status = 'open';