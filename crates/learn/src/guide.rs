//! The rules for a newcomer: a few short parts, each with an example
//! position the site draws as a board the visitor can try moves on. The
//! same text is terminal play's help ([`plain_text`]), so the rules are
//! explained in one place. The last parts present the game's family, the
//! variants of RULES.md section 7, each with an example in its own rules.

use epaminondas_rules::{Position, Setup, Variant};

/// An example position of one part of the guide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// The position, as position text (RULES.md section 5).
    pub position: &'static str,
    /// What to look at or try on it.
    pub caption: &'static str,
    /// A move the example shows to be illegal, in canonical notation (the
    /// symmetry rule's example), if it has one.
    pub forbidden: Option<&'static str>,
    /// The rules it is played under, with that variant's own symmetry
    /// option.
    pub variant: Variant,
}

impl Example {
    /// The example's position under its variant's rules. The guide's
    /// positions are checked by its tests, so this cannot fail for them.
    pub fn position(&self) -> Result<Position, String> {
        let setup = self.position.parse::<Setup>().map_err(|e| e.to_string())?;
        let symmetry = self.variant.default_symmetry();
        Position::from_setup_in(self.variant, &setup, symmetry).map_err(|e| e.to_string())
    }
}

/// One part of the guide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// A short name for links (`/learn#crossing`).
    pub id: &'static str,
    /// Its heading.
    pub title: &'static str,
    /// Its paragraphs.
    pub paragraphs: &'static [&'static str],
    /// Its example position, if it has one.
    pub example: Option<Example>,
}

