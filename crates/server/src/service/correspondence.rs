//! The comforts of correspondence play: vacations (taken ahead of time, or
//! taken by the server when a player's time runs out, if they allow it),
//! the cap on running correspondence games, conditional moves, the chat's
//! mute and report, and the list of games waiting for the player's move.

use std::sync::Arc;

use epaminondas_rules::Color;

use super::Service;
use crate::auth::AuthUser;
use crate::error::{Error, Result};
use crate::game::{DAY_MS, Game, Vacation};
use crate::store::{self, ChatRoom, CorrespondenceOptions, VacationRow};

/// The longest vacation that may be taken at once, in days.
pub const MAX_VACATION_DAYS: i64 = 60;
/// How far ahead a vacation may be booked, in days.
pub const VACATION_BOOKING_DAYS: i64 = 365;
/// The most reports a player may file in an hour.
const REPORTS_PER_HOUR: u32 = 10;
/// The most times a player may set their conditional moves in a minute
/// (each is a write of the game and a message to its watchers).
const CONDITIONAL_PER_MINUTE: u32 = 30;

/// A player's vacation allowance and vacations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VacationInfo {
    /// Days a year the site allows.
    pub allowance_days: i64,
    /// Days counted against this year's allowance.
    pub used_days: i64,
    /// The vacations not yet over, earliest first.
    pub vacations: Vec<VacationRow>,
    /// The player's correspondence settings.
    pub options: CorrespondenceOptions,
}

/// A game waiting for the player's move, for the dashboard.
#[derive(Clone, Debug)]
pub struct Waiting {
    /// The game.
    pub game: Game,
    /// Milliseconds left for the move (`None`: no time limit).
    pub left_ms: Option<i64>,
}

/// The calendar year (UTC) of the moment `ms`, and the span of that year.
fn year_of(ms: i64) -> (i64, i64, i64) {
    let seconds = u64::try_from(ms.max(0) / 1000).unwrap_or(0);
    let year: i64 = epaminondas_rules::pgn_date(seconds)[..4]
        .parse()
        .unwrap_or(1970);
    (year, year_start(year), year_start(year + 1))
}

/// Midnight UTC on the first of January of `year`, in milliseconds.
fn year_start(year: i64) -> i64 {
    // Days from 1970-01-01 to `year`-01-01 (proleptic Gregorian).
    let y = year - 1;
    let days =
        365 * (year - 1970) + (y / 4 - y / 100 + y / 400) - (1969 / 4 - 1969 / 100 + 1969 / 400);
    days * DAY_MS
}

/// Whole days a stretch of time counts against the allowance (a part of a
/// day counts as a day).
fn days_charged(starts_at: i64, ends_at: i64) -> i64 {
    ((ends_at - starts_at).max(0) + DAY_MS - 1) / DAY_MS
}

impl Service {
    /// Days of the allowance `user` has used in the year of the moment `at`.
    async fn vacation_days_used(&self, user: i64, at: i64) -> Result<i64> {
        let (_, from, to) = year_of(at);
        let taken = store::vacations_starting(&self.db, user, from, to).await?;
        Ok(taken.iter().map(|&(s, e)| days_charged(s, e)).sum())
    }

    /// `user`'s allowance, days used this year, vacations and settings.
    pub async fn vacation_info(&self, user: &AuthUser) -> Result<VacationInfo> {
        let id = user.player.id;
        let now = self.now();
        Ok(VacationInfo {
            allowance_days: self.vacation_days,
            used_days: self.vacation_days_used(id, now).await?,
            vacations: store::vacations_of(&self.db, id, now).await?,
            options: store::correspondence_options(&self.db, id).await?,
        })
    }

