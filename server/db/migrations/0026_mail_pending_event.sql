-- A kick after a commit claims the mail of its events by event key; without this index the claim walked every
-- pending mail of everyone and kept those of its keys (a backlog made every kick slower). Only pending mail is in it.
CREATE INDEX "notifications_mail_pending_event_idx" ON "notifications" USING btree ("event_key") WHERE mail_state = 'pending';