CREATE TABLE "address_declines" (
	"address" text PRIMARY KEY NOT NULL,
	"declines" integer NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL
);