    /// Takes a vacation of `days` whole days for `user`, from `starts_at`
    /// (now when `None`): the player's correspondence clocks stop for it.
    pub async fn take_vacation(
        self: &Arc<Self>,
        user: &AuthUser,
        starts_at: Option<i64>,
        days: i64,
    ) -> Result<VacationRow> {
        user.require_play()?;
        if user.guest {
            return Err(Error::forbidden("guests play no correspondence games"));
        }
        let now = self.now();
        let start = starts_at.unwrap_or(now).max(now);
        if starts_at.is_some_and(|s| s < now - 60_000) {
            return Err(Error::invalid("a vacation cannot begin in the past"));
        }
        if start > now + VACATION_BOOKING_DAYS * DAY_MS {
            return Err(Error::invalid(format!(
                "a vacation may be booked at most {VACATION_BOOKING_DAYS} days ahead"
            )));
        }
        if !(1..=MAX_VACATION_DAYS).contains(&days) {
            return Err(Error::invalid(format!(
                "a vacation is 1 to {MAX_VACATION_DAYS} days"
            )));
        }
        let end = start + days * DAY_MS;
        let id = user.player.id;
        let existing = store::vacations_of(&self.db, id, now).await?;
        if let Some(v) = existing
            .iter()
            .find(|v| v.starts_at < end && start < v.ends_at)
        {
            return Err(Error::conflict(format!(
                "you already have a vacation from {} to {}",
                crate::pbm::text::utc_time(v.starts_at),
                crate::pbm::text::utc_time(v.ends_at)
            )));
        }
        let used = self.vacation_days_used(id, start).await?;
        if used + days > self.vacation_days {
            return Err(Error::forbidden(format!(
                "that is more than your vacation allowance: {} of {} days left for {}",
                (self.vacation_days - used).max(0),
                self.vacation_days,
                year_of(start).0
            )));
        }
        let vid = store::insert_vacation(&self.db, id, start, end, false, now).await?;
        self.apply_vacations(id).await;
        Ok(VacationRow {
            id: vid,
            starts_at: start,
            ends_at: end,
            automatic: false,
        })
    }

    /// Ends `user`'s vacation `vacation` now (or cancels it if it has not
    /// begun); the unused whole days return to the allowance.
    pub async fn end_vacation(self: &Arc<Self>, user: &AuthUser, vacation: i64) -> Result<()> {
        user.require_play()?;
        let id = user.player.id;
        if !store::end_vacation(&self.db, id, vacation, self.now()).await? {
            return Err(Error::invalid(format!(
                "you have no vacation {vacation} that is not over"
            )));
        }
        self.apply_vacations(id).await;
        Ok(())
    }

    /// Changes `user`'s correspondence settings.
    pub async fn set_correspondence_options(
        &self,
        user: &AuthUser,
        options: CorrespondenceOptions,
    ) -> Result<()> {
        user.require_play()?;
        if !(0..=1000).contains(&options.max_correspondence) {
            return Err(Error::invalid(
                "the cap on correspondence games is 0 (none) to 1000",
            ));
        }
        store::set_correspondence_options(&self.db, user.player.id, options).await
    }

    /// `player`'s vacations as a game's clocks see them.
    async fn vacation_periods(&self, player: i64, since: i64) -> Result<Vec<Vacation>> {
        Ok(store::vacations_of(&self.db, player, since)
            .await?
            .into_iter()
            .map(|v| Vacation {
                color: Color::White,
                starts_at: v.starts_at,
                ends_at: v.ends_at,
                automatic: v.automatic,
            })
            .collect())
    }

    /// Writes `player`'s vacations into each of their running
    /// correspondence games (their clocks and deadlines move with them).
    pub(super) async fn apply_vacations(self: &Arc<Self>, player: i64) {
        let games = match store::active_correspondence_games(&self.db, player).await {
            Ok(games) => games,
            Err(e) => {
                tracing::warn!("reading the games of player {player}: {e}");
                return;
            }
        };
        // Vacations that ended in the last year may still matter to a turn
        // that began before they did.
        let since = self.now() - 365 * DAY_MS;
        let periods = match self.vacation_periods(player, since).await {
            Ok(periods) => periods,
            Err(e) => {
                tracing::warn!("reading the vacations of player {player}: {e}");
                return;
            }
        };
        for id in games {
            let result = self
                .change_game(id, |g, _| {
                    let color = g.color_of(player).ok_or(Error::NotAPlayer(id))?;
                    let before = g.vacations.clone();
                    g.set_vacations(color, &periods);
                    if g.vacations == before {
                        Err(Error::conflict("no change"))
                    } else {
                        Ok(())
                    }
                })
                .await;
            if let Err(Error::Internal(e)) = result {
                tracing::warn!("moving the clocks of game {id}: {e}");
            }
        }
    }

