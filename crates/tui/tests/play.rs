//! The terminal game driven through its key events, checked on the screen
//! ratatui draws (its test backend).

use std::path::PathBuf;
use std::time::Duration;

use epaminondas_engine::Level;
use epaminondas_rules::{BoardSize, Color, GameRecord, Position, Symmetry};
use epaminondas_tui::{App, Options, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

fn new_game(files: u8, ranks: u8, ai: Option<u8>) -> App {
    let size = BoardSize::new(files, ranks).unwrap();
    App::new(Options {
        ai: ai.and_then(Level::new),
        human: Color::White,
        record: GameRecord::new(Position::new(size, Symmetry::Mirror)),
        save_path: std::env::temp_dir().join("epaminondas-tui-test-default.txt"),
        theme: Default::default(),
    })
}

fn screen_of(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| view::draw(frame, app)).unwrap();
    view::buffer_text(terminal.backend().buffer())
}

fn screen(app: &App) -> String {
    screen_of(app, 80, 24)
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::from(code));
}

/// The board part of the screen: the rows down to its bottom border.
fn board_rows(text: &str) -> String {
    let rows: Vec<&str> = text.lines().collect();
    let end = rows
        .iter()
        .position(|l| l.starts_with('└'))
        .expect("a board");
    rows[..=end].join("\n")
}

#[test]
fn a_short_game_on_a_small_board_is_played_to_the_end() {
    let mut app = new_game(5, 5, None);
    let start = screen(&app);
    assert!(start.contains("White (o) to move"), "{start}");
    assert!(start.contains("two players"), "{start}");
    assert!(start.contains(" a   b   c   d   e "), "{start}");

    // White picks b2 with the keyboard: the cursor starts on a1.
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    let picked = app.selection().expect("b2 is picked");
    assert_eq!(picked.piece.to_string(), "b2");
    // b2-b3 and b1,b2-b3 both land on b3; Tab goes through every move.
    let moves: Vec<String> = picked.moves.iter().map(ToString::to_string).collect();
    assert!(moves.contains(&"b2-b3".to_owned()) && moves.contains(&"b1,b2-b3".to_owned()));
    let shown = screen(&app);
    assert!(shown.contains("Picked b2: move 1 of"), "{shown}");
    press(&mut app, KeyCode::Up);
    assert_eq!(app.selection().unwrap().current().to_string(), "b2-b3");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.selection().unwrap().current().to_string(), "b1,b2-b3");
    press(&mut app, KeyCode::BackTab);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.record().moves().len(), 1);

    // The rest typed, in any accepted form.
    app.type_line("C4-D3");
    app.type_line("a2.b3 - d5");
    let threat = screen(&app);
    assert!(threat.contains("goal rank: o 1 x 0"), "{threat}");
    assert!(threat.contains("1. b2-b3"), "{threat}");
    assert!(threat.contains("2. a2,b3-d5:1"), "{threat}");
    app.type_line("a4-b3");
    let end = screen(&app);
    assert!(
        end.contains("GAME OVER: White (o) wins by crossing: 1 on the goal rank against 0"),
        "{end}"
    );
    // No move is taken after the end.
    app.type_line("b3-b4");
    assert_eq!(app.record().moves().len(), 4);
    assert!(screen(&app).contains("The game is over"));
}

#[test]
fn an_illegal_or_malformed_move_gets_a_reason_and_changes_nothing() {
    let mut app = new_game(8, 8, None);
    let before = screen(&app);
    app.type_line("a1-a5");
    let after = screen(&app);
    assert_eq!(board_rows(&before), board_rows(&after));
    assert!(app.record().moves().is_empty());
    assert!(
        after.contains("'a1-a5': a1-a5 is illegal: a group of 2 can move at most 2 squares"),
        "{after}"
    );
    app.type_line("zz9");
    let after = screen(&app);
    assert!(after.contains("'zz9': "), "{after}");
    assert_eq!(board_rows(&before), board_rows(&after));
    // Picking an empty square or an enemy piece is refused too.
    for _ in 0..4 {
        press(&mut app, KeyCode::Up);
    }
    press(&mut app, KeyCode::Enter);
    assert!(app.selection().is_none());
    assert!(screen(&app).contains("holds none of your pieces"));
    assert_eq!(board_rows(&before), board_rows(&screen(&app)));
}

