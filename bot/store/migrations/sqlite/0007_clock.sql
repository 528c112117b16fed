-- Schema version 7: the turn clock (bot/service/clock.py, bot/store/clocks.py).

-- Deadlines claimed like reminders, so that exactly one process acts on each: a player's
-- time running out ('expiry', per player) and a computer seat's pending step ('ai', user 0).
-- `version` is the game's commit version the deadline was written for.
CREATE TABLE deadlines (
    game_id BIGINT NOT NULL REFERENCES games (id),
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('expiry', 'ai')),
    due_at BIGINT NOT NULL,
    version BIGINT NOT NULL,
    claim_token TEXT,
    claimed_until BIGINT,
    PRIMARY KEY (game_id, user_id, kind)
);
CREATE INDEX deadlines_due ON deadlines (due_at);

-- A player's time away (`/barrage away`): [start_at, until_at) in UTC ms; ending it early
-- moves until_at to that moment. Kept, because a turn is charged over its whole length.
CREATE TABLE away (
    user_id BIGINT NOT NULL,
    start_at BIGINT NOT NULL,
    until_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, start_at)
);

-- Every bot process writes its heartbeat each minute; a gap in all of them is an outage
-- (the bot could not answer), which no clock is charged for.
CREATE TABLE heartbeats (
    instance TEXT PRIMARY KEY,
    beat_at BIGINT NOT NULL
);
CREATE TABLE outages (
    start_at BIGINT PRIMARY KEY,
    end_at BIGINT NOT NULL
);