    /// [`Service::apply_vacations`] in the background.
    pub(super) fn apply_vacations_later(self: Arc<Self>, player: i64) {
        tokio::spawn(async move { self.apply_vacations(player).await });
    }

    /// Sets both players' vacations into a new game.
    pub(super) async fn with_vacations(&self, game: &mut Game) -> Result<()> {
        if !game.control.is_correspondence() {
            return Ok(());
        }
        for color in [Color::White, Color::Black] {
            if let Some(player) = game.seat(color).player_id() {
                let periods = self.vacation_periods(player, game.turn_started_at).await?;
                game.set_vacations(color, &periods);
            }
        }
        Ok(())
    }

    /// Before a correspondence player loses on time in `game` at `now`:
    /// the vacations they have booked since the game last looked, and, if
    /// they allow automatic vacation and have days left, vacation days
    /// taken from the moment their time ran out. The player's vacations
    /// (to set in the game) if that changes anything.
    pub(super) async fn rescue_from_time_out(
        &self,
        game: &Game,
        now: i64,
    ) -> Result<Option<Vec<Vacation>>> {
        let turn = game.turn();
        let Some(player) = game.seat(turn).player_id() else {
            return Ok(None);
        };
        if !game.control.is_correspondence() {
            return Ok(None);
        }
        let options = store::correspondence_options(&self.db, player).await?;
        let mut probe = game.clone();
        // A day at a time, and never more days than a year has.
        let mut last = None;
        for _ in 0..=366 {
            let periods = self.vacation_periods(player, game.turn_started_at).await?;
            probe.set_vacations(turn, &periods);
            let deadline = match probe.deadline() {
                Some(d) if d <= now && last != Some(d) => d,
                _ => break,
            };
            last = Some(deadline);
            if !options.auto_vacation
                || self.vacation_days_used(player, deadline).await? + 1 > self.vacation_days
            {
                break;
            }
            store::insert_vacation(&self.db, player, deadline, deadline + DAY_MS, true, now)
                .await?;
        }
        Ok((probe.vacations != game.vacations).then(|| {
            probe
                .vacations
                .iter()
                .filter(|v| v.color == turn)
                .copied()
                .collect()
        }))
    }

    /// Whether `player` may start another correspondence game; `who` names
    /// them in the refusal ("you" or their name).
    pub(super) async fn check_correspondence_room(&self, player: i64, who: &str) -> Result<()> {
        let options = store::correspondence_options(&self.db, player).await?;
        if options.max_correspondence == 0 {
            return Ok(());
        }
        let running = store::active_correspondence_games(&self.db, player)
            .await?
            .len();
        if i64::try_from(running).unwrap_or(i64::MAX) >= options.max_correspondence {
            return Err(Error::conflict(format!(
                "{who} already play{} {running} correspondence games, the most {} set",
                if who == "you" { "" } else { "s" },
                if who == "you" { "you" } else { "they" }
            )));
        }
        Ok(())
    }

    /// Sets `user`'s conditional moves in game `id` from `text` (lines of
    /// alternating moves, the opponent's first; empty clears them).
    pub async fn set_conditional(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
        text: &str,
    ) -> Result<Game> {
        user.require_play()?;
        if text.len() > 20_000 {
            return Err(Error::invalid("the conditional moves are too long"));
        }
        let key = format!("conditional {}", user.player.id);
        if let Err(retry_after_s) =
            self.mail_senders
                .try_add(key, CONDITIONAL_PER_MINUTE, self.now())
        {
            return Err(Error::RateLimited {
                what: "conditional moves set too often".into(),
                retry_after_s,
            });
        }
        self.change_game(id, |g, _| {
            let side = g.color_of(user.player.id).ok_or(Error::NotAPlayer(id))?;
            Ok(g.set_conditional(side, text)?)
        })
        .await
    }

    /// `user`'s conditional moves in game `id`, as lines of move texts.
    pub async fn conditional(&self, user: &AuthUser, id: i64) -> Result<(Game, Vec<Vec<String>>)> {
        let game = self.game(id).await?;
        let side = game.color_of(user.player.id).ok_or(Error::NotAPlayer(id))?;
        let lines = game.conditional_of(side).texts();
        Ok((game, lines))
    }

