-- Issue 35, a search's total at a million cards and half a million customers: what the searches test, kept in narrow
-- rows, so that a total over tens of thousands of matches visits a fraction of the pages (a card's searched text alone
-- is a quarter of its row, a user's with its id a half). The page itself still comes from the cards and users, by their
-- own trigram indexes. No card or user is written between the triggers' creation and the copy: writers wait.
LOCK TABLE cards, users IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- Each card's searched text, and nothing else: a count needs no more, and every byte of the row is read per match. No
-- key: a card's change removes one row of its old text (any one: equal rows are interchangeable) and adds its new.
CREATE TABLE "card_search" (
	"haystack" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_search" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"listed" boolean NOT NULL,
	"haystack" text NOT NULL
);
--> statement-breakpoint
-- A card's searched text: its nickname and its cardholder's full name, lower-cased (ILIKE lower-cases both sides in a
-- multibyte database, so LIKE on this equals ILIKE on the columns), a newline between them so that no search without
-- one matches across the two.
CREATE OR REPLACE FUNCTION cw_card_haystack(nickname text, first_name text, last_name text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(nickname) || E'\n' || lower(first_name || ' ' || last_name)
$$;
--> statement-breakpoint
-- Removes one row of each old text (SKIP LOCKED: two changes of cards with equal texts take two rows), adds the new.
-- Deleted cards stay: the staff's list shows them.
CREATE OR REPLACE FUNCTION cw_card_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gone text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO card_search (haystack)
    SELECT cw_card_haystack(n.nickname, n.first_name, n.last_name) FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    FOR gone IN SELECT cw_card_haystack(o.nickname, o.first_name, o.last_name) FROM old_rows o LOOP
      DELETE FROM card_search WHERE ctid = (
        SELECT ctid FROM card_search WHERE haystack = gone LIMIT 1 FOR UPDATE SKIP LOCKED);
    END LOOP;
  ELSE
    DELETE FROM card_search WHERE ctid = (
      SELECT ctid FROM card_search WHERE haystack = cw_card_haystack(OLD.nickname, OLD.first_name, OLD.last_name)
      LIMIT 1 FOR UPDATE SKIP LOCKED);
    INSERT INTO card_search (haystack) VALUES (cw_card_haystack(NEW.nickname, NEW.first_name, NEW.last_name));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A user's: the full name and the email, lower-cased, a newline between. Listed: an Individual not deleted (the
-- Individuals list's rows).
CREATE OR REPLACE FUNCTION cw_user_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_search (user_id, listed, haystack)
    SELECT n.id, n.role = 'Individual' AND n.deleted_at IS NULL,
      lower(n.first_name || ' ' || n.last_name) || E'\n' || lower(n.email)
    FROM new_rows n ORDER BY n.id;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM user_search s USING old_rows o WHERE s.user_id = o.id;
  ELSE
    UPDATE user_search SET listed = NEW.role = 'Individual' AND NEW.deleted_at IS NULL,
      haystack = lower(NEW.first_name || ' ' || NEW.last_name) || E'\n' || lower(NEW.email)
    WHERE user_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER card_search_insert AFTER INSERT ON cards
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_search();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER card_search_delete AFTER DELETE ON cards
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_card_search();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER card_search_update AFTER UPDATE OF nickname, first_name, last_name ON cards
  FOR EACH ROW
  WHEN ((OLD.nickname, OLD.first_name, OLD.last_name) IS DISTINCT FROM (NEW.nickname, NEW.first_name, NEW.last_name))
  EXECUTE FUNCTION cw_card_search();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_search_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_user_search();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_search_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cw_user_search();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_search_update AFTER UPDATE OF first_name, last_name, email, role, deleted_at ON users
  FOR EACH ROW
  WHEN ((OLD.first_name, OLD.last_name, OLD.email, OLD.role = 'Individual' AND OLD.deleted_at IS NULL)
        IS DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.email, NEW.role = 'Individual' AND NEW.deleted_at IS NULL))
  EXECUTE FUNCTION cw_user_search();
--> statement-breakpoint
INSERT INTO card_search (haystack) SELECT cw_card_haystack(nickname, first_name, last_name) FROM cards;
--> statement-breakpoint
INSERT INTO user_search (user_id, listed, haystack)
SELECT id, role = 'Individual' AND deleted_at IS NULL, lower(first_name || ' ' || last_name) || E'\n' || lower(email)
FROM users;
--> statement-breakpoint
-- Finds a row of an old text to remove.
CREATE INDEX "card_search_haystack_hash" ON "card_search" USING hash ("haystack");
--> statement-breakpoint
-- The trigram indexes where pg_trgm is (migration 0016 made it where it could); without it the totals scan the narrow
-- rows, still a fraction of the pages.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS card_search_trgm ON card_search USING gin (haystack gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS user_search_trgm ON user_search USING gin (haystack gin_trgm_ops) WHERE listed;
  END IF;
END $$;
