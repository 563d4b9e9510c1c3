//! Mail in the game domain: the notifications a change causes (put in the
//! outbox in the change's own transaction), the commands that arrive by
//! mail, and the account mail (address verification, password reset,
//! address change, what each player gets).

use std::collections::HashMap;
use std::sync::Arc;

use super::Service;
use crate::auth::{self, AuthUser};
use crate::challenge::Challenge;
use crate::error::{Error, Result};
use crate::game::{Game, Seat, TimeControl};
use crate::mail::compose;
use crate::mail::inbound::{self, Envelope, InboundError};
use crate::mail::{MailKind, MailMode, MailProfile, MailSettings, NewToken, OutMail, new_token};
use crate::pbm::{self, Acting};
use crate::store::{self, ChatRoom};

/// How long a mailed address verification works.
const VERIFY_MS: i64 = 7 * 24 * 3_600_000;
/// How long a mailed password-reset link works.
const RESET_MS: i64 = 3_600_000;
/// How long a reply address or unsubscribe link works.
const REPLY_MS: i64 = 60 * 24 * 3_600_000;
/// The most messages a minute in one game's spectators' chat, all writers
/// together (each game's watchers are told of every one).
pub const SPECTATOR_MESSAGES_PER_MINUTE: u32 = 30;

/// The spectators' chat of a game as one visitor sees it.
#[derive(Clone, Debug)]
pub struct SpectatorChat {
    /// Whether a player (or the organizer) opened it.
    pub open: bool,
    /// Whether it is hidden from this visitor, a player of the running game.
    pub hidden: bool,
    /// Whether this visitor may open or close it.
    pub may_switch: bool,
    /// Whether this visitor may write in it.
    pub may_post: bool,
    /// The last 200 messages, oldest first (none when closed or hidden).
    pub messages: Vec<store::ChatMessage>,
}

/// The most characters of a chat message.
pub const MAX_CHAT: usize = 500;
/// How many times an hour one address gets the same error reply: a loop with
/// an auto-responder that does not mark its mail stops here, while a person
/// who makes different mistakes is always answered.
const SAME_ERROR_REPLIES_PER_HOUR: u32 = 3;

/// What became of a received message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MailOutcome {
    /// Why it got no reply and was not acted on, if so.
    pub ignored: Option<String>,
    /// The answers to its commands, as replied.
    pub answers: Vec<String>,
    /// Whether a reply was queued.
    pub replied: bool,
}

impl Service {
    /// The mail setup, when the server sends mail (a relay is set).
    pub fn sending(&self) -> Option<&MailSettings> {
        self.mail.as_ref().filter(|m| m.relay.is_some())
    }

    /// The mail setup, when the server has one at all.
    pub fn mail_settings(&self) -> Option<&MailSettings> {
        self.mail.as_ref()
    }

    /// A new token of `kind` for `user`: the secret and what to store.
    fn mail_token(
        &self,
        kind: &str,
        user: i64,
        game: Option<i64>,
        email: Option<&str>,
        ttl: i64,
    ) -> (String, NewToken) {
        let secret = new_token();
        let token = NewToken {
            hash: auth::hash_secret(&secret),
            kind: kind.to_owned(),
            user_id: user,
            game_id: game,
            email: email.map(str::to_owned),
            expires_at: Some(self.now() + ttl),
        };
        (secret, token)
    }

    /// Adds a reply address (for `number`, a game or challenge) and an
    /// unsubscribe link to `mail`; returns them.
    fn with_tokens(
        &self,
        settings: &MailSettings,
        to: &MailProfile,
        number: i64,
    ) -> (String, String, Vec<NewToken>) {
        let (reply, reply_token) =
            self.mail_token("reply", to.user_id, Some(number), None, REPLY_MS);
        let (stop, stop_token) = self.mail_token("unsubscribe", to.user_id, None, None, REPLY_MS);
        (
            settings.reply_address(&reply),
            settings.link(&format!("/mail/unsubscribe/{stop}")),
            vec![reply_token, stop_token],
        )
    }

