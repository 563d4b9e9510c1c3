-- One numbering for games and challenges: a number names one or the other,
-- never both, so that pbmserv's `accept N` tells a challenge from a board.
-- Games and challenges take their numbers from this table.
CREATE TABLE numbers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL
);
-- Challenges made before get numbers above every game and challenge
-- (nothing refers to a challenge by its number).
UPDATE challenges
SET id = id + (SELECT coalesce(max(id), 0) FROM games) + (SELECT coalesce(max(id), 0) FROM challenges);
INSERT INTO sqlite_sequence (name, seq) VALUES ('numbers', (
    SELECT max(n) FROM (
        SELECT coalesce(max(id), 0) AS n FROM games
        UNION ALL SELECT coalesce(max(id), 0) FROM challenges
        UNION ALL SELECT 100
    )
));

-- Deleted accounts keep their games under a placeholder name.
ALTER TABLE users ADD COLUMN deleted_at INTEGER;

CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
CREATE INDEX challenges_challenger ON challenges (challenger_id, status);
CREATE INDEX challenges_target ON challenges (target_id, status);
