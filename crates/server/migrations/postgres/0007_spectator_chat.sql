-- The spectators' chat: a second room of a game's chat, for those who watch
-- it, closed until a player (or the tournament's organizer) opens it.

ALTER TABLE chat_messages ADD COLUMN room TEXT NOT NULL DEFAULT 'players';

CREATE TABLE spectator_chats (
    game_id BIGINT PRIMARY KEY,
    opened_by BIGINT NOT NULL REFERENCES users(id),
    opened_at BIGINT NOT NULL
);
