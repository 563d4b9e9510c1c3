-- The game's family (RULES.md section 7): every game and challenge names
-- its variant, and each variant but the standard game (whose rating stays
-- in users) has its own rating per player.
ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'epaminondas';
ALTER TABLE challenges ADD COLUMN variant TEXT NOT NULL DEFAULT 'epaminondas';
ALTER TABLE rating_history ADD COLUMN variant TEXT NOT NULL DEFAULT 'epaminondas';

CREATE TABLE variant_ratings (
    user_id INTEGER NOT NULL REFERENCES users(id),
    variant TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, variant)
);
CREATE INDEX variant_ratings_list ON variant_ratings (variant, rating);
