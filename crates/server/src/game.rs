//! A game on the server: who plays, under what time control, the moves, the
//! clocks and pending offers, and the changes players can make to it. Pure
//! logic with no storage, no HTTP and no JSON: the rules library decides
//! every rule question, refusals are [`GameError`]s, and the caller
//! persists the changed game and shows it in its own form.

use std::fmt;
use std::str::FromStr;

use epaminondas_rules::{
    BoardSize, Color, GameRecord, GameResult, Move, ParseMoveError, Position, Symmetry, WinReason,
};
use serde::{Deserialize, Serialize};

/// Milliseconds in a day.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// How much time each player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// No limit (games against the engine, unless asked otherwise).
    Unlimited,
    /// A number of days for each move, as pbmserv's forfeit time; a reminder
    /// goes out when half of it is used.
    Correspondence {
        /// Days per move.
        days_per_move: i64,
    },
    /// A clock per player: an initial time, and an increment added after
    /// each of the player's moves.
    Live {
        /// The starting time in milliseconds.
        initial_ms: i64,
        /// Added after each move, in milliseconds.
        increment_ms: i64,
    },
}

/// A time control with numbers outside what the server offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Correspondence days per move outside 1 to 60.
    #[error("days per move must be 1 to 60")]
    Days,
    /// A live clock outside 1 s to 180 min, or an increment outside 0 to 600 s.
    #[error("live time must be 1 second to 180 minutes, with an increment of 0 to 600 seconds")]
    Live,
}

impl TimeControl {
    /// The PGN `TimeControl` value: `-` without a limit, `1/SECONDS` (one
    /// move in so many seconds) for correspondence, `BASE+INCREMENT` in
    /// seconds for live clocks.
    pub fn pgn(self) -> String {
        let seconds = |ms: i64| {
            let text = format!("{:.3}", ms as f64 / 1000.0);
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        };
        match self {
            TimeControl::Unlimited => "-".to_owned(),
            TimeControl::Correspondence { days_per_move } => {
                format!("1/{}", days_per_move * DAY_MS / 1000)
            }
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => format!("{}+{}", seconds(initial_ms), seconds(increment_ms)),
        }
    }

    /// The name stored in the database.
    pub fn kind(self) -> &'static str {
        match self {
            TimeControl::Unlimited => "unlimited",
            TimeControl::Correspondence { .. } => "correspondence",
            TimeControl::Live { .. } => "live",
        }
    }

    /// The control stored as (kind, initial_ms, increment_ms, days_per_move).
    pub fn from_columns(kind: &str, initial_ms: i64, increment_ms: i64, days: i64) -> TimeControl {
        match kind {
            "correspondence" => TimeControl::Correspondence {
                days_per_move: days,
            },
            "live" => TimeControl::Live {
                initial_ms,
                increment_ms,
            },
            _ => TimeControl::Unlimited,
        }
    }

    /// (initial_ms, increment_ms, days_per_move) for the database.
    pub fn columns(self) -> (i64, i64, i64) {
        match self {
            TimeControl::Unlimited => (0, 0, 0),
            TimeControl::Correspondence { days_per_move } => (0, 0, days_per_move),
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => (initial_ms, increment_ms, 0),
        }
    }

    /// Checks the numbers are within what the server offers.
    pub fn validate(self) -> Result<TimeControl, TimeControlError> {
        match self {
            TimeControl::Correspondence { days_per_move } if !(1..=60).contains(&days_per_move) => {
                Err(TimeControlError::Days)
            }
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } if !(1_000..=3 * 60 * 60 * 1000).contains(&initial_ms)
                || !(0..=10 * 60 * 1000).contains(&increment_ms) =>
            {
                Err(TimeControlError::Live)
            }
            other => Ok(other),
        }
    }
}

/// A registered player, as games and challenges name them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The account's number.
    pub id: i64,
    /// The account's name.
    pub name: String,
}

/// Who sits on one side of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A registered player.
    Human(Player),
    /// The server's engine at a strength level (1 to 10).
    Engine(u8),
}

impl Seat {
    /// The player's account number, if a person (or bot account) sits here.
    pub fn player_id(&self) -> Option<i64> {
        match self {
            Seat::Human(p) => Some(p.id),
            Seat::Engine(_) => None,
        }
    }

