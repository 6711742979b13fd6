-- The hall's data: accounts, sessions, tables, games with their actions, ratings.

CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    -- argon2id PHC string; NULL for a guest.
    password_hash TEXT,
    guest INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE sessions (
    -- sha256 of the token, in hex: the token itself is never stored.
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    expires_at INTEGER NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    -- JSON: options, invite code, host, who sits where, match totals, next configuration.
    state TEXT NOT NULL,
    open INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seats INTEGER NOT NULL,
    commitment TEXT NOT NULL,
    -- The server seed, secret until the game is over.
    seed TEXT NOT NULL,
    -- JSON array: each seat's nonce or null.
    nonces TEXT NOT NULL,
    rated INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    -- JSON outcome, once finished.
    outcome TEXT
);
CREATE INDEX games_table ON games(table_id, finished_at);

CREATE TABLE game_seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    user_id INTEGER REFERENCES users(id),
    bot TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_user ON game_seats(user_id);

CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    -- The public form, and the private form where it differs (sealed until the end).
    public TEXT NOT NULL,
    sealed TEXT,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

CREATE TABLE ratings (
    user_id INTEGER NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (user_id, game)
);
