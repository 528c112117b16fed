-- Schema version 3: every game gets a number within its server (guild), counted from 1.
-- Players see and type these numbers ("game 3"); the store-wide id stays internal, so the
-- numbers a member sees say nothing about other servers' games. Two processes creating a
-- game in one server at once may both pick the next number: the unique index lets one keep
-- it and the other takes the one after (SqlStore._insert_game).

ALTER TABLE games ADD COLUMN number BIGINT;

UPDATE games SET number = (
    SELECT COUNT(*) FROM games AS earlier
    WHERE earlier.guild_id = games.guild_id AND earlier.id <= games.id
);

CREATE UNIQUE INDEX games_number_in_guild ON games (guild_id, number);