    /// The name shown for this side.
    pub fn name(&self) -> String {
        match self {
            Seat::Human(p) => p.name.clone(),
            Seat::Engine(level) => format!("computer level {level}"),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// More pieces on the goal rank at the start of the winner's turn.
    Crossing,
    /// The loser had no legal move.
    NoMoves,
    /// The loser resigned.
    Resignation,
    /// Both players agreed to a draw.
    Agreement,
    /// The loser ran out of time (or, in correspondence, let the days per
    /// move pass).
    Time,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 5] = [
        EndReason::Crossing,
        EndReason::NoMoves,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Time,
    ];

    /// The name stored in the database and sent in the API.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Crossing => "crossing",
            EndReason::NoMoves => "no_moves",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Time => "time",
        }
    }
}

impl fmt::Display for EndReason {
    /// The reason in words: `crossing`, `no moves`, `resignation` ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().replace('_', " "))
    }
}

impl FromStr for EndReason {
    type Err = String;

    fn from_str(s: &str) -> Result<EndReason, String> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("unknown end reason {s:?}"))
    }
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves are being made.
    Active,
    /// Over, and from now on unchangeable.
    Finished {
        /// The result (never [`GameResult::Unfinished`]).
        result: GameResult,
        /// Why.
        reason: EndReason,
    },
}

/// What an offer asks the opponent to agree to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Ending the game drawn.
    Draw,
    /// Taking back the last move.
    Takeback,
}

/// A draw or takeback offer, or an answer to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferAction {
    /// Make the offer (or accept the opponent's, for draws).
    Offer,
    /// Accept the opponent's.
    Accept,
    /// Decline the opponent's.
    Decline,
}

/// Why a change to a game was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended.
    #[error("game {id} is over ({result}, {reason})")]
    Over {
        /// The game.
        id: i64,
        /// Its result.
        result: GameResult,
        /// Why it ended.
        reason: EndReason,
    },
    /// The side to move ran out of time before this change; the game is
    /// now over on time.
    #[error("time ran out: {loser} lost game {id} on time")]
    TimeRanOut {
        /// The game.
        id: i64,
        /// The side that ran out.
        loser: Color,
    },
    /// A move or answer from the side not to move.
    #[error("it is not your turn: {to_move} is to move")]
    NotYourTurn {
        /// The side to move.
        to_move: Color,
    },
    /// The move was sent against an older position (pbmserv's `#moveno`
    /// guard, the API's `ply`).
    #[error(
        "stale move number: the move was sent for move {} but the game is at move {}",
        sent + 1,
        played + 1
    )]
    StaleMove {
        /// Moves played when the sender looked.
        sent: usize,
        /// Moves played now.
        played: usize,
    },
    /// The rules refuse the move; the rules library says why.
    #[error("{0}")]
    IllegalMove(ParseMoveError),
    /// An offer the player has already made.
    #[error("you have already {}", match .0 { Offer::Draw => "offered a draw", Offer::Takeback => "asked for a takeback" })]
    AlreadyOffered(Offer),
    /// An answer to an offer the opponent has not made.
    #[error("there is no {} from your opponent", match .0 { Offer::Draw => "draw offer", Offer::Takeback => "takeback request" })]
    NoOffer(Offer),
    /// A takeback request with no move of the player's to take back.
    #[error("you have no move to take back")]
    NothingToTakeBack,
}

/// A game and everything the server keeps about it.
#[derive(Clone, Debug)]
pub struct Game {
    /// The board number (from 101, as on pbmserv).
    pub id: i64,
    /// Who plays White (moves first).
    pub white: Seat,
    /// Who plays Black.
    pub black: Seat,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
    /// The start, the moves and the position now.
    pub record: GameRecord,
    /// Whether it goes on.
    pub status: Status,
    /// White's remaining time at the start of the current turn (live games).
    pub white_ms: i64,
    /// Black's remaining time at the start of the current turn (live games).
    pub black_ms: i64,
    /// When the current turn began.
    pub turn_started_at: i64,
    /// Whether the reminder for the current turn has gone out.
    pub reminded: bool,
    /// A draw offered by this side and not yet answered.
    pub draw_offer: Option<Color>,
    /// A takeback asked for by this side and not yet answered.
    pub takeback_offer: Option<Color>,
    /// Counts the stored changes; a write succeeds only on the version it
    /// read, so two servers never both change the same state.
    pub version: i64,
    /// When the game began.
    pub created_at: i64,
    /// When it ended.
    pub ended_at: Option<i64>,
}