#[test]
fn undo_against_the_engine_takes_back_the_pair() {
    let mut app = new_game(8, 8, Some(1));
    let start = screen(&app);
    assert!(start.contains("you vs engine level 1"), "{start}");
    app.type_line("d2-d3");
    app.settle(Duration::from_secs(30));
    assert_eq!(app.record().moves().len(), 2, "the engine answered");
    let reply = app.record().moves()[1].to_string();
    let during = screen(&app);
    assert!(during.contains("1. d2-d3"), "{during}");
    assert!(during.contains(&reply), "{during}");
    app.type_line("undo");
    assert!(app.record().moves().is_empty());
    let after = screen(&app);
    assert!(after.contains("Took back 2 moves"), "{after}");
    assert!(!after.contains("d2-d3"), "{after}");
    assert_eq!(board_rows(&start), board_rows(&after));
    // Nothing left to take back.
    app.type_line("undo");
    assert!(screen(&app).contains("There is no move of yours to take back"));
}

#[test]
fn save_writes_a_record_that_reads_back_and_quit_asks_first() {
    let mut app = new_game(6, 6, None);
    app.type_line("c2-c3");
    app.type_line("d5-d4");
    // Quitting an unsaved game asks; anything but y keeps playing.
    app.type_line("quit");
    assert!(app.confirming_quit());
    assert!(screen(&app).contains("The game is not saved. Quit anyway?"));
    press(&mut app, KeyCode::Char('n'));
    assert!(!app.should_quit());
    let path: PathBuf =
        std::env::temp_dir().join(format!("epaminondas-tui-{}.txt", std::process::id()));
    app.type_line(&format!("save {}", path.display()));
    assert!(screen(&app).contains("Saved to"), "{}", screen(&app));
    let record: GameRecord = std::fs::read_to_string(&path).unwrap().parse().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(record.moves(), app.record().moves());
    assert_eq!(record.tag("Board"), Some("6x6"));
    assert_eq!(record.tag("White"), Some("Player 1"));
    assert_eq!(record.tag("PlyCount"), Some("2"));
    assert_eq!(record.tag("TimeControl"), Some("-"));
    let date = record.tag("Date").unwrap();
    assert!(date.len() == 10 && !date.contains('?'), "{date}");
    // Saved: quit goes at once.
    app.type_line("quit");
    assert!(app.should_quit());
}

#[test]
fn a_save_that_fails_says_why_and_keeps_the_game() {
    let mut app = new_game(6, 6, None);
    app.type_line("c2-c3");
    app.type_line("save /nonexistent-dir/game.txt");
    let text = screen(&app);
    assert!(
        text.contains("Cannot save to /nonexistent-dir/game.txt"),
        "{text}"
    );
    press(&mut app, KeyCode::Char('c'));
    app.type_line("");
    assert_eq!(app.record().moves().len(), 1);
}

#[test]
fn resigning_ends_the_game_plainly() {
    let mut app = new_game(6, 6, Some(1));
    app.type_line("resign");
    // It asks first; anything but y keeps the game going.
    assert!(screen(&app).contains("Resign this game? (y/n)"));
    press(&mut app, KeyCode::Char('n'));
    assert!(app.ending().is_none());
    app.type_line("resign");
    press(&mut app, KeyCode::Char('y'));
    let text = screen(&app);
    assert!(
        text.contains("GAME OVER: Black (x) wins: White (o) resigned"),
        "{text}"
    );
    assert_eq!(app.record().result().to_string(), "0-1");
}

