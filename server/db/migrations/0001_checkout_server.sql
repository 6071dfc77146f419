ALTER TABLE "accounts" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "client_secret" text NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD COLUMN "idempotency_key" text NOT NULL;--> statement-breakpoint
CREATE INDEX "handoff_tokens_transaction_id_idx" ON "handoff_tokens" USING btree ("transaction_id");--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD CONSTRAINT "sandbox_customers_idempotency_key_unique" UNIQUE("idempotency_key");