//! A game on the server: who plays, under what time control, the moves, the
//! clocks and pending offers, and the changes players can make to it. Pure
//! logic with no storage, no HTTP and no JSON: the rules library decides
//! every rule question, refusals are [`GameError`]s, and the caller
//! persists the changed game and shows it in its own form.

use std::fmt;
use std::str::FromStr;

use epaminondas_rules::{Color, GameRecord, GameResult, Move, ParseMoveError, Position, WinReason};
use serde::{Deserialize, Serialize};

use crate::conditional::{Conditional, ConditionalError};

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
    /// A correspondence time bank, as Little Golem's: each player starts
    /// with `initial_ms`, gets `increment_ms` after each move, and never
    /// holds more than `max_ms`; the bank runs out, not a single move's days.
    Bank {
        /// The starting bank in milliseconds.
        initial_ms: i64,
        /// Added after each move, in milliseconds.
        increment_ms: i64,
        /// The most a bank may hold, in milliseconds.
        max_ms: i64,
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
    /// A time bank outside 1 hour to 60 days, an increment outside 0 to 30
    /// days, or a cap below the start or above 90 days.
    #[error(
        "a time bank must start with 1 hour to 60 days, add 0 to 30 days a move, \
         and be capped at no less than its start and at most 90 days"
    )]
    Bank,
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
            }
            | TimeControl::Bank {
                initial_ms,
                increment_ms,
                ..
            } => format!("{}+{}", seconds(initial_ms), seconds(increment_ms)),
        }
    }

    /// Whether this is a correspondence control (days per move or a time
    /// bank): played over days, by mail too, and stopped by vacations.
    pub fn is_correspondence(self) -> bool {
        matches!(
            self,
            TimeControl::Correspondence { .. } | TimeControl::Bank { .. }
        )
    }

    /// Whether each player has a clock of their own (live clocks and time
    /// banks), kept in [`Game::white_ms`] and [`Game::black_ms`].
    pub fn has_clocks(self) -> bool {
        matches!(self, TimeControl::Live { .. } | TimeControl::Bank { .. })
    }

    /// The name stored in the database.
    pub fn kind(self) -> &'static str {
        match self {
            TimeControl::Unlimited => "unlimited",
            TimeControl::Correspondence { .. } => "correspondence",
            TimeControl::Bank { .. } => "bank",
            TimeControl::Live { .. } => "live",
        }
    }

    /// The control stored as (kind, initial_ms, increment_ms, days_per_move,
    /// max_ms).
    pub fn from_columns(
        kind: &str,
        initial_ms: i64,
        increment_ms: i64,
        days: i64,
        max_ms: i64,
    ) -> TimeControl {
        match kind {
            "correspondence" => TimeControl::Correspondence {
                days_per_move: days,
            },
            "bank" => TimeControl::Bank {
                initial_ms,
                increment_ms,
                max_ms,
            },
            "live" => TimeControl::Live {
                initial_ms,
                increment_ms,
            },
            _ => TimeControl::Unlimited,
        }
    }

    /// (initial_ms, increment_ms, days_per_move, max_ms) for the database.
    pub fn columns(self) -> (i64, i64, i64, i64) {
        match self {
            TimeControl::Unlimited => (0, 0, 0, 0),
            TimeControl::Correspondence { days_per_move } => (0, 0, days_per_move, 0),
            TimeControl::Bank {
                initial_ms,
                increment_ms,
                max_ms,
            } => (initial_ms, increment_ms, 0, max_ms),
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => (initial_ms, increment_ms, 0, 0),
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
            TimeControl::Bank {
                initial_ms,
                increment_ms,
                max_ms,
            } if !(3_600_000..=60 * DAY_MS).contains(&initial_ms)
                || !(0..=30 * DAY_MS).contains(&increment_ms)
                || !(initial_ms..=90 * DAY_MS).contains(&max_ms) =>
            {
                Err(TimeControlError::Bank)
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
    /// The same position came a third time (a draw in Crossings).
    Repetition,
    /// The loser ran out of time (or, in correspondence, let the days per
    /// move pass).
    Time,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 6] = [
        EndReason::Crossing,
        EndReason::NoMoves,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Repetition,
        EndReason::Time,
    ];

    /// The name stored in the database and sent in the API.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Crossing => "crossing",
            EndReason::NoMoves => "no_moves",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Repetition => "repetition",
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
    /// Conditional moves the rules or their form refuse.
    #[error("{0}")]
    Conditional(ConditionalError),
}

/// 0 for White, 1 for Black: the index of a side's entry in per-side arrays.
pub fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// A stretch of time during which one player's correspondence clocks stand
/// still (see [`Game::vacations`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    /// The side on vacation in this game.
    pub color: Color,
    /// When the clocks stop.
    pub starts_at: i64,
    /// When they run again.
    pub ends_at: i64,
    /// Whether the server took it because the player's time ran out.
    pub automatic: bool,
}