#[test]
fn the_board_flips_and_help_shows_the_commands() {
    let mut app = new_game(8, 8, None);
    let white_view = screen(&app);
    assert!(
        white_view.lines().nth(2).unwrap().contains(" 8 "),
        "{white_view}"
    );
    app.type_line("flip");
    let black_view = screen(&app);
    assert!(
        black_view.lines().nth(2).unwrap().starts_with("│ 1 "),
        "{black_view}"
    );
    assert!(
        black_view.lines().nth(1).unwrap().contains("h   g   f"),
        "{black_view}"
    );
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&app);
    for word in [
        "undo",
        "hint",
        "flip",
        "save [FILE]",
        "resign",
        "quit",
        "Tab/Shift-Tab",
    ] {
        assert!(help.contains(word), "{word} missing from help:\n{help}");
    }
    press(&mut app, KeyCode::Esc);
    assert!(!app.showing_help());
}

#[test]
fn the_engine_gives_a_hint() {
    let mut app = new_game(6, 6, Some(3));
    app.type_line("hint");
    app.settle(Duration::from_secs(30));
    let hint = app.hint().expect("a hint");
    assert!(app.position().is_legal(hint));
    assert!(screen(&app).contains(&format!("Hint: {hint}")));
    // Playing it is a move like any other, and the engine answers.
    app.type_line(&hint.to_string());
    app.settle(Duration::from_secs(30));
    assert_eq!(app.record().moves().len(), 2);
}

#[test]
fn the_screen_adapts_to_the_terminal_and_the_board() {
    let app = new_game(14, 12, None);
    // 80x24 fits the standard board.
    let standard = screen(&app);
    assert!(
        standard.contains("12") && standard.contains(" n "),
        "{standard}"
    );
    // Too small: a message saying how large it must be.
    let small = screen_of(&app, 40, 12);
    assert!(small.contains("needs at least"), "{small}");
    // A large board in a large terminal, with wider squares when they fit.
    let big = new_game(26, 26, None);
    let text = screen_of(&big, 160, 40);
    assert!(text.contains("26") && text.contains(" z "), "{text}");
    // Without room for the move list the board still shows.
    let no_list = screen_of(&big, 70, 40);
    assert!(
        no_list.contains(" z ") && !no_list.contains("Moves"),
        "{no_list}"
    );
    let narrow = screen_of(&big, 50, 40);
    assert!(narrow.contains("60x35"), "{narrow}");
}

#[test]
fn long_moves_are_listed_whole_at_80_columns() {
    let start: Position = "14/11bbb/www11/14/14/14/14/14/14/14/14/14 w"
        .parse()
        .unwrap();
    let mut app = App::new(Options {
        ai: None,
        human: Color::White,
        record: GameRecord::new(start),
        save_path: std::env::temp_dir().join("epaminondas-tui-test-long.txt"),
        theme: Default::default(),
    });
    app.type_line("a10,c10-f10");
    app.type_line("n11,l11-i11");
    assert_eq!(app.record().moves().len(), 2, "{}", screen(&app));
    let shown = screen(&app);
    // The move list is the panel right of the board.
    let listed: Vec<&str> = shown
        .lines()
        .filter_map(|line| {
            line.split_once("││")
                .map(|(_, right)| right.trim_end_matches('│'))
        })
        .flat_map(str::split_whitespace)
        .collect();
    for text in ["a10,c10-f10", "n11,l11-i11"] {
        assert!(listed.contains(&text), "{text} whole in the list:\n{shown}");
    }
}

/// The move the message names, if it names one that Enter plays.
fn named_move(app: &App) -> Option<String> {
    match app.message() {
        epaminondas_tui::app::Message::Info(text) if text.ends_with("(Enter plays it)") => text
            .split(": ")
            .nth(1)
            .map(|rest| rest.trim_end_matches(" (Enter plays it)").to_owned()),
        _ => None,
    }
}

