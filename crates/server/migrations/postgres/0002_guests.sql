-- Guest accounts: made by the web site for a visitor who has not signed up,
-- so that they can play the computer at once. Signing up turns the guest
-- into a full account and keeps its games.
ALTER TABLE users ADD COLUMN guest BIGINT NOT NULL DEFAULT 0;
