-- Mail: verified addresses, what each player wants mailed, the tokens
-- mailed out (address verification, password reset, reply addresses,
-- unsubscribe links), the outbox of mail to send, and the game chat.
ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
-- each | digest | off
ALTER TABLE users ADD COLUMN mail_mode TEXT NOT NULL DEFAULT 'each';
-- The kinds of mail wanted, comma-separated (see mail::MailKind).
ALTER TABLE users ADD COLUMN mail_kinds TEXT NOT NULL DEFAULT 'turn,challenge,end,reminder,offer,chat';
-- Set when a mail to the address bounced or failed for good.
ALTER TABLE users ADD COLUMN mail_failure TEXT;
ALTER TABLE users ADD COLUMN mail_failed_at INTEGER;

CREATE TABLE mail_tokens (
    token_hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    game_id INTEGER,
    email TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    used_at INTEGER
);
CREATE INDEX mail_tokens_user ON mail_tokens (user_id, kind);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER,
    to_addr TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT,
    reply_to TEXT,
    unsubscribe TEXT,
    auto_reply INTEGER NOT NULL DEFAULT 0,
    digest INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_until INTEGER,
    sent_at INTEGER,
    failed_at INTEGER,
    last_error TEXT
);
CREATE INDEX outbox_pending ON outbox (sent_at, failed_at, due_at);

CREATE TABLE chat_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX chat_messages_game ON chat_messages (game_id, id);
