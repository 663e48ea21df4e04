-- Issue 35, the customer lists at half a million customers: their totals kept (as the cards' are, migration 0031)
-- and the companies' list ordered from an index. No customer is written between the triggers' creation and the
-- first count: writers wait.
LOCK TABLE users, companies IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TABLE "customer_count" (
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"deactivated" boolean NOT NULL,
	"slot" integer NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "customer_count_pkey" PRIMARY KEY("kind","state","deactivated","slot")
);
--> statement-breakpoint
CREATE INDEX "companies_created_idx" ON "companies" USING btree ("created_at","id");
--> statement-breakpoint
-- The customer lists' totals: Individuals not deleted, and companies, by verification state and whether deactivated,
-- so that a list filtered by state alone (or not at all) reads its total instead of counting half a million rows.
-- Inserted and removed rows a statement at a time; a change of what is counted, a row at a time (the trigger fires
-- only then: a verification decision, a deactivation, a deletion, a change of role; not a sign-in). Each statement
-- takes its rows' locks in key order, as the cards' count does.
CREATE OR REPLACE FUNCTION cw_individual_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'individual', n.state, n.deactivated_at IS NOT NULL, pg_backend_pid() % 16, count(*)
    FROM new_rows n WHERE n.role = 'Individual' AND n.deleted_at IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'individual', o.state, o.deactivated_at IS NOT NULL, pg_backend_pid() % 16, -count(*)
    FROM old_rows o WHERE o.role = 'Individual' AND o.deleted_at IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'individual', x.state, x.deactivated, pg_backend_pid() % 16, sum(x.n)
    FROM (VALUES
      (OLD.state, OLD.deactivated_at IS NOT NULL, CASE WHEN OLD.role = 'Individual' AND OLD.deleted_at IS NULL THEN -1 ELSE 0 END),
      (NEW.state, NEW.deactivated_at IS NOT NULL, CASE WHEN NEW.role = 'Individual' AND NEW.deleted_at IS NULL THEN 1 ELSE 0 END)
    ) AS x(state, deactivated, n)
    GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cw_company_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'company', n.state, n.deactivated_at IS NOT NULL, pg_backend_pid() % 16, count(*)
    FROM new_rows n GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'company', o.state, o.deactivated_at IS NOT NULL, pg_backend_pid() % 16, -count(*)
    FROM old_rows o GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  ELSE
    INSERT INTO customer_count (kind, state, deactivated, slot, rows)
    SELECT 'company', x.state, x.deactivated, pg_backend_pid() % 16, sum(x.n)
    FROM (VALUES (OLD.state, OLD.deactivated_at IS NOT NULL, -1), (NEW.state, NEW.deactivated_at IS NOT NULL, 1)) AS x(state, deactivated, n)
    GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (kind, state, deactivated, slot) DO UPDATE SET rows = customer_count.rows + EXCLUDED.rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER individual_count_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_individual_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER individual_count_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_individual_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER individual_count_update AFTER UPDATE OF role, state, deactivated_at, deleted_at ON users
  FOR EACH ROW
  WHEN ((OLD.role = 'Individual' AND OLD.deleted_at IS NULL, OLD.state, OLD.deactivated_at IS NULL)
        IS DISTINCT FROM (NEW.role = 'Individual' AND NEW.deleted_at IS NULL, NEW.state, NEW.deactivated_at IS NULL))
  EXECUTE FUNCTION cw_individual_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER company_count_insert AFTER INSERT ON companies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_company_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER company_count_delete AFTER DELETE ON companies
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_company_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER company_count_update AFTER UPDATE OF state, deactivated_at ON companies
  FOR EACH ROW
  WHEN ((OLD.state, OLD.deactivated_at IS NULL) IS DISTINCT FROM (NEW.state, NEW.deactivated_at IS NULL))
  EXECUTE FUNCTION cw_company_count();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER customer_count_no_truncate_users BEFORE TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER customer_count_no_truncate_companies BEFORE TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION cw_kept_count_refuse();
--> statement-breakpoint
INSERT INTO customer_count (kind, state, deactivated, slot, rows)
SELECT 'individual', state, deactivated_at IS NOT NULL, 0, count(*) FROM users
WHERE role = 'Individual' AND deleted_at IS NULL GROUP BY 1, 2, 3
UNION ALL
SELECT 'company', state, deactivated_at IS NOT NULL, 0, count(*) FROM companies GROUP BY 1, 2, 3;
