-- Issue 32: a card's own controls (categories, countries, a per-payment limit, approvals per interval) and the
-- program's, one row, which start blocking what customer-portal §1 prohibits.
CREATE TABLE "card_controls" (
	"card_id" uuid PRIMARY KEY NOT NULL REFERENCES "cards"("id"),
	"allowed_categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"blocked_categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"allowed_countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"blocked_countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"per_transaction_limit" bigint,
	"max_approvals_count" integer,
	"max_approvals_interval" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "program_controls" (
	"id" integer PRIMARY KEY NOT NULL,
	"blocked_categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"blocked_countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" uuid
);
--> statement-breakpoint
INSERT INTO "program_controls" ("id", "blocked_categories") VALUES (1, ARRAY['gambling', 'money_transfer', 'brokers', 'dating_escort']);