    /// The mail about `game` of `kind` for `to`, with its reply and
    /// unsubscribe addresses, if `to` wants that kind.
    fn game_notice(
        &self,
        settings: &MailSettings,
        game: &Game,
        to: &MailProfile,
        kind: MailKind,
        subject: String,
        lead: &str,
    ) -> Option<OutMail> {
        let digest = to.wants(kind)?;
        let (reply, stop, tokens) = self.with_tokens(settings, to, game.id);
        let mut mail = compose::game_mail(
            settings,
            game,
            to,
            kind,
            subject,
            lead,
            Some(reply),
            stop,
            self.now(),
        );
        mail.tokens = tokens;
        mail.digest = digest;
        Some(mail)
    }

    /// The mail profiles of the human players of `game`.
    async fn players_profiles(&self, game: &Game) -> HashMap<i64, MailProfile> {
        let mut profiles = HashMap::new();
        for seat in [&game.white, &game.black] {
            if let Seat::Human(player) = seat {
                match store::mail_profile(&self.db, player.id).await {
                    Ok(Some(profile)) => {
                        profiles.insert(player.id, profile);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!("reading the mail choices of player {}: {e}", player.id)
                    }
                }
            }
        }
        profiles
    }

    /// The notifications the change from `before` to `after` causes.
    pub(super) async fn mails_for_change(&self, before: &Game, after: &Game) -> Vec<OutMail> {
        let Some(settings) = self.sending() else {
            return Vec::new();
        };
        // Live games are played on the site, and the computer answers at
        // once: neither is played by mail.
        let by_mail = !matches!(after.control, TimeControl::Live { .. })
            && !matches!(after.white, Seat::Engine(_))
            && !matches!(after.black, Seat::Engine(_));
        if !by_mail {
            return Vec::new();
        }
        let profiles = self.players_profiles(after).await;
        let mut mails = Vec::new();
        let mut send = |to: &MailProfile, kind: MailKind, subject: String, lead: String| {
            mails.extend(self.game_notice(settings, after, to, kind, subject, &lead));
        };
        if compose::ended(before, after) {
            let (subject, lead) = compose::end_words(after);
            for to in profiles.values() {
                send(to, MailKind::End, subject.clone(), lead.clone());
            }
            return mails;
        }
        // An automatic vacation is announced to both players.
        if let Some(v) = after
            .vacations
            .iter()
            .find(|v| v.automatic && !before.vacations.contains(v))
        {
            let (subject, lead) = compose::vacation_words(after, v);
            for to in profiles.values() {
                send(to, MailKind::Reminder, subject.clone(), lead.clone());
            }
        }
        if after.ply() > before.ply() {
            let to_move = after.seat(after.turn()).player_id();
            for to in profiles.values() {
                let (subject, lead) = compose::move_words(after, to);
                if Some(to.user_id) == to_move && to.wants(MailKind::Turn).is_some() {
                    send(to, MailKind::Turn, subject, lead);
                } else {
                    send(to, MailKind::EveryMove, subject, lead);
                }
            }
        }
        if after.reminded && !before.reminded {
            if let Some(to) = after
                .seat(after.turn())
                .player_id()
                .and_then(|id| profiles.get(&id))
            {
                let (subject, lead) = compose::reminder_words(after, self.now());
                send(to, MailKind::Reminder, subject, lead);
            }
        }
        for (draw, was, now) in [
            (true, before.draw_offer, after.draw_offer),
            (false, before.takeback_offer, after.takeback_offer),
        ] {
            if let (None, Some(by)) = (was, now)
                && let Some(to) = after.seat(!by).player_id().and_then(|id| profiles.get(&id))
            {
                let (subject, lead) = compose::offer_words(after, draw);
                send(to, MailKind::Offer, subject, lead);
            }
        }
        mails
    }

    /// Player `id`'s mail profile when mail is sent and they have an address.
    pub(super) async fn profile_for_mail(&self, id: i64) -> Option<MailProfile> {
        self.sending()?;
        store::mail_profile(&self.db, id).await.ok().flatten()
    }

