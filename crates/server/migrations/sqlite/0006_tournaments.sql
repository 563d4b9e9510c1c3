-- Tournaments (round robin and Swiss) and leagues (seasons of round-robin
-- divisions with promotion and relegation); see tournament.rs.
CREATE TABLE leagues (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    organizer_id INTEGER NOT NULL REFERENCES users(id),
    group_size INTEGER NOT NULL,
    movers INTEGER NOT NULL,
    cycles INTEGER NOT NULL,
    files INTEGER NOT NULL,
    ranks INTEGER NOT NULL,
    symmetry TEXT NOT NULL,
    rated INTEGER NOT NULL,
    time_kind TEXT NOT NULL,
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    days_per_move INTEGER NOT NULL,
    max_ms INTEGER NOT NULL,
    -- The season being played (0 before the first).
    season INTEGER NOT NULL DEFAULT 0,
    -- When the first season starts by itself, if set.
    starts_at INTEGER,
    created_at INTEGER NOT NULL
);

CREATE TABLE league_players (
    league_id INTEGER NOT NULL REFERENCES leagues(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    joined_at INTEGER NOT NULL,
    left_at INTEGER,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    format TEXT NOT NULL,
    -- Round robin: cycles; Swiss: the rounds asked for.
    format_number INTEGER NOT NULL,
    files INTEGER NOT NULL,
    ranks INTEGER NOT NULL,
    symmetry TEXT NOT NULL,
    rated INTEGER NOT NULL,
    time_kind TEXT NOT NULL,
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    days_per_move INTEGER NOT NULL,
    max_ms INTEGER NOT NULL,
    organizer_id INTEGER NOT NULL REFERENCES users(id),
    status TEXT NOT NULL,
    starts_at INTEGER,
    max_players INTEGER NOT NULL,
    round INTEGER NOT NULL DEFAULT 0,
    rounds INTEGER NOT NULL DEFAULT 0,
    league_id INTEGER REFERENCES leagues(id),
    season INTEGER,
    division INTEGER,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    ended_at INTEGER
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_league ON tournaments (league_id, season);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    seed REAL NOT NULL,
    joined_at INTEGER NOT NULL,
    withdrawn_at INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_user ON tournament_players (user_id);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    white_id INTEGER NOT NULL REFERENCES users(id),
    -- None: a bye.
    black_id INTEGER REFERENCES users(id),
    game_id INTEGER UNIQUE,
    -- tournament::Outcome's token ('' until decided).
    result TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_games_open ON tournament_games (result, game_id);
