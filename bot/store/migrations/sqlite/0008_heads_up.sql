-- A player's "you're next" setting (heads_up): mention them when the player before them
-- begins a turn (0: off, the default). Numbered after the turn clock's migration when both
-- land (it needs nothing of it).
ALTER TABLE user_settings ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0;
