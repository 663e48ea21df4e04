-- Issue 32: every authorisation carries the merchant's category code; a decline its stable code; each decision who made it and how long it took.
ALTER TABLE "card_transactions" ADD COLUMN "mcc" text;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "decline_code" text;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "decision_ms" integer;
