-- Issue 32: the authorisation's lifecycle. An authorisation keeps what it still holds; every step records what it
-- released from the hold to the card and what it took straight from the card's available balance, so the card's
-- sums add up from its rows. Each issuer message is performed once: its reference is unique.
ALTER TABLE "card_transactions" ADD COLUMN "held" bigint;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "released" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "from_available" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "card_transactions" SET "held" = "amount" WHERE "kind" = 'authorization' AND "status" = 'approved';--> statement-breakpoint
UPDATE "card_transactions" SET "held" = 0 WHERE "kind" = 'authorization' AND "status" <> 'approved';--> statement-breakpoint
CREATE UNIQUE INDEX "card_transactions_issuer_reference_unique" ON "card_transactions" ("issuer_reference");--> statement-breakpoint
-- pending authorisations by age, for the hold expiry
CREATE INDEX "card_transactions_pending_idx" ON "card_transactions" ("created_at") WHERE "kind" = 'authorization' AND "status" = 'approved';--> statement-breakpoint
ALTER TABLE "sandbox_authorizations" ADD COLUMN "mcc" text;--> statement-breakpoint
CREATE TABLE "sandbox_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"card_token" text NOT NULL,
	"authorization_id" uuid,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"available_delta" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "sandbox_messages_pending_idx" ON "sandbox_messages" ("created_at") WHERE "state" = 'pending';--> statement-breakpoint
-- one expiry per authorisation, whichever instance runs the job
CREATE UNIQUE INDEX "sandbox_messages_expiry_unique" ON "sandbox_messages" ("authorization_id") WHERE "kind" = 'expiry';
--> statement-breakpoint
-- Settlements and reversals before 0037 changed only their authorisation's status: each gets its row, so the sums add up from rows.
INSERT INTO "card_transactions" ("id", "card_id", "kind", "status", "amount", "currency", "merchant", "country", "mcc", "description", "authorization_id", "ledger_transfer_id", "released", "created_at", "updated_at")
SELECT gen_random_uuid(), a."card_id", CASE WHEN a."status" = 'settled' THEN 'clearing' ELSE 'reversal' END, 'completed', a."amount", a."currency", a."merchant", a."country", a."mcc",
  CASE WHEN a."status" = 'settled' THEN 'Settlement of payment at ' ELSE 'Reversal of payment at ' END || a."merchant",
  a."id", (SELECT t."id" FROM "ledger_transfers" t WHERE t."reference" = CASE WHEN a."status" = 'settled' THEN 'SET-' ELSE 'REV-' END || a."issuer_reference" LIMIT 1),
  CASE WHEN a."status" = 'settled' THEN 0 ELSE a."amount" END, a."updated_at", a."updated_at"
FROM "card_transactions" a WHERE a."kind" = 'authorization' AND a."status" IN ('settled', 'reversed');
--> statement-breakpoint
-- A card may owe: a clearing or force-post that takes more than it holds (only those postings, server/modules/ledger/post.ts).
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_non_negative";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_non_negative" CHECK ("ledger_accounts"."allow_negative" or "ledger_accounts"."balance" >= 0 or "ledger_accounts"."kind" = 'card');
