CREATE TABLE "offer_content" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"testimonials" jsonb NOT NULL,
	"guarantee" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_content_one_row" CHECK ("offer_content"."id" = 1)
);
