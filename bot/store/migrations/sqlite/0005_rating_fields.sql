-- Schema version 5: what the ratings need to know of each finished game beyond its places.
-- Who really played a person's seat (the computer player may play turns for them, or hold the
-- seat at the end) and whether the game offered hints: bot/service/ratings.py leaves such
-- seats and games out. Results kept before this version are people's own play, without
-- hints: the defaults say so. Portable SQL: BOOLEAN with FALSE, INTEGER.

ALTER TABLE results ADD COLUMN hints BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE result_seats ADD COLUMN ai_turns INTEGER NOT NULL DEFAULT 0 CHECK (ai_turns >= 0);
ALTER TABLE result_seats ADD COLUMN ai_at_end BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE result_seats ADD COLUMN hints_used INTEGER NOT NULL DEFAULT 0 CHECK (hints_used >= 0);
