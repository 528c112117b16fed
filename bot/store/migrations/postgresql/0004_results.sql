-- Schema version 4: the results of finished games, for statistics, history and archives.
-- Written in the transaction of a game's final commit (or later, once, from the log of a
-- game that finished before this version). Statistics read these rows only, never a log.
-- Portable SQL: BOOLEAN, BIGINT, JSON as TEXT.

-- One row per finished game. `guild_id` and `ended_at` repeat the games row so that a
-- server's results are read, newest first, from one index.
CREATE TABLE results (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    guild_id BIGINT NOT NULL,
    version BIGINT NOT NULL,
    players INTEGER NOT NULL,
    setup TEXT NOT NULL,
    map TEXT NOT NULL,
    -- The expansions' names, sorted and joined by commas ('' for the base game alone).
    expansions TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    ended_at BIGINT NOT NULL
);
CREATE INDEX results_by_guild ON results (guild_id, ended_at, game_id);

-- One row per seat. `user_id` is NULL for a seat the engine played (an automa). The server
-- and the game's players, setup and expansions are repeated from `results` so that a
-- statistic reads one index of this table (below), never a join: the tallies of 10,000
-- games are then a scan of 30,000 index entries.
CREATE TABLE result_seats (
    game_id BIGINT NOT NULL REFERENCES results (game_id),
    seat INTEGER NOT NULL CHECK (seat >= 0),
    guild_id BIGINT NOT NULL,
    players INTEGER NOT NULL,
    setup TEXT NOT NULL,
    expansions TEXT NOT NULL,
    user_id BIGINT,
    automa BOOLEAN NOT NULL DEFAULT FALSE,
    company TEXT NOT NULL,
    officer TEXT NOT NULL,
    vp INTEGER NOT NULL,
    rank INTEGER NOT NULL CHECK (rank >= 1),
    -- {"start": 10, "income": 12, ...}: VP by source key, adding up to vp.
    vp_by_source TEXT NOT NULL,
    -- [7, 12, 9, 15, 20]: energy produced in each round.
    energy_by_round TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- One covering index per table of a statistic (players, companies, officers), in the order
-- it groups by, holding every column it reads or filters on.
CREATE INDEX result_seats_by_player ON result_seats
    (guild_id, user_id, rank, vp, automa, players, setup, expansions);
CREATE INDEX result_seats_by_company ON result_seats
    (guild_id, company, rank, vp, automa, user_id, players, setup, expansions);
CREATE INDEX result_seats_by_officer ON result_seats
    (guild_id, officer, rank, vp, automa, user_id, players, setup, expansions);
-- The games one player played (history and recent games).
CREATE INDEX result_seats_by_user ON result_seats (user_id, game_id);
