-- Schema version 2: every outbox claim names the process that holds it, and a reminder
-- says whether it is the turn's own ping (a turn announced silently in quiet hours) or a
-- reminder. Portable SQL: ADD COLUMN with a constant default works in SQLite and PostgreSQL.

-- The owner of a claim: `claim_instance` is stable across restarts of one deployment slot
-- (so a new run can take back what its crashed predecessor held), `claim_run` is unique per
-- process start. Both are NULL whenever claim_token is.
ALTER TABLE outbox ADD COLUMN claim_instance TEXT;
ALTER TABLE outbox ADD COLUMN claim_run TEXT;

ALTER TABLE reminders ADD COLUMN kind TEXT NOT NULL DEFAULT 'reminder'
    CHECK (kind IN ('turn', 'reminder'));
