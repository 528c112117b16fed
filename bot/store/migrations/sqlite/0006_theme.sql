-- Schema version 6: a player's own picture theme ("colourblind", "dark", "light"), used for
-- the pictures only they see (NULL: the game's or the server's theme).
ALTER TABLE user_settings ADD COLUMN theme TEXT;
