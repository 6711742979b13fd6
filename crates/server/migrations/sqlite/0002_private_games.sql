-- Whether a game was played at a private table: a player's public history leaves it out,
-- so the people met there and the game's id (the way to its replay, every hand shown)
-- stay with those who sat at it.
ALTER TABLE games ADD COLUMN private INTEGER NOT NULL DEFAULT 0;

-- Games stored before this column: private if their table is private now (the only
-- record of it there is).
UPDATE games SET private = 1 WHERE table_id IN
    (SELECT id FROM tables WHERE json_extract(state, '$.options.private') = 1);
