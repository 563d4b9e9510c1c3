-- Correspondence comforts: time banks (their cap), the players' vacations
-- as each game's clocks see them, conditional moves per side, the
-- vacations taken, automatic vacation and the cap on running
-- correspondence games per player, and chat mutes and reports.
ALTER TABLE games ADD COLUMN max_ms INTEGER NOT NULL DEFAULT 0;
-- Space-separated COLOR:START:END[:auto] (see game::Vacation).
ALTER TABLE games ADD COLUMN vacations TEXT NOT NULL DEFAULT '';
-- Lines of moves separated by ';' (see conditional::Conditional).
ALTER TABLE games ADD COLUMN white_conditional TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN black_conditional TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN max_ms INTEGER NOT NULL DEFAULT 0;

ALTER TABLE users ADD COLUMN auto_vacation INTEGER NOT NULL DEFAULT 1;
-- 0: no cap.
ALTER TABLE users ADD COLUMN max_correspondence INTEGER NOT NULL DEFAULT 0;

CREATE TABLE vacations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    automatic INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX vacations_user ON vacations (user_id, ends_at);

CREATE TABLE chat_mutes (
    user_id INTEGER NOT NULL REFERENCES users(id),
    game_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

CREATE TABLE chat_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id INTEGER NOT NULL REFERENCES chat_messages(id),
    reporter_id INTEGER NOT NULL REFERENCES users(id),
    reason TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (message_id, reporter_id)
);
