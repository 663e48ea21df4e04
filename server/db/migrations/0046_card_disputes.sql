-- Issue 36: card disputes. A dispute of a cleared payment, its history (each state change, who, when, a note),
-- the sandbox issuer's own record of it, and the program's provisional-credit setting (off by default).
CREATE TABLE "card_disputes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"card_id" uuid NOT NULL REFERENCES "cards"("id"),
	"transaction_id" uuid NOT NULL REFERENCES "card_transactions"("id"),
	"wallet_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"amount" bigint NOT NULL CHECK ("amount" > 0),
	"explanation" text NOT NULL,
	"evidence" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"state" text NOT NULL,
	"provisional" bigint DEFAULT 0 NOT NULL,
	"credited" bigint DEFAULT 0 NOT NULL,
	"issuer_reference" text,
	"resolution_reference" text,
	"created_by" uuid NOT NULL,
	"submitted_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One open dispute per payment, whatever races.
CREATE UNIQUE INDEX "card_disputes_open_unique" ON "card_disputes" ("transaction_id") WHERE "state" IN ('submitted', 'under_review');
--> statement-breakpoint
CREATE UNIQUE INDEX "card_disputes_resolution_unique" ON "card_disputes" ("resolution_reference");
--> statement-breakpoint
CREATE INDEX "card_disputes_created_idx" ON "card_disputes" ("created_at", "id");
--> statement-breakpoint
CREATE INDEX "card_disputes_wallet_created_idx" ON "card_disputes" ("wallet_id", "created_at");
--> statement-breakpoint
CREATE INDEX "card_disputes_state_created_idx" ON "card_disputes" ("state", "created_at");
--> statement-breakpoint
CREATE TABLE "card_dispute_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dispute_id" uuid NOT NULL REFERENCES "card_disputes"("id"),
	"state" text NOT NULL,
	"note" text,
	"actor_id" uuid,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "card_dispute_events_dispute_idx" ON "card_dispute_events" ("dispute_id", "created_at");
--> statement-breakpoint
CREATE TABLE "sandbox_disputes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"platform_reference" uuid NOT NULL,
	"card_token" text NOT NULL,
	"amount" bigint NOT NULL,
	"provisional" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_disputes_platform_unique" ON "sandbox_disputes" ("platform_reference");
--> statement-breakpoint
ALTER TABLE "program_controls" ADD COLUMN "provisional_credit" boolean DEFAULT false NOT NULL;
