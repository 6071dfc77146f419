ALTER TABLE "orders" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_state" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_country" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_postal_code" text;--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD COLUMN "address_country" text;--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD COLUMN "address_postal_code" text;--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD COLUMN "tax_state" text;--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "automatic_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "tax_state" text;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "tax_rate_millionths" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;