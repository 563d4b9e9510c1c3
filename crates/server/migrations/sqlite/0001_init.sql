-- The server's tables (SQLite). Integers are 64-bit; flags are 0 or 1;
-- times are milliseconds since the Unix epoch.
CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    bot INTEGER NOT NULL DEFAULT 0,
    rating REAL NOT NULL DEFAULT 1500,
    deviation REAL NOT NULL DEFAULT 350,
    volatility REAL NOT NULL DEFAULT 0.06,
    rated_games INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    csrf TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    white_id INTEGER REFERENCES users(id),
    black_id INTEGER REFERENCES users(id),
    engine_level INTEGER,
    files INTEGER NOT NULL,
    ranks INTEGER NOT NULL,
    symmetry TEXT NOT NULL,
    rated INTEGER NOT NULL,
    time_kind TEXT NOT NULL,
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    days_per_move INTEGER NOT NULL,
    moves TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    reason TEXT,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    turn_started_at INTEGER NOT NULL,
    deadline_at INTEGER,
    remind_at INTEGER,
    draw_offer TEXT,
    takeback_offer TEXT,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    ended_at INTEGER
);
-- Board numbers start at 101, as on pbmserv.
INSERT INTO sqlite_sequence (name, seq) VALUES ('games', 100);
CREATE INDEX games_deadline ON games (status, deadline_at);
CREATE INDEX games_remind ON games (status, remind_at);
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);

CREATE TABLE challenges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    challenger_id INTEGER NOT NULL REFERENCES users(id),
    target_id INTEGER REFERENCES users(id),
    files INTEGER NOT NULL,
    ranks INTEGER NOT NULL,
    symmetry TEXT NOT NULL,
    color TEXT NOT NULL,
    rated INTEGER NOT NULL,
    time_kind TEXT NOT NULL,
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    days_per_move INTEGER NOT NULL,
    status TEXT NOT NULL,
    game_id INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX challenges_status ON challenges (status);

CREATE TABLE rating_history (
    user_id INTEGER NOT NULL REFERENCES users(id),
    game_id INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX rating_history_user ON rating_history (user_id, at);