    /// The mail about `challenge` to `to`, with `lead`; a reply address (to
    /// answer by mail) when `answerable`.
    pub(super) fn challenge_mails(
        &self,
        challenge: &Challenge,
        to: Option<&MailProfile>,
        lead: &str,
        answerable: bool,
    ) -> Vec<OutMail> {
        let (Some(settings), Some(to)) = (self.sending(), to) else {
            return Vec::new();
        };
        let Some(digest) = to.wants(MailKind::Challenge) else {
            return Vec::new();
        };
        let (reply, stop, tokens) = self.with_tokens(settings, to, challenge.id);
        let mut mail = compose::challenge_mail(
            settings,
            challenge,
            to,
            lead,
            answerable.then_some(reply),
            stop,
        );
        mail.tokens = tokens;
        mail.digest = digest;
        vec![mail]
    }

    /// The mails when a challenge becomes `game`: the challenger is told,
    /// and the first player to move (if playing by mail) gets the board.
    pub(super) fn game_start_mails(
        &self,
        game: &Game,
        challenger: Option<&MailProfile>,
        accepter: &str,
        profiles: &[&MailProfile],
    ) -> Vec<OutMail> {
        let Some(settings) = self.sending() else {
            return Vec::new();
        };
        if matches!(game.control, TimeControl::Live { .. }) {
            return Vec::new();
        }
        let mut mails = Vec::new();
        let first = game.seat(game.turn()).player_id();
        let first_mover = profiles.iter().find(|p| Some(p.user_id) == first);
        // The challenger who also moves first gets one mail, not two.
        let told_with_the_board = first_mover.is_some_and(|p| {
            challenger.is_some_and(|c| c.user_id == p.user_id) && p.wants(MailKind::Turn).is_some()
        });
        if let Some(to) = challenger
            && !told_with_the_board
        {
            let subject = format!(
                "Epaminondas board {}: {accepter} accepted your challenge",
                game.id
            );
            let lead = format!(
                "{accepter} accepted your challenge: board {} begins.",
                game.id
            );
            mails.extend(self.game_notice(settings, game, to, MailKind::Challenge, subject, &lead));
        }
        if let Some(to) = first_mover {
            let (subject, lead) = if told_with_the_board {
                (
                    format!(
                        "Epaminondas board {}: {accepter} accepted your challenge; your move (move 1)",
                        game.id
                    ),
                    format!(
                        "{accepter} accepted your challenge: board {} begins, and you have the first move.",
                        game.id
                    ),
                )
            } else {
                (
                    format!("Epaminondas board {}: your move (move 1)", game.id),
                    format!("Board {} begins, and you have the first move.", game.id),
                )
            };
            mails.extend(self.game_notice(settings, game, to, MailKind::Turn, subject, &lead));
        }
        mails
    }

    /// Queues the mail that verifies `email` for `user` (only this goes to an
    /// address before it is verified).
    pub(super) async fn mail_verification(
        &self,
        user: i64,
        name: &str,
        email: &str,
    ) -> Result<bool> {
        let Some(settings) = self.sending() else {
            return Ok(false);
        };
        let (secret, token) = self.mail_token("verify", user, None, Some(email), VERIFY_MS);
        let mut mail = compose::verify_mail(settings, user, name, email, &secret);
        mail.tokens = vec![token];
        store::queue_mail_now(&self.db, &[mail], self.now()).await?;
        self.mail_waiting.notify_one();
        Ok(true)
    }

    /// Whether `addr` may ask for another password-reset mail (five a
    /// minute), so that nobody floods an address with them.
    pub fn reset_allowed(&self, addr: std::net::IpAddr) -> Result<()> {
        self.mail_senders
            .try_add(format!("reset {addr}"), 5, self.now())
            .map(|_| ())
            .map_err(|retry_after_s| Error::RateLimited {
                what: "too many password resets asked from your address".into(),
                retry_after_s,
            })
    }

    /// Confirms the address a verification token was mailed to.
    pub async fn verify_email(&self, secret: &str) -> Result<String> {
        let hash = auth::hash_secret(secret.trim());
        let row = store::find_token(&self.db, &hash)
            .await?
            .filter(|t| t.kind == "verify")
            .ok_or_else(|| {
                Error::invalid("this link is not valid: ask for a new one from your settings")
            })?;
        if row.expires_at.is_some_and(|at| at < self.now()) {
            return Err(Error::invalid(
                "this link has expired: ask for a new one from your settings",
            ));
        }
        if !store::use_token(&self.db, &hash, self.now()).await? {
            return Err(Error::conflict(
                "this link was used already: the address is confirmed",
            ));
        }
        let email = row.email.unwrap_or_default();
        store::set_verified_email(&self.db, row.user_id, &email, self.now()).await?;
        Ok(email)
    }