#[test]
fn the_message_always_names_the_move_enter_plays() {
    let mut app = new_game(5, 5, None);
    // Pick b2 (the cursor starts on a1).
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    // Walk to the destinations with the arrows and Tab: whenever the
    // message names a move, it is the one Enter would play.
    for code in [
        KeyCode::Up,
        KeyCode::Tab,
        KeyCode::Up,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::BackTab,
        KeyCode::Left,
    ] {
        press(&mut app, code);
        let selection = app.selection().expect("still picked");
        let current = selection.current();
        let enter_plays = app.cursor() == current.destination() || app.cursor() == selection.piece;
        let named = named_move(&app);
        if enter_plays {
            assert_eq!(
                named,
                Some(current.with_capture_mark().to_string()),
                "after {code:?}"
            );
        } else {
            assert_eq!(named, None, "after {code:?}: {:?}", app.message());
        }
    }
    // Tab shows a move: Enter plays exactly the move the message names.
    press(&mut app, KeyCode::Tab);
    let named = named_move(&app).expect("Tab shows a move");
    press(&mut app, KeyCode::Enter);
    let played = app
        .record()
        .moves()
        .last()
        .map(|m| m.with_capture_mark().to_string());
    assert_eq!(played, Some(named));

    // Esc drops a selection and the message about it.
    let mut app = new_game(5, 5, None);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Tab); // picks b2
    press(&mut app, KeyCode::Tab); // shows its second move
    assert!(named_move(&app).is_some());
    press(&mut app, KeyCode::Esc);
    assert!(app.selection().is_none());
    assert_eq!(app.message(), &epaminondas_tui::app::Message::None);
}

#[test]
fn undo_after_resigning_reopens_the_game_in_the_record_too() {
    let mut app = new_game(6, 6, None);
    app.type_line("a2-a3");
    app.type_line("resign");
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.record().tag("Termination"), Some("resignation"));
    app.type_line("undo");
    let record = app.record().to_string();
    assert!(record.contains("[Result \"*\"]"), "{record}");
    assert!(!record.contains("Termination"), "{record}");
}

fn ctrl_c(app: &mut App) {
    use ratatui::crossterm::event::KeyModifiers;
    app.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
}

#[test]
fn a_second_ctrl_c_quits_an_unsaved_game() {
    let mut app = new_game(6, 6, None);
    app.type_line("a2-a3");
    ctrl_c(&mut app);
    assert!(app.confirming_quit() && !app.should_quit());
    ctrl_c(&mut app);
    assert!(app.should_quit());
}

#[test]
fn a_crossing_is_announced_to_the_player_who_must_answer_it() {
    // 5x5: White crosses at c5; Black must capture or cross at once.
    let start: Position = "bb3/2w2/5/5/4w w".parse().unwrap();
    let mut app = App::new(Options {
        ai: None,
        human: Color::White,
        record: GameRecord::new(start),
        save_path: std::env::temp_dir().join("epaminondas-tui-test-warning.txt"),
        theme: Default::default(),
    });
    assert_eq!(app.warning(), None);
    app.type_line("c4-c5");
    let text = screen(&app);
    assert!(
        text.contains(
            "White (o) has crossed (1 against 0): capture on your home rank or cross too"
        ),
        "{text}"
    );
}

#[test]
fn looking_back_through_the_game_changes_nothing() {
    let mut app = new_game(6, 6, None);
    for mv in ["a2-a3", "a5-a4", "b2-b3"] {
        app.type_line(mv);
    }
    let now = board_rows(&screen(&app));
    press(&mut app, KeyCode::PageUp);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(app.viewing(), Some(1));
    let back = screen(&app);
    assert!(back.contains(" Move 1 of 3 (End: now) "), "{back}");
    assert_ne!(board_rows(&back), now);
    // No move while looking back.
    app.type_line("c2-c3");
    assert_eq!(app.record().moves().len(), 3);
    assert!(
        screen(&app).contains("End goes back to it"),
        "{}",
        screen(&app)
    );
    press(&mut app, KeyCode::Home);
    assert_eq!(app.viewing(), Some(0));
    press(&mut app, KeyCode::PageDown);
    assert_eq!(app.viewing(), Some(1));
    press(&mut app, KeyCode::End);
    assert_eq!(app.viewing(), None);
    assert_eq!(board_rows(&screen(&app)), now);
    app.type_line("c5-c4");
    assert_eq!(app.record().moves().len(), 4);
}

