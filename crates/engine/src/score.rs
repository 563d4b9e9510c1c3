//! Search scores: centipawn-like evaluations and proven wins and losses.

/// The score of a win found at the root itself; a win found `n` plies deep
/// scores `WIN - n`, so nearer wins score higher.
pub const WIN: i32 = 30_000;
/// The deepest ply the search reaches (a hard bound on recursion).
pub const MAX_PLY: usize = 128;
/// Scores at least this large (in absolute value) are proven wins or losses.
pub const PROVEN: i32 = WIN - MAX_PLY as i32;
/// A bound wider than any score.
pub const INFINITY: i32 = WIN + 1;

/// The score of a win for the side to move `ply` plies from the root.
pub const fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// The score of a loss for the side to move `ply` plies from the root.
pub const fn loss_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

/// Whether `score` is a proven win or loss.
pub const fn is_proven(score: i32) -> bool {
    score >= PROVEN || score <= -PROVEN
}

/// A score as a node-independent value for the transposition table: proven
/// results are stored relative to the node, not the root.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// The score as UGI writes it: `cp N`, or `win N` / `loss N` with the
/// number of plies until the game ends.
pub fn format(score: i32) -> String {
    if score >= PROVEN {
        format!("win {}", WIN - score)
    } else if score <= -PROVEN {
        format!("loss {}", WIN + score)
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_scores_round_trip_through_the_table() {
        for ply in [0, 3, 40] {
            for score in [win_in(ply + 5), loss_in(ply + 2), 123, -77] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
        assert_eq!(format(win_in(3)), "win 3");
        assert_eq!(format(loss_in(2)), "loss 2");
        assert_eq!(format(-40), "cp -40");
        assert!(is_proven(win_in(MAX_PLY - 1)) && !is_proven(2_000));
    }
}
