-- Issue 33, access review: when each person last signed in, kept on the person (sessions are pruned, and a
-- dormant staff account is exactly what a review looks for).
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;
