ALTER TABLE "orders" ADD COLUMN "refund_asked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_asked_cents" integer;