impl Vacation {
    /// The stored form: `white:START:END` with `:auto` for automatic ones.
    fn token(&self) -> String {
        format!(
            "{}:{}:{}{}",
            self.color.name(),
            self.starts_at,
            self.ends_at,
            if self.automatic { ":auto" } else { "" }
        )
    }

    /// Reads [`Vacation::token`]'s form.
    fn from_token(token: &str) -> Option<Vacation> {
        let mut parts = token.split(':');
        let color = parts.next()?.parse().ok()?;
        let starts_at = parts.next()?.parse().ok()?;
        let ends_at = parts.next()?.parse().ok()?;
        let automatic = parts.next() == Some("auto");
        Some(Vacation {
            color,
            starts_at,
            ends_at,
            automatic,
        })
    }

    /// A game's vacations as stored (space-separated tokens).
    pub fn list_text(vacations: &[Vacation]) -> String {
        vacations
            .iter()
            .map(Vacation::token)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads [`Vacation::list_text`]'s form, skipping what it cannot read.
    pub fn parse_list(text: &str) -> Vec<Vacation> {
        text.split_whitespace()
            .filter_map(Vacation::from_token)
            .collect()
    }
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
    /// The players' vacations that still matter to this game's clocks
    /// (correspondence games only), oldest first.
    pub vacations: Vec<Vacation>,
    /// Each side's conditional moves (White's, then Black's); private to
    /// their owner until played.
    pub conditional: [Conditional; 2],
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
    /// The starting position: its board, symmetry option and variant.
    pub start: Position,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
}

impl Game {
    /// A new game from the settings' starting position, begun at `now`; its
    /// number is given when it is stored.
    pub fn new(settings: NewGame, now: i64) -> Game {
        let record = GameRecord::new(settings.start);
        let initial = match settings.control {
            TimeControl::Live { initial_ms, .. } | TimeControl::Bank { initial_ms, .. } => {
                initial_ms
            }
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
            vacations: Vec::new(),
            conditional: Default::default(),
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

    /// The time of `color`'s vacations within `from..to`.
    fn paused_ms(&self, color: Color, from: i64, to: i64) -> i64 {
        self.vacations
            .iter()
            .filter(|v| v.color == color)
            .map(|v| (v.ends_at.min(to) - v.starts_at.max(from)).max(0))
            .sum()
    }

    /// How long `color`'s clock ran within `from..to`: all of it but the
    /// player's vacations.
    pub fn running_ms(&self, color: Color, from: i64, to: i64) -> i64 {
        (to - from).max(0) - self.paused_ms(color, from, to)
    }

    /// When `color`'s clock, started at `from` with `budget` ms, runs out:
    /// vacations on the way push it back.
    fn runs_out_at(&self, color: Color, from: i64, budget: i64) -> i64 {
        let mut periods: Vec<&Vacation> =
            self.vacations.iter().filter(|v| v.color == color).collect();
        periods.sort_by_key(|v| v.starts_at);
        let (mut at, mut left) = (from, budget.max(0));
        for v in periods {
            if v.ends_at <= at {
                continue;
            }
            // A vacation from the very moment the clock would run out
            // still stops it.
            if v.starts_at > at + left {
                break;
            }
            left -= (v.starts_at - at).max(0);
            at = at.max(v.ends_at);
        }
        at + left
    }

    /// The vacation `color` is on at `now`, if any.
    pub fn on_vacation(&self, color: Color, now: i64) -> Option<&Vacation> {
        self.vacations
            .iter()
            .find(|v| v.color == color && v.starts_at <= now && now < v.ends_at)
    }

    /// Sets `color`'s vacations (correspondence games only: live clocks
    /// never stop), keeping those not over before the current turn began.
    pub fn set_vacations(&mut self, color: Color, periods: &[Vacation]) {
        if !self.control.is_correspondence() {
            return;
        }
        let since = self.turn_started_at;
        self.vacations.retain(|v| v.color != color);
        self.vacations.extend(
            periods
                .iter()
                .filter(|v| v.ends_at > since)
                .map(|v| Vacation { color, ..*v }),
        );
        self.vacations
            .sort_by_key(|v| (v.starts_at, v.color.name()));
    }

    /// The remaining time of `color` at `now`, for games with clocks (live
    /// clocks and time banks).
    pub fn remaining_ms(&self, color: Color, now: i64) -> i64 {
        let base = match color {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        };
        if self.status == Status::Active && self.turn() == color {
            base - self.running_ms(color, self.turn_started_at, now)
        } else {
            base
        }
    }

    /// When the side to move loses on time, if it can.
    pub fn deadline(&self) -> Option<i64> {
        if self.is_finished() {
            return None;
        }
        let turn = self.turn();
        let budget = match self.control {
            TimeControl::Unlimited => return None,
            TimeControl::Correspondence { days_per_move } => days_per_move * DAY_MS,
            TimeControl::Live { .. } | TimeControl::Bank { .. } => {
                self.remaining_ms(turn, self.turn_started_at)
            }
        };
        Some(self.runs_out_at(turn, self.turn_started_at, budget))
    }

    /// When the reminder for the current turn is due (correspondence
    /// games: halfway to the deadline with days per move, a day before it
    /// or halfway, whichever is later, with a time bank), unless it has
    /// gone out.
    pub fn remind_at(&self) -> Option<i64> {
        if self.reminded || self.is_finished() {
            return None;
        }
        let turn = self.turn();
        let used_before_reminder = match self.control {
            TimeControl::Correspondence { days_per_move } => days_per_move * DAY_MS / 2,
            TimeControl::Bank { .. } => {
                let bank = self.remaining_ms(turn, self.turn_started_at);
                bank - DAY_MS.min(bank / 2)
            }
            _ => return None,
        };
        Some(self.runs_out_at(turn, self.turn_started_at, used_before_reminder))
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
        if self.control.has_clocks() {
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
        self.conditional = Default::default();
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

    /// Plays `mv`, already checked legal, at `now`: clocks, offers, the end
    /// of the game by the rules, and then the new mover's conditional
    /// reply if one of their lines foresaw `mv` (their tree is dropped if
    /// none did). Returns the conditional replies played after `mv`.
    pub fn play_checked(&mut self, mv: Move, now: i64) -> Vec<Move> {
        let mut replies = Vec::new();
        let mut next = Some(mv);
        while let Some(mv) = next.take() {
            self.play_one(mv, now);
            if self.is_finished() {
                break;
            }
            let waiting = self.turn();
            let tree = std::mem::take(self.conditional_mut(waiting));
            if let Some((reply, rest)) = tree.answer(mv) {
                *self.conditional_mut(waiting) = rest;
                replies.push(reply);
                next = Some(reply);
            }
        }
        replies
    }

    fn play_one(&mut self, mv: Move, now: i64) {
        let mover = self.turn();
        match self.control {
            TimeControl::Live { increment_ms, .. } => {
                let left = self.remaining_ms(mover, now);
                *self.clock_mut(mover) = left + increment_ms;
            }
            TimeControl::Bank {
                increment_ms,
                max_ms,
                ..
            } => {
                let left = self.remaining_ms(mover, now);
                *self.clock_mut(mover) = (left + increment_ms).min(max_ms);
            }
            _ => {}
        }
        // The record has the game's rules; a legal move always goes in.
        let _ = self.record.push(mv);
        self.turn_started_at = now;
        self.reminded = false;
        self.draw_offer = None;
        self.takeback_offer = None;
        self.vacations.retain(|v| v.ends_at > now);
        if let Some(outcome) = self.position().outcome() {
            let reason = match outcome.reason {
                WinReason::Crossing => EndReason::Crossing,
                WinReason::NoMoves => EndReason::NoMoves,
            };
            self.finish(GameResult::win(outcome.winner), reason, now);
        } else if self.record.is_drawn_by_repetition() {
            self.finish(GameResult::Draw, EndReason::Repetition, now);
        }
    }

    fn conditional_mut(&mut self, color: Color) -> &mut Conditional {
        &mut self.conditional[color_index(color)]
    }

    /// `color`'s conditional moves.
    pub fn conditional_of(&self, color: Color) -> &Conditional {
        &self.conditional[color_index(color)]
    }

    /// Sets `by`'s conditional moves from `text` (see
    /// [`crate::conditional`]), checked against the position now; empty
    /// text clears them.
    pub fn set_conditional(&mut self, by: Color, text: &str) -> Result<(), GameError> {
        self.refuse_if_finished()?;
        let tree = if text.trim().is_empty() {
            Conditional::none()
        } else {
            if self.turn() == by {
                return Err(GameError::Conditional(ConditionalError::YourMove));
            }
            Conditional::parse(self.position(), text).map_err(GameError::Conditional)?
        };
        *self.conditional_mut(by) = tree;
        Ok(())
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
            self.conditional = Default::default();
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
        self.record_text_with(&[])
    }

    /// The game as a record (see [`Game::record_text`]) with more tags, like
    /// a tournament's `Event` and `Round`.
    pub fn record_text_with(&self, tags: &[(&str, String)]) -> String {
        let mut record = self.record.clone();
        for (name, value) in tags {
            let _ = record.set_tag(name, value);
        }
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
            start: Position::new(
                epaminondas_rules::BoardSize::new(5, 5).unwrap(),
                epaminondas_rules::Symmetry::Mirror,
            ),
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
    fn a_time_bank_grows_by_its_increment_up_to_its_cap() {
        let hour = 3_600_000;
        let mut g = small(TimeControl::Bank {
            initial_ms: 10 * DAY_MS,
            increment_ms: 36 * hour,
            max_ms: 10 * DAY_MS,
        });
        assert_eq!(g.deadline(), Some(1_000 + 10 * DAY_MS));
        // The reminder: a day before the bank runs out.
        assert_eq!(g.remind_at(), Some(1_000 + 9 * DAY_MS));
        let t = 1_000 + 2 * DAY_MS;
        let mv = g.position().legal_moves()[0].to_string();
        g.play(Color::White, &mv, None, t).unwrap();
        assert_eq!(g.white_ms, 8 * DAY_MS + 36 * hour);
        let mv = g.position().legal_moves()[0].to_string();
        g.play(Color::Black, &mv, None, t + 12 * hour).unwrap();
        assert_eq!(g.black_ms, 10 * DAY_MS, "capped");
        assert_eq!(
            g.remaining_ms(Color::White, t + 13 * hour),
            g.white_ms - hour
        );
        // A small bank is reminded halfway.
        g.white_ms = 10 * hour;
        assert_eq!(g.remind_at(), Some(t + 12 * hour + 5 * hour));
        assert!(
            TimeControl::Bank {
                initial_ms: DAY_MS,
                increment_ms: 0,
                max_ms: DAY_MS / 2
            }
            .validate()
            .is_err()
        );
    }

    #[test]
    fn vacations_stop_the_clock_of_the_player_on_them() {
        let mut g = small(TimeControl::Correspondence { days_per_move: 2 });
        let t = 1_000;
        let away = Vacation {
            color: Color::White,
            starts_at: t + DAY_MS,
            ends_at: t + 3 * DAY_MS,
            automatic: false,
        };
        g.set_vacations(Color::White, &[away]);
        assert_eq!(g.deadline(), Some(t + 4 * DAY_MS));
        // Half the time is used when the vacation begins: the reminder
        // waits for its end.
        assert_eq!(g.remind_at(), Some(t + 3 * DAY_MS));
        assert_eq!(g.running_ms(Color::White, t, t + 3 * DAY_MS), DAY_MS);
        assert_eq!(g.on_vacation(Color::White, t + 2 * DAY_MS), Some(&away));
        assert!(!g.flag(t + 4 * DAY_MS - 1));
        // Black's vacation does not stop White's clock.
        let mut h = small(TimeControl::Correspondence { days_per_move: 2 });
        h.set_vacations(
            Color::Black,
            &[Vacation {
                color: Color::Black,
                ..away
            }],
        );
        assert_eq!(h.deadline(), Some(t + 2 * DAY_MS));
        // Live clocks never stop.
        let mut live = small(TimeControl::Live {
            initial_ms: 60_000,
            increment_ms: 0,
        });
        live.set_vacations(Color::White, &[away]);
        assert!(live.vacations.is_empty());
        // Stored and read back.
        let text = Vacation::list_text(&g.vacations);
        assert_eq!(Vacation::parse_list(&text), g.vacations);
    }

    #[test]
    fn conditional_moves_answer_at_once_and_are_dropped_when_unforeseen() {
        let mut g = small(TimeControl::Correspondence { days_per_move: 2 });
        let first = g.position().legal_moves()[0].to_string();
        assert!(matches!(
            g.set_conditional(Color::White, "a4-a3 a2-a3"),
            Err(GameError::Conditional(ConditionalError::YourMove))
        ));
        g.play(Color::White, &first, None, 5).unwrap();
        let mut probe = g.position().clone();
        let theirs = probe.legal_moves()[0];
        probe.play(theirs).unwrap();
        let mine = probe.legal_moves()[0];
        g.set_conditional(Color::White, &format!("{theirs} {mine}"))
            .unwrap();
        assert_eq!(g.conditional_of(Color::White).lines().len(), 1);
        g.play(Color::Black, &theirs.to_string(), None, 6).unwrap();
        assert_eq!(g.ply(), 3, "the reply was played at once");
        assert_eq!(g.record.moves()[2], mine);
        assert!(g.conditional_of(Color::White).is_empty());
        assert_eq!(g.turn(), Color::Black);
        // A tree that did not foresee the move is dropped.
        let mut probe = g.position().clone();
        let (foreseen, other) = (probe.legal_moves()[0], probe.legal_moves()[1]);
        probe.play(foreseen).unwrap();
        let reply = probe.legal_moves()[0];
        g.set_conditional(Color::White, &format!("{foreseen} {reply}"))
            .unwrap();
        g.play(Color::Black, &other.to_string(), None, 7).unwrap();
        assert_eq!(g.ply(), 4);
        assert!(g.conditional_of(Color::White).is_empty());
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
