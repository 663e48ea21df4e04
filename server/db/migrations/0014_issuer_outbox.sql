CREATE TABLE "sandbox_operations" (
	"op_id" uuid PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"card_token" text,
	"result" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"repeats" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issuer_operations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "issuer_operations_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"operation" text NOT NULL,
	"card_id" uuid NOT NULL,
	"card_token" text NOT NULL,
	"amount" bigint,
	"purpose" text NOT NULL,
	"plan" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"compensation_transfer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"checked" integer NOT NULL,
	"drift" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trigger" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issuer_operations" ADD CONSTRAINT "issuer_operations_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issuer_operations_card_pending_idx" ON "issuer_operations" USING btree ("card_id","seq") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "issuer_operations_due_idx" ON "issuer_operations" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "issuer_operations_card_idx" ON "issuer_operations" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE INDEX "issuer_operations_failed_idx" ON "issuer_operations" USING btree ("completed_at") WHERE state = 'failed';--> statement-breakpoint
CREATE INDEX "reconciliation_runs_run_at_idx" ON "reconciliation_runs" USING btree ("run_at");