//! The game as the terminal player sees it: the record, whose turn it is,
//! the cursor and selection, the input line and the last message. Key
//! presses go in through [`App::handle_key`]; [`App::tick`] lets the engine
//! move; [`crate::view`] draws it. Every rule question goes to the rules
//! library.

use std::path::PathBuf;
use std::time::Duration;

use epaminondas_engine::Level;
use epaminondas_rules::diagram::side_label;
use epaminondas_rules::{Color, GameRecord, GameResult, Move, Position, Square, WinReason};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::thinker::{Purpose, Thinker};
use crate::view::Theme;

/// How a game is set up.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine's strength, if it plays; two people share the keyboard otherwise.
    pub ai: Option<Level>,
    /// The side the person plays against the engine.
    pub human: Color,
    /// The game to continue: a new one from its start position, or a loaded record.
    pub record: GameRecord,
    /// Where `save` writes when it is not given a file.
    pub save_path: PathBuf,
    /// The colours.
    pub theme: Theme,
}

/// A question waiting for y or n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Quit with the game unsaved.
    Quit,
    /// Resign the game.
    Resign,
    /// Leave this game for a new one (with sides swapped for a rematch).
    NewGame {
        /// Whether the person takes the other side.
        swap: bool,
    },
}

/// A one-line message under the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Nothing to say.
    None,
    /// Information.
    Info(String),
    /// Something was refused; the game is unchanged.
    Error(String),
}

/// A piece picked with the cursor, and the moves it can take part in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The picked piece.
    pub piece: Square,
    /// Every legal move whose group includes the piece.
    pub moves: Vec<Move>,
    /// The move now shown; Enter plays it.
    pub index: usize,
}

impl Selection {
    /// The move Enter would play.
    pub fn current(&self) -> Move {
        self.moves[self.index]
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules decided it.
    Rules {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// A side resigned.
    Resigned(Color),
}

/// The squares of a move's group before and after it, and those it captured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSquares {
    /// Where the group stood.
    pub from: Vec<Square>,
    /// Where the group stands after the move.
    pub to: Vec<Square>,
    /// Where the captured pieces stood.
    pub captured: Vec<Square>,
}

impl MoveSquares {
    /// The squares of `mv`.
    pub fn of(mv: Move) -> MoveSquares {
        MoveSquares {
            from: mv.group_squares().collect(),
            to: mv.landing_squares().collect(),
            captured: mv.captured_squares().collect(),
        }
    }

    /// The squares of the group in `mv` (before it moves).
    pub fn group(mv: Move) -> Vec<Square> {
        MoveSquares::of(mv).from
    }
}

/// The terminal game.
pub struct App {
    record: GameRecord,
    ai: Option<Level>,
    human: Color,
    thinker: Thinker,
    flipped: bool,
    cursor: Square,
    selection: Option<Selection>,
    input: String,
    message: Message,
    hint: Option<Move>,
    resigned: Option<Color>,
    /// Moves were made (or taken back) since the game was last saved or loaded.
    dirty: bool,
    confirm: Option<Confirm>,
    /// The help's page (0 keys and commands, 1 the rules), when shown.
    help: Option<usize>,
    /// How many lines the help is scrolled down.
    help_scroll: u16,
    quit: bool,
    save_path: PathBuf,
    /// The number of moves shown while looking back through the game.
    viewing: Option<usize>,
    theme: Theme,
}

/// The commands typed on the input line, with what they do (for `help`).
pub const COMMANDS: [(&str, &str); 11] = [
    ("undo", "take back your last move (and the engine's reply)"),
    ("hint", "ask the engine for a move and its evaluation"),
    ("flip", "turn the board round"),
    (
        "level N",
        "the engine plays at level N (1 to 10) from now on",
    ),
    ("save [FILE]", "save the game as a record"),
    ("resign", "give up the game (asks first)"),
    ("new", "start a new game with the same settings"),
    ("rematch", "a new game with the sides swapped"),
    ("quit", "leave (asks first if the game is not saved)"),
    ("help", "show or hide this help (Tab for the rules)"),
    ("MOVE", "play a move: e1,e3-e5, c2-d1, a5-d5, a5xd5:2 ..."),
];

/// The keys, for `help` and the footer.
pub const KEYS: [(&str, &str); 8] = [
    ("arrows", "move the cursor"),
    (
        "Enter/Space",
        "pick the piece under the cursor, then play the shown move",
    ),
    ("Tab/Shift-Tab", "cycle through the picked piece's moves"),
    (
        "PgUp/PgDn",
        "step back and forward through the game (the game waits)",
    ),
    ("Home/End", "the game's start / back to the present"),
    ("Esc", "drop the selection or clear the input"),
    (
        "?",
        "help (on an empty input line); Tab there shows the rules",
    ),
    ("Ctrl-C", "quit (twice when the game is not saved)"),
];

impl App {
    /// A game set up by `options`.
    pub fn new(options: Options) -> App {
        let pos = options.record.position().clone();
        let human = options.human;
        let cursor = first_piece(&pos, human);
        let mut app = App {
            record: options.record,
            ai: options.ai,
            human,
            thinker: Thinker::new(),
            flipped: options.ai.is_some() && human == Color::Black,
            cursor,
            selection: None,
            input: String::new(),
            message: Message::Info(
                "Type a move or pick a piece with the arrows; ? for help".into(),
            ),
            hint: None,
            resigned: None,
            dirty: false,
            confirm: None,
            help: None,
            help_scroll: 0,
            quit: false,
            save_path: options.save_path,
            viewing: None,
            theme: options.theme,
        };
        app.name_players();
        app
    }