    /// Mails a password-reset link to the verified address of the account
    /// named (or with the address) `who`. Says nothing of whether there is
    /// one, so that addresses cannot be probed.
    pub async fn request_password_reset(&self, who: &str) -> Result<()> {
        let Some(settings) = self.sending() else {
            return Err(Error::invalid(
                "this server sends no mail: ask its operator to reset your password",
            ));
        };
        let who = who.trim();
        let profile = if who.contains('@') {
            store::profile_by_email(&self.db, who).await?
        } else {
            match store::user_by_name(&self.db, who).await? {
                Some(user) => store::mail_profile(&self.db, user.player.id).await?,
                None => None,
            }
        };
        let Some(profile) = profile.filter(|p| p.verified) else {
            return Ok(());
        };
        // Three links an hour per account, however many addresses ask (the
        // answer stays the same, so the limit tells nobody anything).
        let key = format!("reset {}", profile.user_id);
        if self.mail_errors.try_add(key, 3, self.now()).is_err() {
            return Ok(());
        }
        let (secret, token) = self.mail_token("reset", profile.user_id, None, None, RESET_MS);
        let mut mail = compose::reset_mail(
            settings,
            profile.user_id,
            &profile.name,
            &profile.email,
            &secret,
        );
        mail.tokens = vec![token];
        store::queue_mail_now(&self.db, &[mail], self.now()).await?;
        self.mail_waiting.notify_one();
        Ok(())
    }

    /// Sets a new password with a mailed reset token (once, within the hour);
    /// every session of the account ends.
    pub async fn reset_password(&self, secret: &str, password: &str) -> Result<String> {
        auth::check_password(password)?;
        let hash = auth::hash_secret(secret.trim());
        let row = store::find_token(&self.db, &hash)
            .await?
            .filter(|t| t.kind == "reset" && t.used_at.is_none())
            .ok_or_else(|| {
                Error::invalid("this link is not valid or was used: ask for a new one")
            })?;
        if row.expires_at.is_some_and(|at| at < self.now()) {
            return Err(Error::invalid("this link has expired: ask for a new one"));
        }
        if !store::use_token(&self.db, &hash, self.now()).await? {
            return Err(Error::invalid(
                "this link was used already: ask for a new one",
            ));
        }
        let user = store::user_by_id(&self.db, row.user_id)
            .await?
            .ok_or_else(|| Error::invalid("the account no longer exists"))?;
        let hashed = super::hash_blocking(password.to_owned()).await?;
        store::set_password(&self.db, row.user_id, &hashed).await?;
        store::delete_sessions_of(&self.db, row.user_id, None).await?;
        Ok(user.player.name)
    }

    /// Changes `user`'s address to `email` (with their password): the new
    /// address is verified by mail before anything else goes to it.
    pub async fn change_email(
        &self,
        user: &AuthUser,
        password: &str,
        email: &str,
        addr: std::net::IpAddr,
    ) -> Result<bool> {
        auth::check_email(email)?;
        let email = email.trim().to_owned();
        self.check_password(&user.player.name, password, addr)
            .await?;
        // Nobody may use the site to flood an address with verifications.
        let key = format!("verify {}", user.player.id);
        if let Err(retry_after_s) = self.mail_errors.try_add(key, 5, self.now()) {
            return Err(Error::RateLimited {
                what: "five verification mails an hour are the most".into(),
                retry_after_s,
            });
        }
        self.mail_verification(user.player.id, &user.player.name, &email)
            .await
    }

    /// What `user` gets mailed, and the last delivery failure, if any.
    pub async fn mail_choices(&self, user: &AuthUser) -> Result<(MailProfile, Option<String>)> {
        let profile = store::mail_profile(&self.db, user.player.id)
            .await?
            .ok_or_else(|| Error::invalid("this account has no e-mail address"))?;
        let failure = store::mail_failure(&self.db, user.player.id).await?;
        Ok((profile, failure))
    }

