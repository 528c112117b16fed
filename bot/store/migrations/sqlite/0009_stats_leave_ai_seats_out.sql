-- Schema version 9: the statistics leave out a person's seat that the computer player held at
-- the end or played 3 or more turns of (issue 24; bot/store/results.py), so their covering
-- indexes hold ai_at_end and ai_turns too (without them every seat row is read: 12 -> 89 ms of
-- CPU for the three tallies over 10,000 games).
DROP INDEX result_seats_by_player;
DROP INDEX result_seats_by_company;
DROP INDEX result_seats_by_officer;
CREATE INDEX result_seats_by_player ON result_seats
    (guild_id, user_id, rank, vp, automa, ai_at_end, ai_turns, players, setup, expansions);
CREATE INDEX result_seats_by_company ON result_seats
    (guild_id, company, rank, vp, automa, ai_at_end, ai_turns, user_id, players, setup, expansions);
CREATE INDEX result_seats_by_officer ON result_seats
    (guild_id, officer, rank, vp, automa, ai_at_end, ai_turns, user_id, players, setup, expansions);