    /// Fills the tags a new game lacks: the players (the person by their
    /// login name, the engine by its level), today's date and the time
    /// control (none). A loaded record keeps its own.
    fn name_players(&mut self) {
        let person = std::env::var("USER")
            .or_else(|_| std::env::var("USERNAME"))
            .ok()
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| "Player".to_owned());
        let (white, black) = match self.ai {
            Some(level) => {
                let engine = format!("Epaminondas engine, level {}", level.get());
                match self.human {
                    Color::White => (person, engine),
                    Color::Black => (engine, person),
                }
            }
            None => ("Player 1".to_owned(), "Player 2".to_owned()),
        };
        let today = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        for (tag, value) in [
            ("White", white),
            ("Black", black),
            ("Date", epaminondas_rules::pgn_date(today)),
            ("TimeControl", "-".to_owned()),
        ] {
            if self.record.tag(tag).is_none_or(|v| v.contains('?')) {
                // The values are plain text: this cannot fail.
                let _ = self.record.set_tag(tag, &value);
            }
        }
    }

    /// The game so far.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.record.position()
    }

    /// Whether the board is drawn from Black's side.
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// The cursor's square.
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// The picked piece and its moves.
    pub fn selection(&self) -> Option<&Selection> {
        self.selection.as_ref()
    }

    /// The text typed so far.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The last message.
    pub fn message(&self) -> &Message {
        &self.message
    }

    /// The engine's last suggestion, while it still applies.
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    /// Whether the help is shown.
    pub fn showing_help(&self) -> bool {
        self.help.is_some()
    }

    /// The help page shown: 0 the keys and commands, 1 the rules.
    pub fn help_page(&self) -> Option<usize> {
        self.help
    }

    /// How many lines the help is scrolled down (the view stops it at the
    /// end of the text).
    pub fn help_scroll(&self) -> u16 {
        self.help_scroll
    }

    /// Whether quitting waits for a yes or no.
    pub fn confirming_quit(&self) -> bool {
        self.confirm == Some(Confirm::Quit)
    }

    /// The question waiting for y or n, if any.
    pub fn confirming(&self) -> Option<Confirm> {
        self.confirm
    }

    /// The colours.
    pub fn theme(&self) -> Theme {
        self.theme
    }

    /// The number of moves shown while looking back through the game
    /// (`None`: the present).
    pub fn viewing(&self) -> Option<usize> {
        self.viewing
    }

    /// The position on the board: the present, or an earlier one while
    /// looking back.
    pub fn shown_position(&self) -> Position {
        match self.viewing {
            Some(plies) => self.record.position_after(plies),
            None => self.position().clone(),
        }
    }

    /// The last move of the shown position, if any.
    pub fn shown_last_move(&self) -> Option<Move> {
        let plies = self.viewing.unwrap_or(self.record.moves().len());
        plies.checked_sub(1).map(|i| self.record.moves()[i])
    }

    /// A warning for the player to move when the opponent has crossed:
    /// only a capture of the intruder or a crossing saves the game.
    pub fn warning(&self) -> Option<String> {
        let pos = self.position();
        if self.ending().is_some() || self.engine_to_move() || !pos.in_check() {
            return None;
        }
        let (us, them) = (pos.turn(), !pos.turn());
        Some(format!(
            "{} has crossed ({} against {}): capture on your home rank or cross too, or you lose",
            side_label(them),
            pos.goal_count(them),
            pos.goal_count(us)
        ))
    }

    /// Whether the program should end.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The engine's level, if it plays.
    pub fn ai(&self) -> Option<Level> {
        self.ai
    }

    /// The side the person plays against the engine.
    pub fn human(&self) -> Color {
        self.human
    }

    /// What the engine is doing, and for how long.
    pub fn thinking(&self) -> Option<(Purpose, Duration)> {
        self.thinker.busy()
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        if let Some(outcome) = self.position().outcome() {
            return Some(Ending::Rules {
                winner: outcome.winner,
                reason: outcome.reason,
            });
        }
        self.resigned.map(Ending::Resigned)
    }

    /// Whether the engine moves next.
    fn engine_to_move(&self) -> bool {
        self.ai.is_some() && self.position().turn() != self.human && self.ending().is_none()
    }

    /// Lets the engine move when it is its turn, and takes in finished searches.
    pub fn tick(&mut self) {
        if let Some(thought) = self.thinker.poll() {
            self.take_thought(thought);
        }
        if self.engine_to_move() && self.thinker.busy().is_none() {
            if let Some(level) = self.ai {
                let ply = self.record.moves().len();
                self.thinker
                    .start(self.record.position(), level, Purpose::Reply, ply);
            }
        }
    }

    /// Waits until the engine has made its move, if it is its turn (for
    /// tests and scripts); at most `limit`.
    pub fn settle(&mut self, limit: Duration) {
        self.tick();
        if let Some(thought) = self.thinker.wait(limit) {
            self.take_thought(thought);
        }
    }

    fn take_thought(&mut self, thought: crate::thinker::Thought) {
        if thought.ply != self.record.moves().len() {
            return; // the game moved on (a take-back) while it thought
        }
        match (thought.purpose, thought.best) {
            (Purpose::Reply, Some(mv)) => {
                if self.engine_to_move() && self.commit(mv).is_ok() {
                    self.message = Message::Info(format!("The engine played {mv}"));
                }
            }
            (Purpose::Hint, Some(mv)) => {
                self.hint = Some(mv);
                self.message = Message::Info(format!(
                    "Hint: {} ({})",
                    mv.with_capture_mark(),
                    evaluation_for_you(thought.score)
                ));
            }
            (_, None) => {}
        }
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some(question) = self.confirm.take() {
            let yes = matches!(key.code, KeyCode::Char('y' | 'Y'))
                || (question == Confirm::Quit && ctrl && key.code == KeyCode::Char('c'));
            match (question, yes) {
                (Confirm::Quit, true) => self.quit = true,
                (Confirm::Resign, true) => self.resign_now(),
                (Confirm::NewGame { swap }, true) => self.new_game(swap),
                (Confirm::Quit, false) => self.message = Message::Info("Not quitting".into()),
                (Confirm::Resign, false) => self.message = Message::Info("Not resigning".into()),
                (Confirm::NewGame { .. }, false) => {
                    self.message = Message::Info("Going on with this game".into());
                }
            }
            return;
        }
        if self.help.is_some() {
            match key.code {
                KeyCode::Tab | KeyCode::BackTab => {
                    self.help = self.help.map(|page| 1 - page);
                    self.help_scroll = 0;
                    return;
                }
                KeyCode::Up | KeyCode::Down | KeyCode::PageUp | KeyCode::PageDown => {
                    self.help_scroll = match key.code {
                        KeyCode::Up => self.help_scroll.saturating_sub(1),
                        KeyCode::Down => self.help_scroll.saturating_add(1),
                        KeyCode::PageUp => self.help_scroll.saturating_sub(10),
                        _ => self.help_scroll.saturating_add(10),
                    };
                    return;
                }
                _ => {}
            }
        }
        match key.code {
            KeyCode::Char('c') if ctrl => self.request_quit(),
            KeyCode::Char('?') if self.input.is_empty() => self.toggle_help(),
            KeyCode::Char(' ') if self.input.is_empty() => self.pick_or_play(),
            KeyCode::Char(c) if !ctrl => {
                self.input.push(c);
                self.selection = None;
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Enter if self.input.trim().is_empty() => {
                self.input.clear();
                self.pick_or_play();
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.input);
                self.submit(text.trim());
            }
            KeyCode::Esc => {
                if self.help.is_some() {
                    self.help = None;
                } else if !self.input.is_empty() {
                    self.input.clear();
                } else {
                    self.selection = None;
                    // What the message said of the selection is gone with it.
                    self.message = Message::None;
                }
            }
            KeyCode::Tab => self.cycle(1),
            KeyCode::BackTab => self.cycle(-1),
            KeyCode::Up => self.move_cursor(0, 1),
            KeyCode::Down => self.move_cursor(0, -1),
            KeyCode::Left => self.move_cursor(-1, 0),
            KeyCode::Right => self.move_cursor(1, 0),
            KeyCode::PageUp => self.look_back(1),
            KeyCode::PageDown => self.look_forward(1),
            KeyCode::Home => self.look_back(usize::MAX),
            KeyCode::End => self.look_forward(usize::MAX),
            KeyCode::F(1) => self.toggle_help(),
            _ => {}
        }
    }

    fn toggle_help(&mut self) {
        self.help_scroll = 0;
        self.help = match self.help {
            Some(_) => None,
            None => Some(0),
        };
    }

    /// Shows the position `steps` moves further back (stopping at the start).
    fn look_back(&mut self, steps: usize) {
        let played = self.record.moves().len();
        let now = self.viewing.unwrap_or(played);
        let shown = now.saturating_sub(steps);
        if shown == played {
            return;
        }
        self.selection = None;
        self.viewing = Some(shown);
        self.message = Message::Info(format!(
            "Looking back: after {shown} of {played} moves (PgDn forward, End back to the game)"
        ));
    }

    /// Shows the position `steps` moves further on, back to the present at
    /// the end.
    fn look_forward(&mut self, steps: usize) {
        let Some(now) = self.viewing else {
            return;
        };
        let played = self.record.moves().len();
        let shown = now.saturating_add(steps);
        if shown >= played {
            self.viewing = None;
            self.message = Message::Info("Back to the game".into());
        } else {
            self.viewing = Some(shown);
            self.message = Message::Info(format!(
                "Looking back: after {shown} of {played} moves (PgDn forward, End back to the game)"
            ));
        }
    }

    /// Types `text` and presses Enter (for tests and scripts).
    pub fn type_line(&mut self, text: &str) {
        for c in text.chars() {
            self.handle_key(KeyEvent::from(KeyCode::Char(c)));
        }
        self.handle_key(KeyEvent::from(KeyCode::Enter));
    }

    /// Moves the cursor one square as seen on the screen.
    fn move_cursor(&mut self, right: i32, up: i32) {
        let (right, up) = if self.flipped {
            (-right, -up)
        } else {
            (right, up)
        };
        let size = self.position().size();
        let file = (i32::from(self.cursor.file()) + right).clamp(0, i32::from(size.files()) - 1);
        let rank = (i32::from(self.cursor.rank()) + up).clamp(0, i32::from(size.ranks()) - 1);
        if let Some(square) = Square::new(file as u8, rank as u8) {
            self.cursor = square;
        }
        // Onto a destination of the picked piece: show that move.
        if let Some(selection) = &mut self.selection {
            if let Some(i) = selection
                .moves
                .iter()
                .position(|mv| mv.destination() == self.cursor)
            {
                selection.index = i;
            }
            self.say_what_enter_does();
        }
    }

    /// After the cursor or the shown move changed: the message says what
    /// Enter will do now, so that it never names another move.
    fn say_what_enter_does(&mut self) {
        let Some(selection) = &self.selection else {
            return;
        };
        let mv = selection.current();
        self.message = if self.cursor == mv.destination() || self.cursor == selection.piece {
            Message::Info(format!(
                "Move {} of {}: {} (Enter plays it)",
                selection.index + 1,
                selection.moves.len(),
                mv.with_capture_mark()
            ))
        } else {
            Message::Info(format!(
                "No move of {} lands on {}: Enter picks the piece here instead",
                selection.piece, self.cursor
            ))
        };
    }

    /// Enter or Space without typed text: play the shown move if the cursor
    /// is on its destination or the picked piece, else pick the piece under
    /// the cursor.
    fn pick_or_play(&mut self) {
        if let Some(selection) = &self.selection {
            let mv = selection.current();
            if self.cursor == mv.destination() || self.cursor == selection.piece {
                self.play_human(mv);
                return;
            }
        }
        self.pick(self.cursor);
    }

    /// Picks the piece on `square`, listing the moves it can take part in.
    fn pick(&mut self, square: Square) {
        if let Some(reason) = self.why_not_your_move() {
            self.message = Message::Error(reason);
            return;
        }
        let pos = self.position();
        if pos.piece_at(square) != Some(pos.turn()) {
            self.selection = None;
            self.message = Message::Error(format!("{square} holds none of your pieces"));
            return;
        }
        let mut moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&mv| MoveSquares::group(mv).contains(&square))
            .collect();
        if moves.is_empty() {
            self.selection = None;
            self.message = Message::Error(format!("The piece on {square} cannot move"));
            return;
        }
        moves.sort_by_key(|mv| {
            (
                mv.direction().index(),
                mv.group_size(),
                mv.distance(),
                mv.tail().rank(),
                mv.tail().file(),
            )
        });
        let count = moves.len();
        self.selection = Some(Selection {
            piece: square,
            moves,
            index: 0,
        });
        self.message = Message::Info(format!(
            "{count} moves for {square}: Tab cycles, arrows go to a destination, Enter plays"
        ));
    }

    /// Shows the next (or previous) move of the picked piece, picking the
    /// piece under the cursor first if none is picked.
    fn cycle(&mut self, step: isize) {
        if self.selection.is_none() {
            self.pick(self.cursor);
            return;
        }
        if let Some(selection) = &mut self.selection {
            let n = selection.moves.len() as isize;
            selection.index = ((selection.index as isize + step).rem_euclid(n)) as usize;
            self.cursor = selection.current().destination();
        }
        self.say_what_enter_does();
    }

    /// Why the person may not move now, if not.
    fn why_not_your_move(&self) -> Option<String> {
        if let Some(shown) = self.viewing {
            return Some(format!(
                "You are looking at the game after {shown} moves: End goes back to it"
            ));
        }
        if let Some(ending) = self.ending() {
            return Some(format!(
                "The game is over ({}); undo to take moves back, or quit",
                ending_text(self.position(), ending)
            ));
        }
        if self.engine_to_move() {
            return Some("Wait: it is the engine's turn".into());
        }
        None
    }

    /// A line typed on the input: a command or a move.
    fn submit(&mut self, text: &str) {
        let command = text.trim_start_matches(':');
        let (word, argument) = command
            .split_once(char::is_whitespace)
            .map_or((command, ""), |(w, a)| (w, a.trim()));
        match word.to_ascii_lowercase().as_str() {
            "undo" | "takeback" => self.undo(),
            "hint" => self.ask_hint(),
            "flip" => {
                self.flipped = !self.flipped;
                self.message = Message::Info("Board turned round".into());
            }
            "save" => {
                let path = if argument.is_empty() {
                    self.save_path.clone()
                } else {
                    PathBuf::from(argument)
                };
                self.save(path);
            }
            "resign" => self.resign(),
            "new" => self.ask_new_game(false),
            "rematch" => self.ask_new_game(true),
            "level" => self.set_level(argument),
            "quit" | "exit" | "q" => self.request_quit(),
            "help" => self.toggle_help(),
            _ => self.play_text(text),
        }
    }

    /// Reads `text` as a move and plays it, or says why not.
    fn play_text(&mut self, text: &str) {
        if let Some(reason) = self.why_not_your_move() {
            self.message = Message::Error(reason);
            return;
        }
        match self.position().parse_move(text) {
            Ok(mv) => self.play_human(mv),
            Err(err) => {
                self.message = Message::Error(format!("'{text}': {err}"));
            }
        }
    }

    /// Plays the person's move `mv` (legal in the current position).
    fn play_human(&mut self, mv: Move) {
        if let Some(reason) = self.why_not_your_move() {
            self.message = Message::Error(reason);
            return;
        }
        match self.commit(mv) {
            Ok(()) => {
                self.cursor = mv.destination();
                self.message = Message::Info(format!("You played {mv}"));
            }
            Err(err) => self.message = Message::Error(err),
        }
    }

    /// Records `mv` and resets what belonged to the old position.
    fn commit(&mut self, mv: Move) -> Result<(), String> {
        self.record.push(mv).map_err(|e| e.to_string())?;
        self.selection = None;
        self.hint = None;
        self.dirty = true;
        Ok(())
    }

    /// Takes back the person's last move (and the engine's answer to it).
    fn undo(&mut self) {
        self.viewing = None;
        let played = self.record.moves().len();
        // Against the engine, back to the person's turn: two moves once the
        // engine has answered, one while it thinks or when the game ended
        // on the person's move.
        let plies = if self.ai.is_some() && self.position().turn() == self.human {
            2
        } else {
            1
        };
        if played < plies || (self.ai.is_some() && played == 0) {
            self.message = Message::Error("There is no move of yours to take back".into());
            return;
        }
        self.thinker.cancel();
        self.record.take_back(plies);
        self.resigned = None;
        self.selection = None;
        self.hint = None;
        self.dirty = true;
        self.message = Message::Info(format!(
            "Took back {plies} move{}",
            if plies == 1 { "" } else { "s" }
        ));
    }

    fn ask_hint(&mut self) {
        if let Some(reason) = self.why_not_your_move() {
            self.message = Message::Error(reason);
            return;
        }
        let ply = self.record.moves().len();
        self.thinker
            .start(self.record.position(), Level::MAX, Purpose::Hint, ply);
        self.message = Message::Info("The engine is looking for a hint".into());
    }

    fn resign(&mut self) {
        if self.ending().is_some() {
            self.message = Message::Error("The game is already over".into());
            return;
        }
        self.confirm = Some(Confirm::Resign);
        self.message = Message::Error("Resign this game? (y/n)".into());
    }

    fn resign_now(&mut self) {
        let loser = match self.ai {
            Some(_) => self.human,
            None => self.position().turn(),
        };
        self.thinker.cancel();
        if let Err(err) = self.record.set_result(GameResult::win(!loser)) {
            self.message = Message::Error(err.to_string());
            return;
        }
        let _ = self.record.set_tag("Termination", "resignation");
        self.resigned = Some(loser);
        self.dirty = true;
        self.message = Message::Info(format!("{} resigned", side_label(loser)));
    }

    fn save(&mut self, path: PathBuf) {
        // The number of plies and how the game ended, as of now.
        let mut record = self.record.clone();
        let _ = record.set_tag("PlyCount", &record.moves().len().to_string());
        if let Some(Ending::Rules { reason, .. }) = self.ending() {
            let how = match reason {
                WinReason::Crossing => "crossing",
                WinReason::NoMoves => "no moves",
            };
            let _ = record.set_tag("Termination", how);
        }
        match std::fs::write(&path, record.to_string()) {
            Ok(()) => {
                self.dirty = false;
                self.message = Message::Info(format!("Saved to {}", path.display()));
            }
            Err(err) => {
                self.message = Message::Error(format!("Cannot save to {}: {err}", path.display()));
            }
        }
    }

    fn request_quit(&mut self) {
        if self.dirty {
            self.confirm = Some(Confirm::Quit);
            self.message = Message::Error(
                "The game is not saved. Quit anyway? (y or Ctrl-C again; n goes on; 'save' saves it)"
                    .into(),
            );
        } else {
            self.quit = true;
        }
    }

    /// `new` or `rematch`: asks first when the game is not saved.
    fn ask_new_game(&mut self, swap: bool) {
        if self.dirty && !self.record.moves().is_empty() {
            self.confirm = Some(Confirm::NewGame { swap });
            self.message = Message::Error(
                "This game is not saved. Leave it for a new one? (y/n; 'save' saves it)".into(),
            );
        } else {
            self.new_game(swap);
        }
    }

    /// A new game from the same start, the sides swapped for a rematch.
    fn new_game(&mut self, swap: bool) {
        self.thinker.cancel();
        if swap {
            self.human = !self.human;
        }
        let mut record = GameRecord::new(self.record.start().clone());
        for tag in ["Event", "Site"] {
            if let Some(value) = self.record.tag(tag) {
                let _ = record.set_tag(tag, value);
            }
        }
        self.record = record;
        self.name_players();
        self.resigned = None;
        self.selection = None;
        self.hint = None;
        self.viewing = None;
        self.dirty = false;
        self.flipped = self.ai.is_some() && self.human == Color::Black;
        self.cursor = first_piece(self.position(), self.human);
        self.message = Message::Info(match self.ai {
            Some(level) => format!(
                "New game: you play {} against the engine at level {}",
                side_label(self.human),
                level.get()
            ),
            None => "New game".to_owned(),
        });
    }

    /// `level N`: the engine plays at level N from its next move.
    fn set_level(&mut self, argument: &str) {
        let Some(_) = self.ai else {
            self.message = Message::Error(
                "Two people share the keyboard: there is no engine to set a level for".into(),
            );
            return;
        };
        match argument.parse::<u8>().ok().and_then(Level::new) {
            Some(level) => {
                self.ai = Some(level);
                // A search under way at the old level starts again.
                if self
                    .thinker
                    .busy()
                    .is_some_and(|(p, _)| p == Purpose::Reply)
                {
                    self.thinker.cancel();
                }
                let _ = self.record.set_tag(
                    match self.human {
                        Color::White => "Black",
                        Color::Black => "White",
                    },
                    &format!("Epaminondas engine, level {}", level.get()),
                );
                self.message =
                    Message::Info(format!("The engine now plays at level {}", level.get()));
            }
            None => {
                self.message = Message::Error(format!(
                    "'level {argument}': give a level from 1 (weakest) to 10"
                ));
            }
        }
    }
}