#[test]
fn new_games_rematches_and_levels() {
    let mut app = new_game(6, 6, Some(1));
    app.type_line("a2-a3");
    app.settle(Duration::from_secs(10));
    assert_eq!(app.record().moves().len(), 2);
    // A rematch with the game unsaved asks first, then swaps the sides.
    app.type_line("rematch");
    assert!(screen(&app).contains("Leave it for a new one? (y/n"));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.human(), Color::Black);
    assert!(app.flipped());
    app.settle(Duration::from_secs(10));
    assert_eq!(app.record().moves().len(), 1, "the engine opens as White");
    // The level changes for the engine's next move.
    app.type_line("level 4");
    assert_eq!(app.ai().map(Level::get), Some(4));
    assert!(screen(&app).contains("The engine now plays at level 4"));
    app.type_line("level 11");
    assert!(screen(&app).contains("give a level from 1 (weakest) to 10"));
    // new keeps the sides.
    app.type_line("new");
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.human(), Color::Black);
    let two = new_game(6, 6, None);
    let mut two = two;
    two.type_line("level 3");
    assert!(screen(&two).contains("there is no engine to set a level for"));
}

#[test]
fn the_hint_comes_with_the_engine_s_evaluation() {
    let mut app = new_game(5, 5, Some(1));
    app.type_line("hint");
    app.settle(Duration::from_secs(10));
    let text = screen(&app);
    assert!(
        text.contains("Hint: ") && text.contains(" for you)"),
        "{text}"
    );
}

#[test]
fn help_has_the_rules_on_its_second_page() {
    let mut app = new_game(8, 8, None);
    press(&mut app, KeyCode::Char('?'));
    let first = screen_of(&app, 100, 40);
    assert!(first.contains("Help: keys and commands"), "{first}");
    press(&mut app, KeyCode::Tab);
    // On a terminal of 24 lines the rules need scrolling.
    let rules = screen_of(&app, 100, 24);
    assert!(rules.contains("The rules of Epaminondas"), "{rules}");
    // The site's guide, word for word: its first part at the top...
    assert!(rules.contains("THE BOARD AND THE PIECES"), "{rules}");
    assert!(!rules.contains("THE SYMMETRY RULE"), "{rules}");
    // ... then the symmetry rule and, at the end, the variants' parts.
    let mut seen_symmetry = false;
    for _ in 0..12 {
        press(&mut app, KeyCode::PageDown);
        seen_symmetry |= screen_of(&app, 100, 24).contains("copy every move");
    }
    assert!(seen_symmetry, "the symmetry rule is on the way down");
    let end = screen_of(&app, 100, 24);
    assert!(end.contains("VARIANT: STUMBLING BLOCKS"), "{end}");
    assert!(
        end.contains("Esc: close"),
        "the scroll stops at the end: {end}"
    );
    press(&mut app, KeyCode::Esc);
    assert!(!app.showing_help());
}

#[test]
fn the_plain_theme_uses_no_colour() {
    use epaminondas_tui::view::Theme;
    use ratatui::style::Color as Paint;
    assert_eq!(
        Theme::choose(Some("light"), true),
        Ok(Theme::Plain),
        "NO_COLOR wins"
    );
    assert_eq!(Theme::choose(Some("light"), false), Ok(Theme::Light));
    assert!(Theme::choose(Some("pink"), false).is_err());
    let mut app = App::new(Options {
        ai: None,
        human: Color::White,
        record: GameRecord::new(Position::new(
            BoardSize::new(6, 6).unwrap(),
            Symmetry::Mirror,
        )),
        save_path: std::env::temp_dir().join("epaminondas-tui-test-plain.txt"),
        theme: Theme::Plain,
    });
    app.type_line("a2-a3");
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| view::draw(frame, &app)).unwrap();
    let buffer = terminal.backend().buffer();
    for cell in buffer.content() {
        assert_eq!(cell.fg, Paint::Reset, "{:?}", cell);
        assert_eq!(cell.bg, Paint::Reset, "{:?}", cell);
    }
}
