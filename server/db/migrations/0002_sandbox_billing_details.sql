ALTER TABLE "sandbox_subscriptions" ADD COLUMN "billing_name" text;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "billing_email" text;