/// The guide to the rules, in reading order.
pub const GUIDE: &[Section] = &[
    Section {
        id: "board",
        title: "The board and the pieces",
        paragraphs: &[
            "Epaminondas is played on a board 14 squares wide and 12 deep (smaller boards, such as \
             8x8, play the same way). Each player starts with two full rows of pieces on their own \
             side: White at the bottom, Black at the top. White moves first, then the players take \
             turns; passing is not allowed.",
            "The aim: get your pieces across the board onto the opponent's back row, the row they \
             started from, which is your goal row.",
        ],
        example: Some(Example {
            position: "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w",
            caption: "A 6x6 board at the start. Click one of White's pieces to see where it can go.",
            forbidden: None,
            variant: Variant::Epaminondas,
        }),
    },
    Section {
        id: "phalanx",
        title: "Phalanxes: how pieces move",
        paragraphs: &[
            "A phalanx is a straight line of your pieces with no gaps: along a row, a column or a \
             diagonal. A single piece is a phalanx of one.",
            "A phalanx moves along its own line, forwards or backwards, never sideways, as many \
             squares as it has pieces or fewer: a phalanx of three moves one, two or three squares. \
             You may also move just the front part of a line: the last two pieces of a line of \
             three, or the front one alone. A single piece moves one square in any of the eight \
             directions. The squares passed over must be empty.",
        ],
        example: Some(Example {
            position: "b4b/6/6/2w3/2w3/2w3 w",
            caption: "The column c1-c3 is a phalanx of three: it can go up one, two or three \
                      squares. c2-c3 can move as a pair, and c3 alone one square any way.",
            forbidden: None,
            variant: Variant::Epaminondas,
        }),
    },
    Section {
        id: "capture",
        title: "Capturing: bigger beats smaller",
        paragraphs: &[
            "A phalanx captures by moving onto an enemy piece along its line. Count the enemy \
             pieces in an unbroken line from that square onwards, in the direction of travel: if \
             they are fewer than the pieces moving, all of them are removed and the phalanx stops \
             on the first one's square. Equal numbers are not enough.",
            "A single piece can never capture, and capturing is never compulsory.",
        ],
        example: Some(Example {
            position: "6/bbb3/6/www1bb/6/6 w",
            caption: "a3,c3-e3 moves three pieces onto e3 and takes e3 and f3 (three beat two). \
                      The pair b3,c3 could not take them: two against two is not enough.",
            forbidden: None,
            variant: Variant::Epaminondas,
        }),
    },
    Section {
        id: "crossing",
        title: "Winning by crossing, and the one-move answer",
        paragraphs: &[
            "You win when, at the start of your turn, you have more pieces on your goal row (the \
             opponent's back row) than the opponent has on theirs. So reaching the goal row does \
             not win at once: the opponent gets one move to answer.",
            "The answer must be to capture the piece that crossed, or to cross as well so that \
             the counts are equal. A crossing the opponent cannot answer wins the game.",
            "A player who cannot move at all (for instance with no pieces left) loses. There are \
             no draws in the rules.",
        ],
        example: Some(Example {
            position: "4bb/4b1/6/w5/1w2w1/2b3 w",
            caption: "Black's piece has reached c1. If White does nothing about it, Black wins at \
                      the start of its next turn. White's only answer: a3,b2-c1, two pieces \
                      taking the intruder along the diagonal.",
            forbidden: None,
            variant: Variant::Epaminondas,
        }),
    },
    Section {
        id: "symmetry",
        title: "The symmetry rule",
        paragraphs: &[
            "A move that puts one of your pieces on your goal row is not allowed if it leaves the \
             board mirror-symmetric: every White piece facing a Black piece on the same column \
             and the same distance from the other side. Without this rule a player could copy \
             every move of the opponent and never lose.",
        ],
        example: Some(Example {
            position: "6/bbw3/6/6/ww4/2b3 w",
            caption: "Black has crossed at c1, and White must answer. c5-c6 would make the board \
                      symmetric (White on a2, b2, c6; Black on a5, b5, c1), so it is forbidden; \
                      c5-b6 or c5-d6 answers just as well.",
            forbidden: Some("c5-c6"),
            variant: Variant::Epaminondas,
        }),
    },
    Section {
        id: "crossings",
        title: "Variant: Crossings, the 1963 original",
        paragraphs: &[
            "Robert Abbott's Crossings, the game Epaminondas grew from, is played on 8x8 without \
             the symmetry rule. Phalanxes move as in Epaminondas and a capture is allowed in the \
             same cases, but it takes only the piece on the square the phalanx lands on.",
            "A piece that has reached its goal row is frozen: it can neither move nor be \
             captured, so the only answer to a crossing is another crossing. The same position \
             with the same player to move for the third time is a draw.",
        ],
        example: Some(Example {
            position: "6/2b3/2b3/2w3/2w3/2w3 w",
            caption: "c1,c3-c4 lands on c4 and takes that piece only: c5 stays, where \
                      Epaminondas would take both.",
            forbidden: None,
            variant: Variant::Crossings,
        }),
    },
    Section {
        id: "abanondas",
        title: "Variant: Abanondas, with sidesteps",
        paragraphs: &[
            "Abanondas is Epaminondas in which two or more pieces in a row may also step sideways \
             together, one square, onto empty squares: a row or a column in any of the six \
             directions off its own line, a diagonal line only up, down, left or right. A \
             sidestep never captures.",
            "It is written with the two ends of the pieces that step and the square the second \
             end steps onto: a2,b2-b3 moves a2 and b2 up to a3 and b3.",
        ],
        example: Some(Example {
            position: "b4b/6/6/6/ww4/6 w",
            caption: "The pair a2,b2 can step up (a2,b2-b3), down (a2,b2-b1) or slip diagonally \
                      (b2,a2-b3 moves a2 to b3 and b2 to c3), besides its usual moves along the \
                      row.",
            forbidden: None,
            variant: Variant::Abanondas,
        }),
    },
    Section {
        id: "stumbling-blocks",
        title: "Variant: Stumbling Blocks, three neutral stones",
        paragraphs: &[
            "Before any piece moves, White, Black and White each place a stone on an empty square \
             in the middle rows (ranks 4 to 9 on the 14x12 board); then Black moves first. \
             Stones belong to nobody, never move and are never captured.",
            "No phalanx can move onto or over a stone, and a stone ends a line: it is neither a \
             piece of your phalanx nor an enemy piece when the line behind a capture is counted.",
        ],
        example: Some(Example {
            position: "bbbbbb/bbbbbb/2s3/1s2s1/wwwwww/wwwwww w",
            caption: "The stones on b3 and e3 stand in front of the columns b1,b2 and e1,e2, \
                      which cannot move up; the one on c4 lets c1,c2 go up one square, not two.",
            forbidden: None,
            variant: Variant::StumblingBlocks,
        }),
    },
];

