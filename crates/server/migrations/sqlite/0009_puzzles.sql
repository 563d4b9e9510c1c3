-- The puzzle trainer: each puzzle's Glicko-2 rating (from its grade in the
-- shipped collection until it is played), each player's puzzle rating, and
-- every rated attempt (a player's history).
CREATE TABLE puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE player_puzzle_ratings (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE puzzle_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL,
    rating_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (user_id, puzzle_id)
);
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, id);
