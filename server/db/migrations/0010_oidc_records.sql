CREATE TABLE "oidc_records" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"user_code" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_records_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE INDEX "oidc_records_grant_id_idx" ON "oidc_records" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_records_uid_idx" ON "oidc_records" USING btree ("model","uid");--> statement-breakpoint
CREATE INDEX "oidc_records_user_code_idx" ON "oidc_records" USING btree ("model","user_code");--> statement-breakpoint
CREATE INDEX "oidc_records_expires_at_idx" ON "oidc_records" USING btree ("expires_at");