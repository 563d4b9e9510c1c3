//! The examples of the source documents (RULES.md section 6), replayed move by move.

use epaminondas_rules::{Color, GameRecord, GameResult, Outcome, Position, Symmetry, WinReason};

fn play_all(pos: &mut Position, moves: &[&str]) {
    for text in moves {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {pos}: {e}"));
        assert_eq!(mv.to_string(), *text, "canonical form");
        pos.play(mv).unwrap();
    }
}

/// seeds/002: three opening moves from the standard start.
#[test]
fn seeds_002_opening() {
    let mut pos = Position::standard();
    play_all(&mut pos, &["f1,g2-h3", "e12,f11-h9", "h1,h3-h6"]);
    assert_eq!(pos.turn(), Color::Black);
    for (square, color) in [
        ("g2", Some(Color::White)),
        ("h3", None),
        ("h4", Some(Color::White)),
        ("h9", Some(Color::Black)),
        ("h6", Some(Color::White)),
        ("h1", None),
        ("f1", None),
        ("e12", None),
    ] {
        assert_eq!(pos.piece_at(square.parse().unwrap()), color, "{square}");
    }
}

/// seeds/002's capture example: a black column of four (h12 down to h9)
/// moves three squares down onto the head of a white column of three.
#[test]
fn seeds_002_capture_of_a_column_of_three() {
    // Black h12..h9; white h6, h5, h4 (a column of three below h7 and h8).
    let mut pos: Position = "7b6/7b6/7b6/7b6/14/14/7w6/7w6/7w6/14/14/14 b"
        .parse()
        .unwrap();
    play_all(&mut pos, &["h12,h9-h6"]);
    assert_eq!(pos.count(Color::White), 0);
    assert_eq!(pos.count(Color::Black), 4);
    // With four white pieces the same move is refused.
    let pos: Position = "7b6/7b6/7b6/7b6/14/14/7w6/7w6/7w6/7w6/14/14 b"
        .parse()
        .unwrap();
    assert!(pos.parse_move("h12,h9-h6").is_err());
}

/// seeds/004: the 6x5 game where Eks (Black) wins.
#[test]
fn seeds_004_game_and_result() {
    let mut pos: Position = "bbb3/2b3/4w1/1wb1w1/w3w1 w".parse().unwrap();
    assert_eq!(pos.size().to_string(), "6x5");
    play_all(&mut pos, &["e1,e3-e5"]);
    // White has crossed: Black must answer but has not lost yet.
    assert_eq!(
        (pos.goal_count(Color::White), pos.goal_count(Color::Black)),
        (1, 0)
    );
    assert_eq!(pos.outcome(), None);
    play_all(&mut pos, &["c2-d1", "e4-d5"]);
    assert_eq!(
        (pos.goal_count(Color::White), pos.goal_count(Color::Black)),
        (2, 1)
    );
    assert_eq!(pos.outcome(), None);
    let capture = pos.parse_move("a5,c5-d5").unwrap();
    assert_eq!(capture.captures(), 2);
    pos.play(capture).unwrap();
    assert_eq!(pos.to_string(), "1bbb2/2b3/4w1/1w4/w2b2 w");
    // Every White reply leaves Black winning at the start of its turn.
    let replies = pos.legal_moves();
    assert!(!replies.is_empty());
    for &reply in &replies {
        let mut after = pos.clone();
        after.play(reply).unwrap();
        assert_eq!(
            after.outcome(),
            Some(Outcome {
                winner: Color::Black,
                reason: WinReason::Crossing
            }),
            "after {reply}"
        );
        assert!(after.legal_moves().is_empty());
    }
}

/// The same game as a record, with its final result.
#[test]
fn seeds_004_as_a_record() {
    let text = "[White \"Ohs\"]\n[Black \"Eks\"]\n[Result \"0-1\"]\n[Board \"6x5\"]\n\
        [Symmetry \"mirror\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n\
        1. e1,e3-e5 c2-d1 2. e4-d5 a5,c5-d5:2 3. a1-a2 0-1\n";
    let record: GameRecord = text.parse().unwrap();
    assert_eq!(record.result(), GameResult::BlackWins);
    assert_eq!(
        record.position().outcome().map(|o| o.winner),
        Some(Color::Black)
    );
    assert_eq!(record.to_string(), text);
    // Claiming a White win contradicts the rules.
    assert!(text.replace("0-1", "1-0").parse::<GameRecord>().is_err());
}