    /// Sets what `user` gets mailed.
    pub async fn set_mail_choices(
        &self,
        user: &AuthUser,
        mode: MailMode,
        kinds: &[MailKind],
    ) -> Result<()> {
        let mut unique = Vec::new();
        for kind in kinds {
            if !unique.contains(kind) {
                unique.push(*kind);
            }
        }
        store::set_mail_choices(&self.db, user.player.id, mode, &unique).await
    }

    /// Stops every notification to the player an unsubscribe link was mailed to.
    pub async fn unsubscribe(&self, secret: &str) -> Result<String> {
        let hash = auth::hash_secret(secret.trim());
        let row = store::find_token(&self.db, &hash)
            .await?
            .filter(|t| t.kind == "unsubscribe")
            .ok_or_else(|| Error::invalid("this link is not valid"))?;
        let profile = store::mail_profile(&self.db, row.user_id)
            .await?
            .ok_or_else(|| Error::invalid("the account no longer exists"))?;
        store::set_mail_choices(&self.db, row.user_id, MailMode::Off, &profile.kinds).await?;
        Ok(profile.name)
    }

    /// Checks a chat message (plain text on one line, at most [`MAX_CHAT`]
    /// characters) and counts it against `user`'s limit of 10 a minute.
    fn chat_text(&self, user: &AuthUser, text: &str) -> Result<String> {
        user.require_play()?;
        let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            return Err(Error::invalid("the message is empty"));
        }
        if text.chars().count() > MAX_CHAT {
            return Err(Error::invalid(format!(
                "a message is at most {MAX_CHAT} characters"
            )));
        }
        let key = format!("chat {}", user.player.id);
        if let Err(retry_after_s) = self.mail_senders.try_add(key, 10, self.now()) {
            return Err(Error::RateLimited {
                what: "too many messages".into(),
                retry_after_s,
            });
        }
        Ok(text)
    }

    /// Posts a chat message by `user` in game `id` (plain text, at most
    /// [`MAX_CHAT`] characters); the opponent gets it by mail if they chose to.
    pub async fn chat(&self, user: &AuthUser, id: i64, text: &str) -> Result<i64> {
        let text = self.chat_text(user, text)?;
        let game = self.game(id).await?;
        let me = game.color_of(user.player.id).ok_or(Error::NotAPlayer(id))?;
        let mut mails = Vec::new();
        let opponent = game.seat(!me).player_id();
        let muted = match opponent {
            Some(opponent) => store::chat_muted(&self.db, opponent, id).await?,
            None => false,
        };
        if let (Some(settings), Some(opponent), false) = (self.sending(), opponent, muted)
            && let Ok(Some(to)) = store::mail_profile(&self.db, opponent).await
            && let Some(digest) = to.wants(MailKind::Chat)
        {
            let (reply, stop, tokens) = self.with_tokens(settings, &to, id);
            let mut mail = compose::chat_mail(
                settings,
                &game,
                &to,
                &user.player.name,
                &text,
                Some(reply),
                stop,
            );
            mail.tokens = tokens;
            mail.digest = digest;
            mails.push(mail);
        }
        let message = store::insert_chat(
            &self.db,
            id,
            ChatRoom::Players,
            user.player.id,
            &text,
            &mails,
            self.now(),
        )
        .await?;
        if !mails.is_empty() {
            self.mail_waiting.notify_one();
        }
        self.notify_game(&game).await;
        Ok(message)
    }

    /// The chat of game `id`, for its players only, and whether `user` has
    /// muted the opponent (whose messages are then left out).
    pub async fn chat_messages(
        &self,
        user: &AuthUser,
        id: i64,
    ) -> Result<(Vec<store::ChatMessage>, bool)> {
        let game = self.game(id).await?;
        game.color_of(user.player.id).ok_or(Error::NotAPlayer(id))?;
        let muted = store::chat_muted(&self.db, user.player.id, id).await?;
        let mut messages = store::chat_of(&self.db, id, ChatRoom::Players, 200).await?;
        if muted {
            messages.retain(|m| m.author == user.player.name);
        }
        Ok((messages, muted))
    }

    /// Whether `user` may open or close the spectators' chat of `game`: its
    /// players, and the organizer of the tournament it belongs to.
    async fn may_open_spectator_chat(&self, user: &AuthUser, game: &Game) -> Result<bool> {
        if game.color_of(user.player.id).is_some() {
            return Ok(true);
        }
        let Some((tournament, _, _)) = store::tournament_of_game(&self.db, game.id).await? else {
            return Ok(false);
        };
        Ok(store::load_tournament(&self.db, tournament)
            .await?
            .is_some_and(|t| t.organizer.id == user.player.id))
    }

    /// Opens or closes the spectators' chat of game `id`: closed by default,
    /// and opened only by a player or the game's tournament organizer.
    pub async fn set_spectator_chat(&self, user: &AuthUser, id: i64, open: bool) -> Result<()> {
        user.require_play()?;
        let game = self.game(id).await?;
        if !self.may_open_spectator_chat(user, &game).await? {
            return Err(Error::forbidden(format!(
                "only the players of game {id} (or its tournament's organizer) may open or close its spectators' chat"
            )));
        }
        store::set_spectator_chat(&self.db, id, open, user.player.id, self.now()).await?;
        self.notify_game(&game).await;
        Ok(())
    }

    /// The spectators' chat of game `id` as `user` (or an anonymous visitor)
    /// may see it. Its players see it only once the game is over, so that no
    /// watcher can send them advice.
    pub async fn spectator_chat(&self, user: Option<&AuthUser>, id: i64) -> Result<SpectatorChat> {
        let game = self.game(id).await?;
        let open = store::spectator_chat_open(&self.db, id).await?;
        let may_switch = match user {
            Some(user) => self.may_open_spectator_chat(user, &game).await?,
            None => false,
        };
        let playing = user.is_some_and(|u| game.color_of(u.player.id).is_some());
        let hidden = playing && !game.is_finished();
        let messages = if open && !hidden {
            store::chat_of(&self.db, id, ChatRoom::Spectators, 200).await?
        } else {
            Vec::new()
        };
        Ok(SpectatorChat {
            open,
            hidden,
            may_switch,
            may_post: open && !playing && user.is_some_and(|u| !u.guest),
            messages,
        })
    }

    /// Posts `user`'s message in the spectators' chat of game `id`: open
    /// chats only, full accounts that do not play in the game only, at most
    /// 10 messages a minute per person and [`SPECTATOR_MESSAGES_PER_MINUTE`]
    /// per game.
    pub async fn spectator_chat_post(&self, user: &AuthUser, id: i64, text: &str) -> Result<i64> {
        if user.guest {
            return Err(Error::forbidden(
                "guests cannot write in the spectators' chat: sign up first",
            ));
        }
        let game = self.game(id).await?;
        if game.color_of(user.player.id).is_some() {
            return Err(Error::forbidden(
                "players write in their own chat, not the spectators'",
            ));
        }
        if !store::spectator_chat_open(&self.db, id).await? {
            return Err(Error::conflict(format!(
                "the spectators' chat of game {id} is closed: only its players can open it"
            )));
        }
        let text = self.chat_text(user, text)?;
        let room = format!("spectators {id}");
        if let Err(retry_after_s) =
            self.mail_senders
                .try_add(room, SPECTATOR_MESSAGES_PER_MINUTE, self.now())
        {
            return Err(Error::RateLimited {
                what: "this game's spectators are writing too fast".into(),
                retry_after_s,
            });
        }
        let message = store::insert_chat(
            &self.db,
            id,
            ChatRoom::Spectators,
            user.player.id,
            &text,
            &[],
            self.now(),
        )
        .await?;
        self.notify_game(&game).await;
        Ok(message)
    }

    /// Handles one received message: reads it, runs its commands for the
    /// player its password or reply address names, and queues exactly one
    /// reply, or none where a reply could loop or go to a forged sender.
    pub async fn receive_mail(
        self: &Arc<Self>,
        raw: &[u8],
        envelope: &Envelope,
    ) -> Result<MailOutcome> {
        let Some(settings) = self.mail.clone() else {
            return Err(Error::invalid("this server takes no mail"));
        };
        let ignored = |why: String| {
            tracing::info!("mail ignored: {why}");
            Ok(MailOutcome {
                ignored: Some(why),
                ..MailOutcome::default()
            })
        };
        let message = match inbound::read(raw, envelope, settings.max_message_bytes) {
            Ok(message) => message,
            Err(e @ InboundError::TooLarge { .. }) => return Err(Error::invalid(e.to_string())),
            Err(e) => return ignored(e.to_string()),
        };
        if let Some(automatic) = message.automatic {
            if automatic == inbound::Automatic::Bounce
                && let Some((id, reason)) = bounced_mail(raw, &settings.domain)
                && store::record_bounce(&self.db, id, &reason, self.now()).await?
            {
                return ignored(format!("a bounce of mail {id}, recorded on its account"));
            }
            return ignored(format!("{} gets no answer", automatic.reason()));
        }
        let Some(from) = message.from.clone() else {
            return ignored("no sender address".into());
        };
        if settings.token_of(&from).is_some() {
            return ignored("mail from the server's own address".into());
        }
        if message
            .loop_marks
            .contains(&settings.address().to_ascii_lowercase())
        {
            return ignored("mail that has come back round a loop (X-Loop)".into());
        }
        let tokens: Vec<String> = message
            .recipients
            .iter()
            .filter_map(|r| settings.token_of(r))
            .collect();
        if tokens.is_empty() {
            return ignored("not addressed to the server".into());
        }
        // Replies go only to a registered, verified address (never to a
        // possibly forged sender).
        let sender = store::profile_by_email(&self.db, &from).await?;
        if self
            .mail_senders
            .try_add(from.clone(), settings.commands_per_minute, self.now())
            .is_err()
        {
            return ignored(format!("{from} sent too many commands in the last minute"));
        }
        // A reply address acts for its player, in its game, when the
        // sender is that player's verified address.
        let mut acting = None;
        let mut token_problem = None;
        if let Some(token) = tokens.iter().find(|t| !t.is_empty()) {
            match self.reply_identity(token, sender.as_ref()).await {
                Ok(identity) => acting = Some(identity),
                Err(why) => token_problem = Some(why),
            }
        }
        let mut answers = Vec::new();
        if message.commands.is_empty() {
            answers.push(format!(
                "Error: no command found in the subject or the first lines of your mail.\n\
                 Send `help` to {} for the commands.\n",
                settings.address()
            ));
        } else if let Some(problem) = &token_problem {
            answers.push(format!("Error: {problem}\nNothing was done.\n"));
        }
        let mut only_errors = true;
        if answers.is_empty() {
            let peer = std::net::IpAddr::from([127, 0, 0, 1]);
            for command in &message.commands {
                let reply = match pbm::execute_as(self, command, peer, acting.as_ref()).await {
                    Ok(text) => {
                        only_errors = false;
                        text
                    }
                    Err(error) => {
                        format!("> {}\n{}", pbm::quote(command), pbm::error_text(&error))
                    }
                };
                answers.push(reply);
            }
        }
        let body = answers.join("\n");
        // An address that answers every mail without marking its answers
        // (a careless auto-responder) would loop with our error replies:
        // the same error goes to one address a few times an hour, no more.
        let error_replies_left = !only_errors
            || self
                .mail_errors
                .try_add(
                    format!("{from}\n{body}"),
                    SAME_ERROR_REPLIES_PER_HOUR,
                    self.now(),
                )
                .is_ok();
        let replied = match &sender {
            Some(profile) if error_replies_left => {
                // The subject may be a command with a password: masked.
                let subject = pbm::masked(&message.subject);
                let reply = compose::reply_mail(
                    &settings,
                    &profile.email,
                    Some(profile.user_id),
                    &subject,
                    &body,
                );
                if self.sending().is_some() {
                    store::queue_mail_now(&self.db, &[reply], self.now()).await?;
                    self.mail_waiting.notify_one();
                    true
                } else {
                    false
                }
            }
            _ => false,
        };
        Ok(MailOutcome {
            ignored: None,
            answers,
            replied,
        })
    }

    /// Who a reply address acts for, and in which game or challenge; the
    /// sender must be the token's player at their verified address.
    async fn reply_identity(
        &self,
        token: &str,
        sender: Option<&MailProfile>,
    ) -> std::result::Result<Acting, String> {
        let hash = auth::hash_secret(token);
        let row = match store::find_token(&self.db, &hash).await {
            Ok(Some(row)) if row.kind == "reply" => row,
            Ok(_) => return Err("this reply address is not valid (use the address of a recent mail, or your password)".into()),
            Err(e) => return Err(e.to_string()),
        };
        if row.used_at.is_some() || row.expires_at.is_some_and(|at| at < self.now()) {
            return Err("this reply address no longer works (the game ended, or it expired): use your password".into());
        }
        let Some(sender) = sender.filter(|s| s.user_id == row.user_id) else {
            return Err("this reply address belongs to another player's mail: write from your own verified address, or use your password".into());
        };
        let user = store::user_by_id(&self.db, sender.user_id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("the account no longer exists")?;
        Ok(Acting {
            user: AuthUser::by_password(user.player, user.bot),
            number: row.game_id.unwrap_or_default(),
        })
    }

    /// Gathers the digests that are due (a player's oldest waiting item a
    /// day old) into one mail each.
    pub async fn send_digests(&self) -> Result<usize> {
        let Some(settings) = self.sending().cloned() else {
            return Ok(0);
        };
        let now = self.now();
        let mut sent = 0;
        for user in store::digest_due(&self.db, now - 24 * 3_600_000).await? {
            let Some(profile) = store::mail_profile(&self.db, user).await? else {
                continue;
            };
            let (stop, stop_token) = self.mail_token("unsubscribe", user, None, None, REPLY_MS);
            let link = settings.link(&format!("/mail/unsubscribe/{stop}"));
            let made = store::gather_digest(&self.db, user, now, |items| {
                if items.is_empty() {
                    return None;
                }
                let mut mail = compose::digest_mail(&settings, user, &profile.email, items, link);
                mail.tokens = vec![stop_token];
                Some(mail)
            })
            .await?;
            sent += usize::from(made);
        }
        if sent > 0 {
            self.mail_waiting.notify_one();
        }
        Ok(sent)
    }
}

