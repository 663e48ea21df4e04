-- Issue 34: key rotation. The recovery codes' own secret, sealed (they were keyed with ENCRYPTION_KEY itself,
-- which a one-way hash cannot be re-keyed from), and the check values of keys rotate-key retired.
ALTER TABLE "key_checks" ADD COLUMN "recovery_key" text;
--> statement-breakpoint
ALTER TABLE "key_checks" ADD COLUMN "retired_checks" text[] DEFAULT '{}' NOT NULL;
