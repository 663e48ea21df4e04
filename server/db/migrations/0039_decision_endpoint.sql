-- Issue 32: a company's authorisation-decision endpoint, one per company, read by primary key on every authorisation.
CREATE TABLE "decision_endpoints" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"timeout_ms" integer NOT NULL,
	"on_timeout" text NOT NULL,
	"signing_secret" text NOT NULL,
	"last_failure" text,
	"last_failure_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "decision_endpoints_timeout_ms_range" CHECK ("timeout_ms" BETWEEN 100 AND 2000),
	CONSTRAINT "decision_endpoints_on_timeout_known" CHECK ("on_timeout" IN ('approve', 'decline'))
);
--> statement-breakpoint
ALTER TABLE "decision_endpoints" ADD CONSTRAINT "decision_endpoints_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;