/// seeds/004's one-line capture diagrams: a black line of three (x) moving
/// west along a rank towards white pieces (o).
#[test]
fn seeds_004_capture_diagrams() {
    // Each case: the rank before, and the rank after Black's longest move west
    // by the three-piece line.
    let cases = [
        // The ohs are out of range.
        (".oo...xxx.", "g2,i2-d2", ".ooxxx...."),
        // These ohs can be captured.
        ("..oo..xxx.", "g2,i2-d2", "...xxx...."),
        // Equal in length: not captured; the line can only advance one square.
        ("..ooo.xxx.", "g2,i2-f2", "..oooxxx.."),
        // Only the first line of ohs is captured.
        (".oo.ooxxx.", "g2,i2-f2", ".oo..xxx.."),
    ];
    let to_rank = |row: &str| {
        let mut text = String::new();
        let mut gap = 0;
        for c in row.chars() {
            if c == '.' {
                gap += 1;
                continue;
            }
            if gap > 0 {
                text += &gap.to_string();
                gap = 0;
            }
            text.push(if c == 'o' { 'w' } else { 'b' });
        }
        if gap > 0 {
            text += &gap.to_string();
        }
        text
    };
    for (before, mv, after) in cases {
        let text = format!("10/10/{}/10 b", to_rank(before));
        let mut pos: Position = text.parse().unwrap();
        // Written with the tail first: the line moves west, so its head is g2.
        let mv = pos
            .parse_move(mv)
            .unwrap_or_else(|e| panic!("{mv} in {before}: {e}"));
        // The move is the longest westward move of the full line.
        let longest = pos
            .legal_moves()
            .iter()
            .filter(|m| {
                m.tail().to_string() == "i2" && m.group_size() == 3 && m.head().to_string() == "g2"
            })
            .map(|m| m.distance())
            .max();
        assert_eq!(longest, Some(mv.distance()), "{before}");
        pos.play(mv).unwrap();
        assert_eq!(
            pos.to_string(),
            format!("10/10/{}/10 w", to_rank(after)),
            "{before}"
        );
    }
}

/// seeds/000 figure 3: a white line of four captures a single black piece at
/// distance three (the black pieces behind it, across a gap, give no
/// defence), and a line of three black pieces.
#[test]
fn seeds_000_figure_3() {
    // White c1..c4; black c7, then a gap at c8, then c9..c11.
    let mut pos: Position = "8/2b5/2b5/2b5/8/2b5/8/8/2w5/2w5/2w5/2w5 w".parse().unwrap();
    let mv = pos.parse_move("c1,c4-c7").unwrap();
    assert_eq!(mv.captures(), 1);
    pos.play(mv).unwrap();
    assert_eq!(pos.count(Color::Black), 3);
    assert_eq!(pos.piece_at("c7".parse().unwrap()), Some(Color::White));

    // White c1..c4; black c7..c9: three captured by four.
    let mut pos: Position = "8/8/8/2b5/2b5/2b5/8/8/2w5/2w5/2w5/2w5 w".parse().unwrap();
    let mv = pos.parse_move("c1,c4-c7:3").unwrap();
    pos.play(mv).unwrap();
    assert_eq!(pos.count(Color::Black), 0);
    // A line of three cannot take three.
    let pos: Position = "8/8/8/2b5/2b5/2b5/8/8/2w5/2w5/2w5/8 w".parse().unwrap();
    assert!(pos.parse_move("c2,c4-c7").is_err());
}

/// The symmetry option travels with the position and the record.
#[test]
fn symmetry_option_is_kept() {
    let pos = Position::standard().with_symmetry(Symmetry::File);
    let record = GameRecord::new(pos);
    assert_eq!(record.tag("Symmetry"), Some("file"));
    let again: GameRecord = record.to_string().parse().unwrap();
    assert_eq!(again.start().symmetry(), Symmetry::File);
}
