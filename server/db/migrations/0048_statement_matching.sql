-- Issue 36, statement matching: each outside party's column mapping and rules, the statements uploaded (once per
-- file: the same bytes answer the same row) and their result, an item per line and per unmatched ledger movement.
CREATE TABLE "statement_sources" (
	"source" text PRIMARY KEY NOT NULL,
	"mapping" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_by" uuid REFERENCES "users"("id"),
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"content_hash" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"line_count" integer NOT NULL,
	"mapping" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"matched" integer NOT NULL,
	"missing_ours" integer NOT NULL,
	"missing_theirs" integer NOT NULL,
	"uploaded_by" uuid REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "statements_source_hash_unique" ON "statements" USING btree ("source","content_hash");
--> statement-breakpoint
CREATE INDEX "statements_created_idx" ON "statements" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "statement_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"statement_id" uuid NOT NULL REFERENCES "statements"("id"),
	"status" text NOT NULL,
	"line" integer,
	"at" timestamp with time zone NOT NULL,
	"amount" bigint NOT NULL,
	"reference" text,
	"ledger" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text,
	"note" text,
	"resolved_by" uuid REFERENCES "users"("id"),
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "statement_items_statement_status_idx" ON "statement_items" USING btree ("statement_id","status","line");
--> statement-breakpoint
CREATE INDEX "statement_items_open_idx" ON "statement_items" USING btree ("statement_id") WHERE "status" <> 'matched' and "resolved_at" is null;