/// The guide as plain text, wrapped at `width` columns: each part's title,
/// then its paragraphs (without the example positions, which need a board).
pub fn plain_text(width: usize) -> String {
    let mut out = String::new();
    for (i, section) in GUIDE.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&section.title.to_uppercase());
        out.push('\n');
        for paragraph in section.paragraphs {
            for line in wrap(paragraph, width) {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}

/// Breaks `text` into lines of at most `width` columns at spaces (a word
/// longer than the width gets a line of its own).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(example: &Example) -> Position {
        example
            .position()
            .unwrap_or_else(|e| panic!("{}: {e}", example.position))
    }

    #[test]
    fn every_example_is_a_position_with_moves_to_try() {
        for section in GUIDE {
            if let Some(example) = &section.example {
                let pos = position(example);
                assert!(pos.outcome().is_none(), "{}", section.id);
                assert!(!pos.legal_moves().is_empty(), "{}", section.id);
            }
        }
    }

    #[test]
    fn the_examples_show_what_their_captions_say() {
        let by_id =
            |id: &str| position(&GUIDE.iter().find(|s| s.id == id).unwrap().example.unwrap());
        let legal = |pos: &Position| -> Vec<String> {
            pos.legal_moves().iter().map(|m| m.to_string()).collect()
        };
        let phalanx = legal(&by_id("phalanx"));
        for mv in ["c1,c3-c4", "c1,c3-c5", "c1,c3-c6", "c2,c3-c5", "c3-b4"] {
            assert!(phalanx.contains(&mv.to_string()), "{mv}: {phalanx:?}");
        }
        let capture = by_id("capture");
        let captures: Vec<String> = capture
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture())
            .map(|m| format!("{m}:{}", m.captures()))
            .collect();
        assert_eq!(captures, ["a3,c3-e3:2"]);
        let crossing = by_id("crossing");
        let answers: Vec<String> = crossing
            .legal_moves()
            .iter()
            .filter(|&&mv| {
                let mut after = crossing.clone();
                after.play(mv).unwrap();
                after.outcome().is_none()
            })
            .map(|m| m.to_string())
            .collect();
        assert_eq!(answers, ["a3,b2-c1"]);
        let symmetry = by_id("symmetry");
        let moves = legal(&symmetry);
        assert!(!moves.contains(&"c5-c6".to_string()), "{moves:?}");
        assert!(moves.contains(&"c5-b6".to_string()) && moves.contains(&"c5-d6".to_string()));
        let explained = symmetry.parse_move("c5-c6").unwrap_err().to_string();
        assert!(explained.contains("symmetr"), "{explained}");
        // Without the rule the move would be legal.
        let off = symmetry.with_symmetry(epaminondas_rules::Symmetry::Off);
        assert!(legal(&off).contains(&"c5-c6".to_string()));
        // The variants' examples, each in its own rules.
        let crossings = by_id("crossings");
        assert_eq!(crossings.variant(), Variant::Crossings);
        let take = crossings.parse_move("c1,c3-c4").unwrap();
        assert_eq!(take.captures(), 1);
        assert_eq!(
            crossings
                .with_variant(Variant::Epaminondas)
                .unwrap()
                .parse_move("c1,c3-c4")
                .map(|m| m.captures()),
            Ok(2)
        );
        let abanondas = by_id("abanondas");
        let moves = legal(&abanondas);
        for mv in ["a2,b2-b3", "a2,b2-b1", "a2,b2-c3", "a2,b2-d2"] {
            assert!(moves.contains(&mv.to_string()), "{mv}: {moves:?}");
        }
        let slip = abanondas.parse_move("b2,a2-b3").unwrap();
        assert_eq!(slip.to_string(), "a2,b2-c3");
        let stones = by_id("stumbling-blocks");
        assert_eq!(stones.stones().len(), 3);
        assert_eq!(stones.stones_to_place(), 0);
        let moves = legal(&stones);
        assert!(moves.contains(&"c1,c2-c3".to_string()), "{moves:?}");
        for blocked in ["c1,c2-c4", "b1,b2-b3", "b2-b3", "e1,e2-e3", "e2-e3"] {
            assert!(
                !moves.contains(&blocked.to_string()),
                "{blocked}: {moves:?}"
            );
        }
    }

    #[test]
    fn the_plain_text_keeps_every_word_within_the_width() {
        let text = plain_text(60);
        assert!(text.lines().all(|l| l.chars().count() <= 60), "{text}");
        assert!(text.contains("THE SYMMETRY RULE"));
        let words = |s: &str| s.split_whitespace().count();
        let expected: usize = GUIDE
            .iter()
            .map(|s| words(s.title) + s.paragraphs.iter().map(|p| words(p)).sum::<usize>())
            .sum();
        assert_eq!(words(&text), expected);
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdef g", 3), ["abcdef", "g"]);
    }
}
