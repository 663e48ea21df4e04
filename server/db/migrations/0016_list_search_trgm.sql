-- Contains-search of the staff lists (ilike '%…%') reads every row without a trigram index.
-- pg_trgm is a contrib extension: PGlite loads it (server/db/client.ts), most PostgreSQL servers
-- ship it, but a server without contrib or a role that may not create it must still migrate;
-- there the lists keep working by scanning, as before.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    RAISE NOTICE 'pg_trgm is not available: list searches will scan';
    RETURN;
  END IF;
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'pg_trgm could not be created (%): list searches will scan', SQLERRM;
    RETURN;
  END;
  -- The expressions are the ones the list queries search (server/modules/*/queries.ts).
  CREATE INDEX IF NOT EXISTS cards_nickname_trgm ON cards USING gin (nickname gin_trgm_ops);
  CREATE INDEX IF NOT EXISTS cards_full_name_trgm ON cards USING gin ((first_name || ' ' || last_name) gin_trgm_ops);
  CREATE INDEX IF NOT EXISTS users_full_name_trgm ON users USING gin ((first_name || ' ' || last_name) gin_trgm_ops);
  CREATE INDEX IF NOT EXISTS users_email_trgm ON users USING gin (email gin_trgm_ops);
  CREATE INDEX IF NOT EXISTS companies_name_trgm ON companies USING gin (company_name gin_trgm_ops);
  CREATE INDEX IF NOT EXISTS companies_email_trgm ON companies USING gin (company_email gin_trgm_ops);
  CREATE INDEX IF NOT EXISTS audit_log_actor_email_trgm ON audit_log USING gin (actor_email gin_trgm_ops);
END $$;