/// The engine's score for the side to move, said to that player.
fn evaluation_for_you(score: i32) -> String {
    use epaminondas_engine::score::{PROVEN, WIN};
    if score >= PROVEN {
        format!("you win in {} plies", WIN - score)
    } else if score <= -PROVEN {
        format!("you lose in {} plies", WIN + score)
    } else {
        format!("{:+.2} for you", f64::from(score) / 100.0)
    }
}

/// A piece of `color` to start the cursor on, or the board's corner.
fn first_piece(pos: &Position, color: Color) -> Square {
    let corner = Square::new(0, 0).expect("a1 is on every board");
    pos.squares(color).first().copied().unwrap_or(corner)
}

/// The end of the game in words.
pub fn ending_text(pos: &Position, ending: Ending) -> String {
    match ending {
        Ending::Rules {
            winner,
            reason: WinReason::Crossing,
        } => format!(
            "{} wins by crossing: {} on the goal rank against {}",
            side_label(winner),
            pos.goal_count(winner),
            pos.goal_count(!winner)
        ),
        Ending::Rules {
            winner,
            reason: WinReason::NoMoves,
        } => format!(
            "{} wins: {} has no legal move",
            side_label(winner),
            side_label(!winner)
        ),
        Ending::Resigned(loser) => {
            format!(
                "{} wins: {} resigned",
                side_label(!loser),
                side_label(loser)
            )
        }
    }
}
