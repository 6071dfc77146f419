CREATE TABLE "tax_records" (
	"record_key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"transaction_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"tax_state" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"tax_cents" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tax_records" ADD CONSTRAINT "tax_records_transaction_id_orders_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."orders"("transaction_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tax_records_occurred_at_idx" ON "tax_records" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "tax_records_payment_idx" ON "tax_records" USING btree ("transaction_id","payment_id");