/// The settings a new game is made with.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Who plays White.
    pub white: Seat,
    /// Who plays Black.
    pub black: Seat,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
}

impl Game {
    /// A new game from the board's starting position, begun at `now`; its
    /// number is given when it is stored.
    pub fn new(settings: NewGame, now: i64) -> Game {
        let record = GameRecord::new(Position::new(settings.size, settings.symmetry));
        let initial = match settings.control {
            TimeControl::Live { initial_ms, .. } => initial_ms,
            _ => 0,
        };
        let mut game = Game {
            id: 0,
            white: settings.white,
            black: settings.black,
            rated: settings.rated,
            control: settings.control,
            record,
            status: Status::Active,
            white_ms: initial,
            black_ms: initial,
            turn_started_at: now,
            reminded: false,
            draw_offer: None,
            takeback_offer: None,
            version: 0,
            created_at: now,
            ended_at: None,
        };
        game.name_players();
        game
    }

    /// Writes the players' names and the board number into the record's tags.
    pub fn name_players(&mut self) {
        let (white, black) = (self.white.name(), self.black.name());
        // Names are checked on sign-up, so the tags accept them.
        let _ = self.record.set_tag("White", &white);
        let _ = self.record.set_tag("Black", &black);
        let _ = self.record.set_tag("Event", &format!("Board {}", self.id));
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.record.position()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.record.moves().len()
    }

