-- Computer analyses of finished games: asked for by a player, run in the
-- background position by position on the engine workers games do not need,
-- and kept for everyone who opens the game afterwards.
CREATE TABLE game_analyses (
    game_id BIGINT PRIMARY KEY,
    requested_by BIGINT NOT NULL REFERENCES users(id),
    status TEXT NOT NULL,
    positions BIGINT NOT NULL,
    done_positions BIGINT NOT NULL DEFAULT 0,
    movetime_ms BIGINT NOT NULL,
    claimed_until BIGINT,
    result TEXT NOT NULL DEFAULT '',
    record TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX game_analyses_queue ON game_analyses (status, created_at);
CREATE INDEX game_analyses_requester ON game_analyses (requested_by, status);
