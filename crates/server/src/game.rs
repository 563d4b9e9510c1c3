//! A game on the server: who plays, under what time control, the moves, the
//! clocks and pending offers, and the changes players can make to it. Pure
//! logic with no storage: the rules library decides every rule question;
//! the caller persists the changed game.

use epaminondas_rules::{
    BoardSize, Color, GameRecord, GameResult, Move, Position, Symmetry, WinReason,
};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};

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

impl TimeControl {
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

    /// Checks the numbers are sensible.
    pub fn validate(self) -> ApiResult<TimeControl> {
        match self {
            TimeControl::Correspondence { days_per_move } if !(1..=60).contains(&days_per_move) => {
                Err(ApiError::bad("days per move must be 1 to 60"))
            }
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } if !(1_000..=3 * 60 * 60 * 1000).contains(&initial_ms)
                || !(0..=10 * 60 * 1000).contains(&increment_ms) =>
            {
                Err(ApiError::bad(
                    "live time must be 1 second to 180 minutes, with an increment of 0 to 600 seconds",
                ))
            }
            other => Ok(other),
        }
    }
}

/// A registered player, as games and challenges name them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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

    /// The reason named `name`.
    pub fn from_name(name: &str) -> Option<EndReason> {
        [
            EndReason::Crossing,
            EndReason::NoMoves,
            EndReason::Resignation,
            EndReason::Agreement,
            EndReason::Time,
        ]
        .into_iter()
        .find(|r| r.name() == name)
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

/// What a change did, for the events it causes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A move was played.
    Moved(Move),
    /// The game ended.
    Ended,
    /// An offer was made, answered or a takeback carried out.
    Offer,
    /// A reminder is due for the side to move.
    Reminder,
}