    /// Who sits on `color`'s side.
    pub fn seat(&self, color: Color) -> &Seat {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The side the player `player_id` plays, if any.
    pub fn color_of(&self, player_id: i64) -> Option<Color> {
        if self.white.player_id() == Some(player_id) {
            Some(Color::White)
        } else if self.black.player_id() == Some(player_id) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The engine's level, if the engine plays the side to move.
    pub fn engine_to_move(&self) -> Option<u8> {
        match (self.status, self.seat(self.turn())) {
            (Status::Active, Seat::Engine(level)) => Some(*level),
            _ => None,
        }
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        matches!(self.status, Status::Finished { .. })
    }

    /// The winner, once the game is over and not drawn.
    pub fn winner(&self) -> Option<Color> {
        match self.status {
            Status::Finished {
                result: GameResult::WhiteWins,
                ..
            } => Some(Color::White),
            Status::Finished {
                result: GameResult::BlackWins,
                ..
            } => Some(Color::Black),
            _ => None,
        }
    }

    /// The remaining time of `color` at `now`, for live games.
    pub fn remaining_ms(&self, color: Color, now: i64) -> i64 {
        let base = match color {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        };
        if self.status == Status::Active && self.turn() == color {
            base - (now - self.turn_started_at).max(0)
        } else {
            base
        }
    }

    /// When the side to move loses on time, if it can.
    pub fn deadline(&self) -> Option<i64> {
        if self.is_finished() {
            return None;
        }
        match self.control {
            TimeControl::Unlimited => None,
            TimeControl::Correspondence { days_per_move } => {
                Some(self.turn_started_at + days_per_move * DAY_MS)
            }
            TimeControl::Live { .. } => {
                Some(self.turn_started_at + self.remaining_ms(self.turn(), self.turn_started_at))
            }
        }
    }

    /// When the reminder for the current turn is due (correspondence games,
    /// halfway to the deadline), unless it has gone out.
    pub fn remind_at(&self) -> Option<i64> {
        match (self.control, self.reminded, self.is_finished()) {
            (TimeControl::Correspondence { days_per_move }, false, false) => {
                Some(self.turn_started_at + days_per_move * DAY_MS / 2)
            }
            _ => None,
        }
    }

    fn refuse_if_finished(&self) -> Result<(), GameError> {
        match self.status {
            Status::Finished { result, reason } => Err(GameError::Over {
                id: self.id,
                result,
                reason,
            }),
            Status::Active => Ok(()),
        }
    }

    /// Ends the game.
    pub fn finish(&mut self, result: GameResult, reason: EndReason, now: i64) {
        // Freeze the mover's clock at the end.
        if let TimeControl::Live { .. } = self.control {
            let turn = self.turn();
            let left = self.remaining_ms(turn, now).max(0);
            *self.clock_mut(turn) = left;
        }
        self.status = Status::Finished { result, reason };
        // The record keeps results outside the rules; a crossing or no-move
        // result is already implied by the moves.
        if matches!(
            reason,
            EndReason::Resignation | EndReason::Agreement | EndReason::Time
        ) {
            let _ = self.record.set_result(result);
        }
        self.draw_offer = None;
        self.takeback_offer = None;
        self.ended_at = Some(now);
    }

    fn clock_mut(&mut self, color: Color) -> &mut i64 {
        match color {
            Color::White => &mut self.white_ms,
            Color::Black => &mut self.black_ms,
        }
    }

    /// Ends the game on time if the side to move has run out at `now`.
    /// Returns whether it did.
    pub fn flag(&mut self, now: i64) -> bool {
        match self.deadline() {
            Some(deadline) if now >= deadline => {
                let loser = self.turn();
                self.finish(GameResult::win(!loser), EndReason::Time, now);
                true
            }
            _ => false,
        }
    }

    /// Plays the move written `text` for `by`. `sent_at_ply`, when given, is
    /// the number of moves the sender saw (pbmserv's `#moveno` guard): a
    /// move sent against an older position is refused.
    pub fn play(
        &mut self,
        by: Color,
        text: &str,
        sent_at_ply: Option<usize>,
        now: i64,
    ) -> Result<Move, GameError> {
        self.refuse_if_finished()?;
        if self.turn() != by {
            return Err(GameError::NotYourTurn {
                to_move: self.turn(),
            });
        }
        if let Some(sent) = sent_at_ply
            && sent != self.ply()
        {
            return Err(GameError::StaleMove {
                sent,
                played: self.ply(),
            });
        }
        let mv = self
            .position()
            .parse_move(text.trim())
            .map_err(GameError::IllegalMove)?;
        self.play_checked(mv, now);
        Ok(mv)
    }

    /// Plays `mv`, already checked legal, at `now`: clocks, offers and the
    /// end of the game by the rules.
    pub fn play_checked(&mut self, mv: Move, now: i64) {
        let mover = self.turn();
        if let TimeControl::Live { increment_ms, .. } = self.control {
            let left = self.remaining_ms(mover, now);
            *self.clock_mut(mover) = left + increment_ms;
        }
        // The record has the game's rules; a legal move always goes in.
        let _ = self.record.push(mv);
        self.turn_started_at = now;
        self.reminded = false;
        self.draw_offer = None;
        self.takeback_offer = None;
        if let Some(outcome) = self.position().outcome() {
            let reason = match outcome.reason {
                WinReason::Crossing => EndReason::Crossing,
                WinReason::NoMoves => EndReason::NoMoves,
            };
            self.finish(GameResult::win(outcome.winner), reason, now);
        }
    }

    /// `by` resigns.
    pub fn resign(&mut self, by: Color, now: i64) -> Result<(), GameError> {
        self.refuse_if_finished()?;
        self.finish(GameResult::win(!by), EndReason::Resignation, now);
        Ok(())
    }

    /// An offer of `kind` by `by`, or `by`'s answer to the opponent's (an
    /// offer of a draw while the opponent's stands accepts it).
    pub fn offer(
        &mut self,
        by: Color,
        kind: Offer,
        action: OfferAction,
        now: i64,
    ) -> Result<(), GameError> {
        match (kind, action) {
            (Offer::Draw, OfferAction::Offer) => self.offer_draw(by, now),
            (Offer::Draw, answer) => self.answer_draw(by, answer == OfferAction::Accept, now),
            (Offer::Takeback, OfferAction::Offer) => self.offer_takeback(by),
            (Offer::Takeback, answer) => {
                self.answer_takeback(by, answer == OfferAction::Accept, now)
            }
        }
    }

    /// The offer of `kind` the opponent of `by` has made and `by` may answer.
    pub fn pending_for(&self, by: Color, kind: Offer) -> bool {
        let pending = match kind {
            Offer::Draw => self.draw_offer,
            Offer::Takeback => self.takeback_offer,
        };
        pending == Some(!by)
    }

    fn offer_draw(&mut self, by: Color, now: i64) -> Result<(), GameError> {
        self.refuse_if_finished()?;
        match self.draw_offer {
            Some(from) if from == !by => {
                self.finish(GameResult::Draw, EndReason::Agreement, now);
            }
            Some(_) => return Err(GameError::AlreadyOffered(Offer::Draw)),
            None => self.draw_offer = Some(by),
        }
        Ok(())
    }

    fn answer_draw(&mut self, by: Color, accept: bool, now: i64) -> Result<(), GameError> {
        self.refuse_if_finished()?;
        if self.draw_offer != Some(!by) {
            return Err(GameError::NoOffer(Offer::Draw));
        }
        if accept {
            self.finish(GameResult::Draw, EndReason::Agreement, now);
        } else {
            self.draw_offer = None;
        }
        Ok(())
    }

    /// The number of moves a takeback for `by` removes: back to `by`'s
    /// last move, so that `by` is to move again.
    fn takeback_plies(&self, by: Color) -> usize {
        if self.turn() == by { 2 } else { 1 }
    }

    fn offer_takeback(&mut self, by: Color) -> Result<(), GameError> {
        self.refuse_if_finished()?;
        if self.takeback_plies(by) > self.ply() {
            return Err(GameError::NothingToTakeBack);
        }
        if self.takeback_offer == Some(by) {
            return Err(GameError::AlreadyOffered(Offer::Takeback));
        }
        self.takeback_offer = Some(by);
        Ok(())
    }

    fn answer_takeback(&mut self, by: Color, accept: bool, now: i64) -> Result<(), GameError> {
        self.refuse_if_finished()?;
        let Some(asker) = self.takeback_offer.filter(|&c| c == !by) else {
            return Err(GameError::NoOffer(Offer::Takeback));
        };
        self.takeback_offer = None;
        if accept {
            let plies = self.takeback_plies(asker);
            self.record.take_back(plies);
            self.turn_started_at = now;
            self.reminded = false;
            self.draw_offer = None;
        }
        Ok(())
    }

    /// The moves in canonical notation.
    pub fn move_texts(&self) -> Vec<String> {
        self.record.moves().iter().map(Move::to_string).collect()
    }

    /// The game as a record, as lichess writes PGN: the players, the
    /// date it began, the time control, the number of plies, the result
    /// and, once it has ended, how (`Termination`).
    pub fn record_text(&self) -> String {
        let mut record = self.record.clone();
        let began = u64::try_from(self.created_at / 1000).unwrap_or(0);
        // The values are plain text: setting them cannot fail.
        let _ = record.set_tag("Date", &epaminondas_rules::pgn_date(began));
        let _ = record.set_tag("TimeControl", &self.control.pgn());
        let _ = record.set_tag("PlyCount", &self.ply().to_string());
        if let Status::Finished { result, reason } = self.status {
            let _ = record.set_result(result);
            let termination = match reason {
                EndReason::Time => "time forfeit".to_owned(),
                reason => reason.to_string(),
            };
            let _ = record.set_tag("Termination", &termination);
        }
        record.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alice() -> Seat {
        Seat::Human(Player {
            id: 1,
            name: "alice".into(),
        })
    }

    fn bob() -> Seat {
        Seat::Human(Player {
            id: 2,
            name: "bob".into(),
        })
    }

    fn small(control: TimeControl) -> Game {
        let settings = NewGame {
            white: alice(),
            black: bob(),
            size: BoardSize::new(5, 5).unwrap(),
            symmetry: Symmetry::Mirror,
            rated: true,
            control,
        };
        let mut game = Game::new(settings, 1_000);
        game.id = 101;
        game
    }

    #[test]
    fn the_record_says_when_how_long_and_how_it_ended() {
        let mut g = small(TimeControl::Correspondence { days_per_move: 3 });
        g.created_at = 1_795_478_400_000;
        g.play(Color::White, "a2-a3", None, 2_000).unwrap();
        let open = g.record_text();
        for tag in [
            "[Date \"2026.11.24\"]",
            "[TimeControl \"1/259200\"]",
            "[PlyCount \"1\"]",
            "[Result \"*\"]",
        ] {
            assert!(open.contains(tag), "{tag}\n{open}");
        }
        assert!(!open.contains("Termination"), "{open}");
        g.resign(Color::Black, 3_000).unwrap();
        let done = g.record_text();
        assert!(done.contains("[Termination \"resignation\"]"), "{done}");
        assert!(done.contains("[Result \"1-0\"]"), "{done}");
        let live = TimeControl::Live {
            initial_ms: 300_000,
            increment_ms: 2_500,
        };
        assert_eq!(live.pgn(), "300+2.5");
        assert_eq!(TimeControl::Unlimited.pgn(), "-");
    }

    #[test]
    fn moves_turns_and_the_move_number_guard() {
        let mut g = small(TimeControl::Unlimited);
        assert_eq!(
            g.play(Color::Black, "a5-a4", None, 0),
            Err(GameError::NotYourTurn {
                to_move: Color::White
            })
        );
        let first = g.position().legal_moves()[0].to_string();
        assert_eq!(
            g.play(Color::White, &first, Some(1), 0),
            Err(GameError::StaleMove { sent: 1, played: 0 })
        );
        assert!(matches!(
            g.play(Color::White, "zz", None, 0),
            Err(GameError::IllegalMove(ParseMoveError::Syntax { .. }))
        ));
        // The rules library's reason comes through whole.
        assert!(matches!(
            g.play(Color::White, "a1-a5", None, 0),
            Err(GameError::IllegalMove(ParseMoveError::Illegal(_)))
        ));
        assert_eq!(g.ply(), 0);
        g.play(Color::White, &first, Some(0), 0).unwrap();
        assert_eq!(g.ply(), 1);
        assert_eq!(g.turn(), Color::Black);
    }

    #[test]
    fn live_clocks_flag_and_increment() {
        let mut g = small(TimeControl::Live {
            initial_ms: 10_000,
            increment_ms: 1_000,
        });
        let mv = g.position().legal_moves()[0].to_string();
        g.play(Color::White, &mv, None, 4_000).unwrap();
        assert_eq!(g.white_ms, 10_000 - 3_000 + 1_000);
        assert_eq!(g.deadline(), Some(4_000 + 10_000));
        assert!(!g.flag(13_999));
        assert!(g.flag(14_000));
        assert_eq!(
            g.status,
            Status::Finished {
                result: GameResult::WhiteWins,
                reason: EndReason::Time
            }
        );
        assert_eq!(g.winner(), Some(Color::White));
        let refused = g.resign(Color::White, 15_000).unwrap_err();
        assert_eq!(refused.to_string(), "game 101 is over (1-0, time)");
    }

    #[test]
    fn correspondence_reminder_and_forfeit() {
        let mut g = small(TimeControl::Correspondence { days_per_move: 2 });
        assert_eq!(g.remind_at(), Some(1_000 + DAY_MS));
        assert_eq!(g.deadline(), Some(1_000 + 2 * DAY_MS));
        assert!(g.flag(1_000 + 2 * DAY_MS));
        assert!(g.record_text().contains("0-1"));
    }

    #[test]
    fn draws_and_takebacks() {
        let mut g = small(TimeControl::Unlimited);
        use OfferAction::{Accept, Decline};
        let ask = OfferAction::Offer;
        assert_eq!(
            g.offer(Color::White, Offer::Takeback, ask, 0),
            Err(GameError::NothingToTakeBack)
        );
        let mv = g.position().legal_moves()[0].to_string();
        g.play(Color::White, &mv, None, 0).unwrap();
        g.offer(Color::White, Offer::Takeback, ask, 0).unwrap();
        assert!(g.pending_for(Color::Black, Offer::Takeback));
        assert_eq!(
            g.offer(Color::White, Offer::Takeback, Accept, 0),
            Err(GameError::NoOffer(Offer::Takeback))
        );
        g.offer(Color::Black, Offer::Takeback, Accept, 0).unwrap();
        assert_eq!(g.ply(), 0);
        g.offer(Color::White, Offer::Draw, ask, 0).unwrap();
        assert_eq!(
            g.offer(Color::White, Offer::Draw, ask, 0),
            Err(GameError::AlreadyOffered(Offer::Draw))
        );
        g.offer(Color::Black, Offer::Draw, Decline, 0).unwrap();
        assert!(g.offer(Color::Black, Offer::Draw, Accept, 0).is_err());
        g.offer(Color::Black, Offer::Draw, ask, 0).unwrap();
        g.offer(Color::White, Offer::Draw, ask, 0).unwrap();
        assert!(g.is_finished());
        assert!(g.record_text().contains("1/2-1/2"));
    }

    #[test]
    fn end_reasons_read_back_their_names() {
        for reason in EndReason::ALL {
            assert_eq!(reason.name().parse::<EndReason>(), Ok(reason));
        }
        assert_eq!(EndReason::NoMoves.to_string(), "no moves");
        assert!("boredom".parse::<EndReason>().is_err());
    }
}