/// Which of the server's mails a bounce reports (by the `Message-ID` the
/// sender gave it, `<outbox-ID@DOMAIN>`, which delivery reports quote), and
/// why it failed, from the report's `Diagnostic-Code` or `Status`.
fn bounced_mail(raw: &[u8], domain: &str) -> Option<(i64, String)> {
    let text = String::from_utf8_lossy(raw);
    let suffix = format!("@{}>", domain.to_ascii_lowercase());
    let lower = text.to_ascii_lowercase();
    let id = lower.match_indices("<outbox-").find_map(|(at, _)| {
        let rest = &lower[at + "<outbox-".len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0 && rest[digits..].starts_with(&suffix))
            .then(|| rest[..digits].parse::<i64>().ok())
            .flatten()
    })?;
    let field = |name: &str| {
        text.lines()
            .find(|l| l.to_ascii_lowercase().starts_with(name))
            .map(|l| l[name.len()..].trim().to_owned())
    };
    let why = field("diagnostic-code:")
        .or_else(|| field("status:").map(|s| format!("status {s}")))
        .unwrap_or_else(|| "no reason given".into());
    let why: String = why.chars().take(200).collect();
    Some((id, format!("the mail came back undelivered: {why}")))
}

#[cfg(test)]
mod tests {
    use super::bounced_mail;

    #[test]
    fn a_delivery_report_names_the_mail_and_the_reason() {
        let report = b"From: MAILER-DAEMON@relay.example\r\nContent-Type: multipart/report; boundary=r\r\n\r\n--r\r\n\r\nDelivery failed\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 <kim@example.net>: no such user\r\n--r\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: <outbox-42@example.org>\r\n--r--\r\n";
        let (id, why) = bounced_mail(report, "example.org").unwrap();
        assert_eq!(id, 42);
        assert_eq!(
            why,
            "the mail came back undelivered: smtp; 550 5.1.1 <kim@example.net>: no such user"
        );
        // Another domain's message id, or none: not ours.
        assert_eq!(
            bounced_mail(b"Message-ID: <outbox-42@elsewhere.example>", "example.org"),
            None
        );
        assert_eq!(
            bounced_mail(b"Message-ID: <outbox-@example.org>", "example.org"),
            None
        );
        let (_, why) =
            bounced_mail(b"Status: 5.2.2\r\n<outbox-7@example.org>", "example.org").unwrap();
        assert_eq!(why, "the mail came back undelivered: status 5.2.2");
    }
}
