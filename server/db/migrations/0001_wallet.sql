CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"owner_id" uuid,
	"currency" text DEFAULT 'USDT' NOT NULL,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_non_negative" CHECK ("ledger_accounts"."allow_negative" or "ledger_accounts"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"balance_before" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_nonzero" CHECK ("ledger_entries"."amount" <> 0),
	CONSTRAINT "ledger_entries_arithmetic" CHECK ("ledger_entries"."balance_after" = "ledger_entries"."balance_before" + "ledger_entries"."amount")
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"description" text,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fees" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"value" bigint NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"for" text DEFAULT 'default' NOT NULL,
	"for_id" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fees_name_for_unique" UNIQUE NULLS NOT DISTINCT("name","for","for_id")
);
--> statement-breakpoint
CREATE TABLE "momo_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"momo_name" text NOT NULL,
	"momo_number" text NOT NULL,
	"network" text NOT NULL,
	"rate" text NOT NULL,
	"flat_fee" bigint NOT NULL,
	"alert_emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"entity_users" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"code" text NOT NULL,
	"method" text NOT NULL,
	"amount" bigint NOT NULL,
	"state" text DEFAULT 'Pending' NOT NULL,
	"transaction_hash" text,
	"reason" text,
	"momo_amount" bigint,
	"momo_rate" text,
	"momo_flat_fee" bigint,
	"fee" bigint,
	"fees_meta" jsonb,
	"ledger_transfer_id" uuid,
	"created_by" uuid NOT NULL,
	"processed_by" uuid,
	"processed_at" timestamp with time zone,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_ledger_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("ledger_transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_processed_by_users_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_kind_owner_unique" ON "ledger_accounts" USING btree ("kind","owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_platform_unique" ON "ledger_accounts" USING btree ("kind") WHERE owner_id is null;--> statement-breakpoint
CREATE INDEX "ledger_entries_account_created_idx" ON "ledger_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_transfer_idx" ON "ledger_entries" USING btree ("transfer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transfers_reference_unique" ON "ledger_transfers" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "ledger_transfers_kind_created_idx" ON "ledger_transfers" USING btree ("kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "topups_reference_unique" ON "topups" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "topups_wallet_created_idx" ON "topups" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "topups_state_updated_idx" ON "topups" USING btree ("state","updated_at");