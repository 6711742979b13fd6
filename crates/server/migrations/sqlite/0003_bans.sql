-- A moderator's ban of an account: why (shown to the player) and when (Unix seconds).
-- A banned account cannot log in and holds no live session; NULL is not banned.
ALTER TABLE users ADD COLUMN banned TEXT;
ALTER TABLE users ADD COLUMN banned_at INTEGER;
