CREATE TABLE "card_transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"card_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"merchant" text NOT NULL,
	"country" text NOT NULL,
	"description" text NOT NULL,
	"decline_reason" text,
	"authorization_id" uuid,
	"issuer_reference" text,
	"ledger_transfer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"nickname" text NOT NULL,
	"purpose" text NOT NULL,
	"type" text NOT NULL,
	"issuer_token" text NOT NULL,
	"last4" text NOT NULL,
	"masked_number" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"billing" jsonb NOT NULL,
	"state" text DEFAULT 'Active' NOT NULL,
	"deleted_at" timestamp with time zone,
	"end_reason" text,
	"flagged" boolean DEFAULT false NOT NULL,
	"flag_reason" text,
	"flagged_at" timestamp with time zone,
	"suspended" boolean DEFAULT false NOT NULL,
	"suspend_reason" text,
	"suspend_at" timestamp with time zone,
	"unsuspend_at" timestamp with time zone,
	"spending_limit" bigint,
	"spending_control" text,
	"additional_spending_limit" bigint DEFAULT 0 NOT NULL,
	"insufficient_streak" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"period" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"summary" jsonb,
	CONSTRAINT "job_runs_job_period_unique" UNIQUE("job","period")
);
--> statement-breakpoint
CREATE TABLE "sandbox_authorizations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"card_token" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"merchant" text NOT NULL,
	"country" text NOT NULL,
	"status" text NOT NULL,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_cards" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"brand" text NOT NULL,
	"pan_sealed" text NOT NULL,
	"cvc_sealed" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"holder" text NOT NULL,
	"billing" jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_ledger_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("ledger_transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_transactions_card_created_idx" ON "card_transactions" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE INDEX "card_transactions_auth_idx" ON "card_transactions" USING btree ("authorization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_issuer_token_unique" ON "cards" USING btree ("issuer_token");--> statement-breakpoint
CREATE INDEX "cards_wallet_created_idx" ON "cards" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "cards_created_idx" ON "cards" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sandbox_authorizations_card_idx" ON "sandbox_authorizations" USING btree ("card_token");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_cards_token_unique" ON "sandbox_cards" USING btree ("token");