-- Issue 33: maker-checker. One policy per action (no row: off), and each request a policy held back.
CREATE TABLE "approval_policies" (
	"action" text PRIMARY KEY NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"min_amount" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "approval_policies_min_amount_positive" CHECK ("min_amount" IS NULL OR "min_amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"amount" bigint,
	"summary" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"body" jsonb,
	"initiator_id" uuid NOT NULL,
	"initiator_email" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"decided_by" uuid,
	"decided_by_email" text,
	"reason" text,
	"result_status" integer,
	"result_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "approvals_state_known" CHECK ("state" IN ('pending', 'approved', 'rejected', 'expired', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_initiator_id_users_id_fk" FOREIGN KEY ("initiator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "approvals_state_created_idx" ON "approvals" USING btree ("state","created_at");
