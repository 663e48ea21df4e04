CREATE TABLE "chain_deposits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"to_address" text NOT NULL,
	"from_address" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"wallet_id" uuid,
	"topup_id" uuid,
	"note" text,
	"return_hash" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"address" text PRIMARY KEY NOT NULL,
	"wallet_id" uuid,
	"xpub_id" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"scan_from" timestamp with time zone NOT NULL,
	"scanned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_chain_transfers" (
	"hash" text NOT NULL,
	"log_index" integer DEFAULT 0 NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"created_by" uuid
);
--> statement-breakpoint
ALTER TABLE "topups" ALTER COLUMN "created_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "topups" ADD COLUMN "credited_automatically" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "topups" ADD COLUMN "chain_deposit_id" uuid;--> statement-breakpoint
ALTER TABLE "topups" ADD COLUMN "chain_check" jsonb;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_deposits_hash_log_unique" ON "chain_deposits" USING btree ("hash","log_index");--> statement-breakpoint
CREATE INDEX "chain_deposits_open_idx" ON "chain_deposits" USING btree ("created_at") WHERE "chain_deposits"."status" = 'Unassigned';--> statement-breakpoint
CREATE INDEX "chain_deposits_wallet_idx" ON "chain_deposits" USING btree ("wallet_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_key_index_unique" ON "deposit_addresses" USING btree ("xpub_id","derivation_index");--> statement-breakpoint
CREATE INDEX "deposit_addresses_wallet_idx" ON "deposit_addresses" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "deposit_addresses_scanned_idx" ON "deposit_addresses" USING btree ("scanned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_chain_transfers_pk" ON "sandbox_chain_transfers" USING btree ("hash","log_index");--> statement-breakpoint
CREATE INDEX "sandbox_chain_transfers_to_idx" ON "sandbox_chain_transfers" USING btree ("to_address","block_time");