impl Game {
    /// A new game from the board's starting position.
    #[allow(clippy::too_many_arguments)] // each is one of the game's settings
    pub fn new(
        id: i64,
        white: Seat,
        black: Seat,
        size: BoardSize,
        symmetry: Symmetry,
        rated: bool,
        control: TimeControl,
        now: i64,
    ) -> Game {
        let record = GameRecord::new(Position::new(size, symmetry));
        let initial = match control {
            TimeControl::Live { initial_ms, .. } => initial_ms,
            _ => 0,
        };
        let mut game = Game {
            id,
            white,
            black,
            rated,
            control,
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

    /// Writes the players' names into the record's tags.
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

    fn refuse_if_finished(&self) -> ApiResult<()> {
        match self.status {
            Status::Finished { result, reason } => Err(ApiError::conflict(format!(
                "game {} is over ({}, {})",
                self.id,
                result,
                reason.name().replace('_', " ")
            ))),
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

    /// Plays the move written `text` for `by`. `expected_ply`, when given,
    /// is the number of moves the sender saw (pbmserv's `#moveno` guard): a
    /// move sent against an older position is refused.
    pub fn play(
        &mut self,
        by: Color,
        text: &str,
        expected_ply: Option<usize>,
        now: i64,
    ) -> ApiResult<Move> {
        self.refuse_if_finished()?;
        if self.turn() != by {
            return Err(ApiError::conflict(format!(
                "it is not your turn: {} is to move",
                self.turn()
            )));
        }
        if let Some(expected) = expected_ply
            && expected != self.ply()
        {
            return Err(ApiError::conflict(format!(
                "stale move number: the move answers move {expected} but {} moves have been played",
                self.ply()
            )));
        }
        let mv = self
            .position()
            .parse_move(text.trim())
            .map_err(|e| ApiError::bad(e.to_string()))?;
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
    pub fn resign(&mut self, by: Color, now: i64) -> ApiResult<()> {
        self.refuse_if_finished()?;
        self.finish(GameResult::win(!by), EndReason::Resignation, now);
        Ok(())
    }

    /// `by` offers a draw, or accepts the opponent's pending offer.
    pub fn offer_draw(&mut self, by: Color, now: i64) -> ApiResult<()> {
        self.refuse_if_finished()?;
        match self.draw_offer {
            Some(from) if from == !by => {
                self.finish(GameResult::Draw, EndReason::Agreement, now);
            }
            Some(_) => return Err(ApiError::conflict("you have already offered a draw")),
            None => self.draw_offer = Some(by),
        }
        Ok(())
    }

    /// `by` answers the opponent's draw offer.
    pub fn answer_draw(&mut self, by: Color, accept: bool, now: i64) -> ApiResult<()> {
        self.refuse_if_finished()?;
        if self.draw_offer != Some(!by) {
            return Err(ApiError::conflict(
                "there is no draw offer from your opponent",
            ));
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

    /// `by` asks to take back their last move.
    pub fn offer_takeback(&mut self, by: Color) -> ApiResult<()> {
        self.refuse_if_finished()?;
        if self.takeback_plies(by) > self.ply() {
            return Err(ApiError::conflict("you have no move to take back"));
        }
        if self.takeback_offer == Some(by) {
            return Err(ApiError::conflict("you have already asked for a takeback"));
        }
        self.takeback_offer = Some(by);
        Ok(())
    }

    /// `by` answers the opponent's takeback request.
    pub fn answer_takeback(&mut self, by: Color, accept: bool, now: i64) -> ApiResult<()> {
        self.refuse_if_finished()?;
        let Some(asker) = self.takeback_offer.filter(|&c| c == !by) else {
            return Err(ApiError::conflict(
                "there is no takeback request from your opponent",
            ));
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

    /// The game as a record, with the players and the result.
    pub fn record_text(&self) -> String {
        let mut record = self.record.clone();
        if let Status::Finished { result, .. } = self.status {
            let _ = record.set_result(result);
        }
        record.to_string()
    }
}

/// The name of a colour in the API: `white` or `black`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Game {
    /// The game as the API and the streams show it at `now`; with the legal
    /// moves of the side to move when `legal` (the page has no rules of its
    /// own).
    pub fn view(&self, now: i64, legal: bool) -> serde_json::Value {
        let seat = |seat: &Seat| match seat {
            Seat::Human(p) => serde_json::json!({ "name": p.name, "id": p.id }),
            Seat::Engine(level) => {
                serde_json::json!({ "name": seat.name(), "engine_level": level })
            }
        };
        let (status, result, reason, winner) = match self.status {
            Status::Active => ("active", None, None, None),
            Status::Finished { result, reason } => {
                let winner = match result {
                    GameResult::WhiteWins => Some("white"),
                    GameResult::BlackWins => Some("black"),
                    _ => None,
                };
                (
                    "finished",
                    Some(result.token()),
                    Some(reason.name()),
                    winner,
                )
            }
        };
        let pos = self.position();
        let clocks = match self.control {
            TimeControl::Live { .. } => serde_json::json!({
                "white_ms": self.remaining_ms(Color::White, now).max(0),
                "black_ms": self.remaining_ms(Color::Black, now).max(0),
            }),
            _ => serde_json::Value::Null,
        };
        let last = self.record.moves().last();
        let mut view = serde_json::json!({
            "id": self.id,
            "white": seat(&self.white),
            "black": seat(&self.black),
            "board": pos.size().to_string(),
            "files": pos.size().files(),
            "ranks": pos.size().ranks(),
            "symmetry": pos.symmetry().name(),
            "rated": self.rated,
            "time": self.control,
            "moves": self.move_texts(),
            "ply": self.ply(),
            "turn": color_name(self.turn()),
            "position": pos.to_setup().to_string(),
            "goal": {
                "white": pos.goal_count(Color::White),
                "black": pos.goal_count(Color::Black),
            },
            "last_move": last.map(|m| m.with_capture_mark().to_string()),
            "status": status,
            "result": result,
            "reason": reason,
            "winner": winner,
            "clocks": clocks,
            "deadline_at": self.deadline(),
            "draw_offer": self.draw_offer.map(color_name),
            "takeback_offer": self.takeback_offer.map(color_name),
            "created_at": self.created_at,
            "ended_at": self.ended_at,
        });
        view["rows"] = crate::board::rows(pos).into();
        view["last"] = last.map_or(serde_json::Value::Null, |&mv| crate::board::move_view(mv));
        if legal {
            let moves: Vec<String> = if self.is_finished() {
                Vec::new()
            } else {
                pos.legal_moves().iter().map(Move::to_string).collect()
            };
            view["legal_moves"] = moves.into();
            view["legal"] = if self.is_finished() {
                Vec::<serde_json::Value>::new().into()
            } else {
                crate::board::legal_views(pos).into()
            };
        }
        view
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
        let size = BoardSize::new(5, 5).unwrap();
        Game::new(
            101,
            alice(),
            bob(),
            size,
            Symmetry::Mirror,
            true,
            control,
            1_000,
        )
    }

    #[test]
    fn moves_turns_and_the_move_number_guard() {
        let mut g = small(TimeControl::Unlimited);
        assert!(g.play(Color::Black, "a5-a4", None, 0).is_err());
        let first = g.position().legal_moves()[0].to_string();
        assert!(matches!(
            g.play(Color::White, &first, Some(1), 0),
            Err(ApiError::Conflict(_))
        ));
        assert!(matches!(
            g.play(Color::White, "zz", None, 0),
            Err(ApiError::BadRequest(_))
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
        assert!(g.resign(Color::White, 15_000).is_err());
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
        assert!(g.offer_takeback(Color::White).is_err());
        let mv = g.position().legal_moves()[0].to_string();
        g.play(Color::White, &mv, None, 0).unwrap();
        g.offer_takeback(Color::White).unwrap();
        assert!(g.answer_takeback(Color::White, true, 0).is_err());
        g.answer_takeback(Color::Black, true, 0).unwrap();
        assert_eq!(g.ply(), 0);
        g.offer_draw(Color::White, 0).unwrap();
        g.answer_draw(Color::Black, false, 0).unwrap();
        assert!(g.answer_draw(Color::Black, true, 0).is_err());
        g.offer_draw(Color::Black, 0).unwrap();
        g.offer_draw(Color::White, 0).unwrap();
        assert!(g.is_finished());
        assert!(g.record_text().contains("1/2-1/2"));
    }
}