    /// Mutes (or unmutes) the opponent's chat in game `id` for `user`: their
    /// messages are neither shown nor mailed to `user`.
    pub async fn mute_chat(&self, user: &AuthUser, id: i64, muted: bool) -> Result<()> {
        user.require_play()?;
        let game = self.game(id).await?;
        game.color_of(user.player.id).ok_or(Error::NotAPlayer(id))?;
        store::set_chat_muted(&self.db, user.player.id, id, muted, self.now()).await
    }

    /// `user` reports chat message `message` of a game they play, with a
    /// reason, for the site's operator (`epaminondas reports`).
    pub async fn report_chat(&self, user: &AuthUser, message: i64, reason: &str) -> Result<()> {
        user.require_play()?;
        let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
        if reason.chars().count() > 500 {
            return Err(Error::invalid(
                "a report's reason is at most 500 characters",
            ));
        }
        let Some(origin) = store::chat_message_origin(&self.db, message).await? else {
            return Err(Error::invalid(format!(
                "there is no chat message {message}"
            )));
        };
        let game = self.game(origin.game).await?;
        let playing = game.color_of(user.player.id).is_some();
        // A message may be reported by whoever may read it.
        let readable = match origin.room {
            ChatRoom::Players => playing,
            ChatRoom::Spectators => !playing || game.is_finished(),
        };
        if !readable {
            return Err(Error::NotAPlayer(origin.game));
        }
        if origin.author == user.player.id {
            return Err(Error::invalid("you cannot report your own message"));
        }
        let key = format!("report {}", user.player.id);
        if let Err(retry_after_s) = self.mail_errors.try_add(key, REPORTS_PER_HOUR, self.now()) {
            return Err(Error::RateLimited {
                what: "too many reports".into(),
                retry_after_s,
            });
        }
        let reason = if reason.is_empty() { "abuse" } else { &reason };
        if !store::insert_chat_report(&self.db, message, user.player.id, reason, self.now()).await?
        {
            return Err(Error::conflict("you have already reported this message"));
        }
        Ok(())
    }

    /// `user` reports the opponent's latest chat message in game `id` (for
    /// the doors without message numbers: pbmserv's commands and mail).
    pub async fn report_latest_chat(&self, user: &AuthUser, id: i64, reason: &str) -> Result<i64> {
        let (messages, _) = self.chat_messages(user, id).await?;
        let latest = messages
            .iter()
            .rev()
            .find(|m| m.author != user.player.name)
            .ok_or_else(|| {
                Error::invalid(format!("your opponent has written nothing on board {id}"))
            })?;
        self.report_chat(user, latest.id, reason).await?;
        Ok(latest.id)
    }

    /// `user`'s active games where it is their move, the least time left
    /// first (games without a limit last).
    pub async fn waiting_games(&self, user: &AuthUser) -> Result<Vec<Waiting>> {
        let id = user.player.id;
        let now = self.now();
        let games = store::games_of(&self.db, id, true, super::GAMES_LISTED).await?;
        let mut waiting: Vec<Waiting> = games
            .into_iter()
            .filter(|g| g.color_of(id) == Some(g.turn()))
            .map(|game| {
                let left_ms = game
                    .deadline()
                    .map(|d| game.running_ms(game.turn(), now, d));
                Waiting { game, left_ms }
            })
            .collect();
        waiting.sort_by_key(|w| (w.left_ms.unwrap_or(i64::MAX), w.game.id));
        Ok(waiting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_begin_where_the_calendar_says() {
        // 2026-01-01 and 2024-01-01 (after a leap year's start) in ms.
        assert_eq!(year_start(2026), 1_767_225_600_000);
        assert_eq!(year_start(2024), 1_704_067_200_000);
        assert_eq!(year_start(1970), 0);
        assert_eq!(year_of(1_795_478_400_000).0, 2026);
        assert_eq!(year_of(year_start(2027) - 1).0, 2026);
        assert_eq!(year_of(year_start(2027)).0, 2027);
    }

    #[test]
    fn part_of_a_day_counts_as_a_day() {
        assert_eq!(days_charged(0, 1), 1);
        assert_eq!(days_charged(0, DAY_MS), 1);
        assert_eq!(days_charged(0, DAY_MS + 1), 2);
        assert_eq!(days_charged(5, 5), 0);
    }
}
