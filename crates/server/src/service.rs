//! The server's operations, shared by the JSON API, the bot API and the
//! pbmserv commands: accounts, challenges, game changes with their events,
//! the engine's moves, ratings and the clock sweep.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use epaminondas_engine::Level;
use epaminondas_rules::{BoardSize, Color, GameResult, Position, Symmetry};
use serde_json::json;

use crate::auth::{self, RateLimiter, Scope};
use crate::challenge::{Challenge, ColorChoice};
use crate::clock::Clock;
use crate::db::{Backend, Database};
use crate::engines::EnginePool;
use crate::error::{ApiError, ApiResult};
use crate::game::{Game, Player, Seat, Status, TimeControl, color_name};
use crate::glicko;
use crate::hub::{Hub, Topic};
use crate::store::{self, AuthUser};

/// How long a browser session lasts.
const SESSION_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// The PostgreSQL notification channel.
const CHANNEL: &str = "epaminondas";

/// How the server is set up.
#[derive(Clone)]
pub struct Settings {
    /// The database URL.
    pub database_url: String,
    /// Where time comes from.
    pub clock: Arc<dyn Clock>,
    /// Sign-in and sign-up attempts allowed per address per minute.
    pub auth_per_minute: u32,
    /// Engine searches at once.
    pub engine_workers: usize,
    /// Thinking time of the engine at level 10.
    pub engine_time: Duration,
    /// How often clocks are checked for time-outs and reminders (`None`:
    /// only when [`Service::sweep`] is called, as tests do).
    pub sweep_every: Option<Duration>,
}

/// The options of a new challenge.
#[derive(Clone, Debug)]
pub struct ChallengeOptions {
    /// Whom to challenge; `None` for an open seek.
    pub opponent: Option<String>,
    /// The engine's level, to play the computer instead.
    pub level: Option<u8>,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
}

/// What a challenge request made.
pub enum Created {
    /// A challenge waiting for an answer.
    Challenge(Challenge),
    /// A game that began at once (against the computer).
    Game(Box<Game>),
}

/// One game's slot in the cache, locked while the game is changed.
type Slot = Arc<tokio::sync::Mutex<Option<Game>>>;

/// The server's state and operations.
pub struct Service {
    /// The database.
    pub db: Database,
    /// Where time comes from.
    pub clock: Arc<dyn Clock>,
    /// Live events in this process.
    pub hub: Hub,
    engines: EnginePool,
    limiter: RateLimiter,
    games: Mutex<HashMap<i64, Slot>>,
    /// Tells this process's notifications from other processes'.
    origin: String,
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

impl Service {
    /// Opens the database and starts the background tasks (clock sweep,
    /// PostgreSQL listener, engine moves left pending by a restart).
    pub async fn start(settings: Settings) -> Result<Arc<Service>, crate::db::DatabaseError> {
        let db = Database::open(&settings.database_url).await?;
        let service = Arc::new(Service {
            db,
            clock: settings.clock.clone(),
            hub: Hub::default(),
            engines: EnginePool::new(settings.engine_workers, settings.engine_time),
            limiter: RateLimiter::new(settings.auth_per_minute),
            games: Mutex::new(HashMap::new()),
            origin: auth::new_secret(""),
        });
        if let Some(every) = settings.sweep_every {
            let weak = Arc::downgrade(&service);
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(every);
                loop {
                    tick.tick().await;
                    let Some(service) = weak.upgrade() else { break };
                    if let Err(e) = service.sweep().await {
                        tracing::warn!("clock sweep: {e}");
                    }
                }
            });
        }
        if service.db.backend == Backend::Postgres {
            service.clone().listen().await;
        }
        match store::active_engine_games(&service.db).await {
            Ok(ids) => {
                for id in ids {
                    service.clone().engine_move_later(id);
                }
            }
            Err(e) => tracing::warn!("resuming engine games: {e}"),
        }
        Ok(service)
    }

    /// The current time in milliseconds.
    pub fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    // ---- accounts ----

    /// Creates an account and signs it in: (player, session secret, CSRF token).
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        email: &str,
        bot: bool,
        addr: IpAddr,
        guest: Option<&AuthUser>,
    ) -> ApiResult<(Player, String, String)> {
        auth::check_name(name)?;
        auth::check_password(password)?;
        auth::check_email(email)?;
        self.limiter.check(addr, self.now())?;
        let hash = hash_blocking(password.to_string()).await?;
        let player = match guest {
            Some(guest) if guest.guest && !bot => {
                let player =
                    store::claim_guest(&self.db, guest.player.id, name, email, &hash).await?;
                // The guest's cached games still carry the old name.
                self.forget_games_of(guest.player.id).await;
                player
            }
            _ => store::create_user(&self.db, name, email, &hash, bot, self.now()).await?,
        };
        let (secret, csrf) = self.new_session(player.id).await?;
        Ok((player, secret, csrf))
    }

    /// Makes a guest account and signs it in: (player, session secret, CSRF
    /// token). Rate limited per address like sign-ups.
    pub async fn guest(&self, addr: IpAddr) -> ApiResult<(Player, String, String)> {
        self.limiter.check(addr, self.now())?;
        let mut last = None;
        for _ in 0..5 {
            let name = auth::guest_name();
            match store::create_guest(&self.db, &name, self.now()).await {
                Ok(player) => {
                    let (secret, csrf) = self.new_session(player.id).await?;
                    return Ok((player, secret, csrf));
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| ApiError::Internal("no guest name was free".into())))
    }

    /// Checks a name and password (rate limited per address).
    pub async fn check_password(
        &self,
        name: &str,
        password: &str,
        addr: IpAddr,
    ) -> ApiResult<Player> {
        // Only failures count against the address, so that pbmserv commands,
        // which carry the password every time, are not throttled.
        self.limiter.peek(addr, self.now())?;
        let user = store::user_by_name(&self.db, name).await?;
        let hash = user
            .as_ref()
            .map(|u| u.password_hash.clone())
            .unwrap_or_default();
        let password = password.to_string();
        let ok = tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash))
            .await
            .unwrap_or(false);
        match user {
            Some(user) if ok => Ok(user.player),
            _ => {
                let _ = self.limiter.check(addr, self.now());
                Err(ApiError::Unauthorized("wrong name or password".into()))
            }
        }
    }

    /// Signs in: (player, session secret, CSRF token).
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        addr: IpAddr,
    ) -> ApiResult<(Player, String, String)> {
        let player = self.check_password(name, password, addr).await?;
        let (secret, csrf) = self.new_session(player.id).await?;
        Ok((player, secret, csrf))
    }

    async fn new_session(&self, user_id: i64) -> ApiResult<(String, String)> {
        let secret = auth::new_secret("s_");
        let csrf = auth::new_secret("c_");
        store::create_session(
            &self.db,
            &auth::hash_secret(&secret),
            user_id,
            &csrf,
            self.now() + SESSION_MS,
        )
        .await?;
        Ok((secret, csrf))
    }

    /// Ends a session.
    pub async fn sign_out(&self, secret: &str) -> ApiResult<()> {
        store::delete_session(&self.db, &auth::hash_secret(secret)).await
    }

    /// The user of a session secret.
    pub async fn session_user(&self, secret: &str) -> ApiResult<Option<AuthUser>> {
        store::session_user(&self.db, &auth::hash_secret(secret), self.now()).await
    }

    /// The user of an API token.
    pub async fn token_user(&self, secret: &str) -> ApiResult<Option<AuthUser>> {
        store::token_user(&self.db, &auth::hash_secret(secret)).await
    }

    /// Makes an API token for `user`; the secret is returned only here.
    pub async fn create_token(
        &self,
        user: &AuthUser,
        label: &str,
        scopes: &[Scope],
    ) -> ApiResult<(i64, String)> {
        if scopes.contains(&Scope::Bot) && !user.bot {
            return Err(ApiError::Forbidden(
                "only bot accounts can have the bot scope (sign up with \"bot\": true)".into(),
            ));
        }
        if label.len() > 100 {
            return Err(ApiError::bad("a token label is at most 100 characters"));
        }
        let secret = auth::new_secret("ep_");
        let id = store::create_token(
            &self.db,
            user.player.id,
            &auth::hash_secret(&secret),
            label,
            scopes,
            self.now(),
        )
        .await?;
        Ok((id, secret))
    }

    /// The player named `name`.
    pub async fn player(&self, name: &str) -> ApiResult<Player> {
        self.player_named(name).await
    }

    async fn player_named(&self, name: &str) -> ApiResult<Player> {
        store::user_by_name(&self.db, name)
            .await?
            .map(|u| u.player)
            .ok_or_else(|| ApiError::not_found(format!("there is no player named {name}")))
    }

    // ---- challenges ----

    /// Creates a challenge, or a game at once against the computer.
    pub async fn challenge(
        self: &Arc<Self>,
        user: &AuthUser,
        options: ChallengeOptions,
    ) -> ApiResult<Created> {
        let control = options.control.validate()?;
        if user.guest && options.rated {
            return Err(ApiError::Forbidden(
                "guests play unrated games only: sign up to play rated games".into(),
            ));
        }
        if let Some(level) = options.level {
            let level =
                Level::new(level).ok_or_else(|| ApiError::bad("the level must be 1 to 10"))?;
            let me = Seat::Human(user.player.clone());
            let color = options.color.resolve(self.coin());
            let engine = Seat::Engine(level.get());
            let (white, black) = match color {
                Color::White => (me, engine),
                Color::Black => (engine, me),
            };
            let mut game = Game::new(
                0,
                white,
                black,
                options.size,
                options.symmetry,
                false,
                control,
                self.now(),
            );
            let mut conn = self.db.write.acquire().await?;
            store::insert_game(&mut conn, &mut game).await?;
            drop(conn);
            self.game_started(&game).await;
            return Ok(Created::Game(Box::new(game)));
        }
        let target = match &options.opponent {
            Some(name) => {
                let target = self.player_named(name).await?;
                if target.id == user.player.id {
                    return Err(ApiError::bad("you cannot challenge yourself"));
                }
                Some(target)
            }
            None => None,
        };
        let mut challenge = Challenge {
            id: 0,
            challenger: user.player.clone(),
            target,
            size: options.size,
            symmetry: options.symmetry,
            color: options.color,
            rated: options.rated,
            control,
            status: "open".into(),
            game_id: None,
            created_at: self.now(),
        };
        store::insert_challenge(&self.db, &mut challenge).await?;
        if let Some(target) = &challenge.target {
            self.notify_player(
                target.id,
                json!({"type": "challenge", "challenge": challenge.view()}),
            )
            .await;
        }
        Ok(Created::Challenge(challenge))
    }

    fn coin(&self) -> bool {
        let mut byte = [0u8; 1];
        argon2::password_hash::rand_core::RngCore::fill_bytes(
            &mut argon2::password_hash::rand_core::OsRng,
            &mut byte,
        );
        byte[0] & 1 == 1
    }

    async fn open_challenge(&self, id: i64) -> ApiResult<Challenge> {
        let c = store::load_challenge(&self.db, id)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("there is no challenge {id}")))?;
        if c.status != "open" {
            return Err(ApiError::conflict(format!(
                "challenge {id} is {}",
                c.status
            )));
        }
        Ok(c)
    }

    /// Accepts a challenge: the game begins.
    pub async fn accept(self: &Arc<Self>, user: &AuthUser, id: i64) -> ApiResult<Game> {
        let c = self.open_challenge(id).await?;
        if c.challenger.id == user.player.id {
            return Err(ApiError::bad("you cannot accept your own challenge"));
        }
        if c.target.as_ref().is_some_and(|t| t.id != user.player.id) {
            return Err(ApiError::Forbidden(format!(
                "challenge {id} is for another player"
            )));
        }
        if user.guest && c.rated {
            return Err(ApiError::Forbidden(
                "guests play unrated games only: sign up to accept a rated challenge".into(),
            ));
        }
        let challenger = Seat::Human(c.challenger.clone());
        let me = Seat::Human(user.player.clone());
        let (white, black) = match c.color.resolve(self.coin()) {
            Color::White => (challenger, me),
            Color::Black => (me, challenger),
        };
        let mut game = Game::new(
            0,
            white,
            black,
            c.size,
            c.symmetry,
            c.rated,
            c.control,
            self.now(),
        );
        if !store::accept_challenge(&self.db, id, &mut game).await? {
            return Err(ApiError::conflict(format!(
                "challenge {id} was taken meanwhile"
            )));
        }
        self.game_started(&game).await;
        Ok(game)
    }

    /// Declines a challenge made to `user`, or cancels `user`'s own.
    pub async fn close_challenge(
        &self,
        user: &AuthUser,
        id: i64,
        cancel: bool,
    ) -> ApiResult<Challenge> {
        let mut c = self.open_challenge(id).await?;
        let allowed = if cancel {
            c.challenger.id == user.player.id
        } else {
            c.target.as_ref().is_some_and(|t| t.id == user.player.id)
        };
        if !allowed {
            return Err(ApiError::Forbidden(if cancel {
                format!("only its challenger can cancel challenge {id}")
            } else {
                format!("only the challenged player can decline challenge {id}")
            }));
        }
        let status = if cancel { "canceled" } else { "declined" };
        if !store::close_challenge(&self.db, id, status).await? {
            return Err(ApiError::conflict(format!(
                "challenge {id} was answered meanwhile"
            )));
        }
        c.status = status.into();
        let (kind, other) = if cancel {
            ("challengeCanceled", c.target.as_ref().map(|t| t.id))
        } else {
            ("challengeDeclined", Some(c.challenger.id))
        };
        if let Some(other) = other {
            self.notify_player(other, json!({"type": kind, "challenge": c.view()}))
                .await;
        }
        Ok(c)
    }

    /// The open challenges `user` sees.
    pub async fn challenges(&self, user: &AuthUser) -> ApiResult<Vec<Challenge>> {
        store::open_challenges(&self.db, user.player.id).await
    }

    // ---- games ----

    fn slot(&self, id: i64) -> Slot {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        games.entry(id).or_default().clone()
    }

    /// The game numbered `id`.
    pub async fn game(&self, id: i64) -> ApiResult<Game> {
        let slot = self.slot(id);
        let mut held = slot.lock().await;
        if let Some(game) = held.as_ref() {
            return Ok(game.clone());
        }
        let game = self.load(id).await?;
        if !game.is_finished() {
            *held = Some(game.clone());
        } else {
            drop(held);
            self.forget(id);
        }
        Ok(game)
    }

    async fn load(&self, id: i64) -> ApiResult<Game> {
        match store::load_game(&self.db, id).await? {
            Some(game) => Ok(game),
            None => {
                self.forget(id);
                Err(ApiError::not_found(format!("there is no game {id}")))
            }
        }
    }

    /// Drops the cached copies of player `id`'s games (after the player was
    /// renamed) here, and has other processes reload theirs.
    async fn forget_games_of(&self, player: i64) {
        let slots: Vec<(i64, Slot)> = {
            let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
            games.iter().map(|(&id, slot)| (id, slot.clone())).collect()
        };
        for (id, slot) in slots {
            let mut held = slot.lock().await;
            if held.as_ref().is_some_and(|g| g.color_of(player).is_some()) {
                *held = None;
                drop(held);
                if let Ok(game) = self.game(id).await {
                    self.notify_game(&game).await;
                }
            }
        }
    }

    fn forget(&self, id: i64) {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = games.get(&id)
            && Arc::strong_count(slot) == 1
        {
            games.remove(&id);
        }
    }

    /// Changes game `id` with `change`, which sees the game at the current
    /// time and either changes it or refuses. The change is stored before
    /// this returns, and only if nobody changed the game meanwhile (in this
    /// or another process); then its events go out.
    pub async fn change_game<F>(self: &Arc<Self>, id: i64, change: F) -> ApiResult<Game>
    where
        F: Fn(&mut Game, i64) -> ApiResult<()>,
    {
        let slot = self.slot(id);
        let mut held = slot.lock().await;
        for attempt in 0..4 {
            let current = match held.as_ref() {
                Some(game) if attempt == 0 => game.clone(),
                _ => self.load(id).await?,
            };
            let now = self.now();
            let mut next = current.clone();
            let flagged = next.flag(now);
            let outcome = if flagged {
                Err(ApiError::conflict(format!(
                    "time ran out: {} lost game {id} on time",
                    next.turn()
                )))
            } else {
                change(&mut next, now)
            };
            if outcome.is_err() && !flagged {
                *held = Some(current);
                return outcome.map(|()| next);
            }
            next.version = current.version + 1;
            if store::update_game(&self.db, &next, current.version).await? {
                *held = (!next.is_finished()).then(|| next.clone());
                drop(held);
                if next.is_finished() {
                    self.forget(id);
                }
                self.after_change(&current, &next).await;
                return outcome.map(|()| next);
            }
            // Another process changed the game: read it again and retry.
        }
        Err(ApiError::conflict(format!(
            "game {id} is changing too fast; try again"
        )))
    }

    /// The side `user` plays in `game`, or a refusal.
    fn side(game: &Game, user: &AuthUser) -> ApiResult<Color> {
        game.color_of(user.player.id)
            .ok_or_else(|| ApiError::Forbidden(format!("you are not a player of game {}", game.id)))
    }

    /// Plays a move for `user`.
    pub async fn play(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
        text: &str,
        expected_ply: Option<usize>,
    ) -> ApiResult<Game> {
        let user = user.clone();
        self.change_game(id, move |g, now| {
            let side = Self::side(g, &user)?;
            g.play(side, text, expected_ply, now).map(|_| ())
        })
        .await
    }

    /// Resigns for `user`.
    pub async fn resign(self: &Arc<Self>, user: &AuthUser, id: i64) -> ApiResult<Game> {
        self.change_game(id, |g, now| {
            let side = Self::side(g, user)?;
            g.resign(side, now)
        })
        .await
    }

    /// An offer of `kind` by `user`, or `user`'s answer to the opponent's.
    /// The computer declines draws and grants takebacks.
    pub async fn offer(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
        kind: Offer,
        action: OfferAction,
    ) -> ApiResult<Game> {
        self.change_game(id, |g, now| {
            let side = Self::side(g, user)?;
            let answer = |g: &mut Game, by: Color, accept: bool| match kind {
                Offer::Draw => g.answer_draw(by, accept, now),
                Offer::Takeback => g.answer_takeback(by, accept, now),
            };
            match action {
                OfferAction::Offer => {
                    match kind {
                        Offer::Draw => g.offer_draw(side, now)?,
                        Offer::Takeback => g.offer_takeback(side)?,
                    }
                    if matches!(g.seat(!side), Seat::Engine(_)) {
                        answer(g, !side, kind == Offer::Takeback)?;
                    }
                    Ok(())
                }
                OfferAction::Accept => answer(g, side, true),
                OfferAction::Decline => answer(g, side, false),
            }
        })
        .await
    }

    /// Ends games whose time ran out and sends due reminders.
    pub async fn sweep(self: &Arc<Self>) -> ApiResult<()> {
        for id in store::due_games(&self.db, self.now()).await? {
            let result = self
                .change_game(id, |g, now| {
                    if g.remind_at().is_some_and(|at| at <= now) {
                        g.reminded = true;
                    }
                    Ok(())
                })
                .await;
            if let Err(ApiError::Internal(e)) = result {
                tracing::warn!("sweeping game {id}: {e}");
            }
        }
        Ok(())
    }

    /// The games of the player named `name` (newest first).
    pub async fn games_of(&self, name: &str, active_only: bool) -> ApiResult<(Player, Vec<Game>)> {
        let player = self.player_named(name).await?;
        let mut games = Vec::new();
        for id in store::games_of(&self.db, player.id, active_only).await? {
            games.push(self.game(id).await?);
        }
        Ok((player, games))
    }

    // ---- events ----

    async fn game_started(self: &Arc<Self>, game: &Game) {
        let now = self.now();
        for color in [Color::White, Color::Black] {
            if let Some(id) = game.seat(color).player_id() {
                let event = json!({
                    "type": "gameStart",
                    "game": {
                        "id": game.id,
                        "color": color_name(color),
                        "opponent": game.seat(!color).name(),
                        "your_turn": game.turn() == color,
                        "board": game.position().size().to_string(),
                    },
                });
                self.notify_player(id, event).await;
            }
        }
        let _ = now;
        self.clone().engine_move_later(game.id);
    }

    async fn after_change(self: &Arc<Self>, before: &Game, after: &Game) {
        self.notify_game(after).await;
        if after.is_finished() {
            if after.rated {
                if let Err(e) = self.rate(after).await {
                    tracing::error!("rating game {}: {e}", after.id);
                }
            }
            for color in [Color::White, Color::Black] {
                if let Some(id) = after.seat(color).player_id() {
                    let view = after.view(self.now(), false);
                    let event = json!({
                        "type": "gameFinish",
                        "game": {"id": after.id, "result": view["result"], "reason": view["reason"],
                                 "winner": view["winner"]},
                    });
                    self.notify_player(id, event).await;
                }
            }
            return;
        }
        if after.ply() != before.ply() {
            if let Some(id) = after.seat(after.turn()).player_id() {
                self.notify_player(
                    id,
                    json!({"type": "yourTurn", "game": {"id": after.id, "ply": after.ply()}}),
                )
                .await;
            }
            self.clone().engine_move_later(after.id);
        }
        if after.reminded && !before.reminded {
            if let Some(id) = after.seat(after.turn()).player_id() {
                let event = json!({"type": "reminder", "game": {"id": after.id, "deadline_at": after.deadline()}});
                self.notify_player(id, event).await;
            }
        }
    }

    async fn rate(&self, game: &Game) -> ApiResult<()> {
        let (Some(w), Some(b)) = (game.white.player_id(), game.black.player_id()) else {
            return Ok(());
        };
        let score = match game.status {
            Status::Finished {
                result: GameResult::WhiteWins,
                ..
            } => 1.0,
            Status::Finished {
                result: GameResult::BlackWins,
                ..
            } => 0.0,
            _ => 0.5,
        };
        let (Some(white), Some(black)) = (
            store::user_by_id(&self.db, w).await?,
            store::user_by_id(&self.db, b).await?,
        ) else {
            return Ok(());
        };
        let new_white = white.rating.after(black.rating, score);
        let new_black = black.rating.after(white.rating, 1.0 - score);
        store::record_ratings(
            &self.db,
            game.id,
            &[(w, new_white), (b, new_black)],
            self.now(),
        )
        .await?;
        let _ = glicko::INITIAL;
        Ok(())
    }

    /// The message a game stream sends: `gameFull` first, `gameState` after.
    pub fn game_message(&self, game: &Game, full: bool) -> String {
        json!({
            "type": if full { "gameFull" } else { "gameState" },
            "game": game.view(self.now(), true),
        })
        .to_string()
    }

    async fn notify_game(&self, game: &Game) {
        if self.hub.has_subscribers(Topic::Game(game.id)) {
            self.hub
                .publish(Topic::Game(game.id), &self.game_message(game, false));
        }
        self.pg_notify(&format!("g {}", game.id)).await;
    }

    async fn notify_player(&self, id: i64, event: serde_json::Value) {
        let text = event.to_string();
        self.hub.publish(Topic::Player(id), &text);
        self.pg_notify(&format!("p {id} {text}")).await;
    }

    async fn pg_notify(&self, payload: &str) {
        if self.db.backend != Backend::Postgres {
            return;
        }
        let message = format!("{} {payload}", self.origin);
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(message)
            .execute(&self.db.write)
            .await;
        if let Err(e) = sent {
            tracing::warn!("notifying other servers: {e}");
        }
    }

    /// Listens for the other processes' notifications and passes them to
    /// this process's subscribers.
    async fn listen(self: Arc<Self>) {
        let url = self.db.url.clone();
        let weak = Arc::downgrade(&self);
        tokio::spawn(async move {
            loop {
                let mut listener = match sqlx::postgres::PgListener::connect(&url).await {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::warn!("cannot listen for other servers' events: {e}");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                if let Err(e) = listener.listen(CHANNEL).await {
                    tracing::warn!("LISTEN failed: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                while let Ok(note) = listener.recv().await {
                    let Some(service) = weak.upgrade() else {
                        return;
                    };
                    service.foreign_notice(note.payload()).await;
                }
                if weak.strong_count() == 0 {
                    return;
                }
            }
        });
    }

    async fn foreign_notice(self: &Arc<Self>, payload: &str) {
        let mut parts = payload.splitn(4, ' ');
        let (Some(origin), Some(kind), Some(id)) = (parts.next(), parts.next(), parts.next())
        else {
            return;
        };
        if origin == self.origin {
            return;
        }
        let Ok(id) = id.parse::<i64>() else { return };
        match kind {
            "g" => {
                // Another process changed the game: refresh the cache.
                let slot = self.slot(id);
                let mut held = slot.lock().await;
                if let Ok(game) = self.load(id).await {
                    *held = (!game.is_finished()).then(|| game.clone());
                    drop(held);
                    if self.hub.has_subscribers(Topic::Game(id)) {
                        self.hub
                            .publish(Topic::Game(id), &self.game_message(&game, false));
                    }
                }
            }
            "p" => {
                if let Some(event) = parts.next() {
                    self.hub.publish(Topic::Player(id), event);
                }
            }
            _ => {}
        }
    }

    /// The first message of a player's stream: their open challenges and
    /// active games, with whose turn it is.
    pub async fn player_hello(&self, user: &AuthUser) -> ApiResult<String> {
        let challenges: Vec<_> = self
            .challenges(user)
            .await?
            .iter()
            .map(Challenge::view)
            .collect();
        let (_, games) = self.games_of(&user.player.name, true).await?;
        let games: Vec<_> = games
            .iter()
            .map(|g| {
                let color = g.color_of(user.player.id).unwrap_or(Color::White);
                json!({"id": g.id, "color": color_name(color), "opponent": g.seat(!color).name(),
                       "your_turn": g.turn() == color, "deadline_at": g.deadline()})
            })
            .collect();
        Ok(json!({"type": "hello", "challenges": challenges, "games": games}).to_string())
    }

    // ---- the engine ----

    /// Searches `pos` for `time` on the engine pool, sending its progress to
    /// `progress` (see [`crate::engines::EnginePool::analyse`]).
    pub async fn analyse(
        &self,
        pos: Position,
        time: std::time::Duration,
        progress: tokio::sync::mpsc::UnboundedSender<serde_json::Value>,
    ) {
        self.engines.analyse(pos, time, progress).await;
    }

    /// Plays the engine's move in game `id` when it is the engine's turn,
    /// in the background.
    fn engine_move_later(self: Arc<Self>, id: i64) {
        tokio::spawn(async move {
            let Ok(game) = self.game(id).await else {
                return;
            };
            let Some(level) = game.engine_to_move().and_then(Level::new) else {
                return;
            };
            let ply = game.ply();
            let Some(mv) = self.engines.choose(game.position().clone(), level).await else {
                return;
            };
            let played = self
                .change_game(id, |g, now| {
                    if g.ply() != ply || g.engine_to_move().is_none() {
                        return Err(ApiError::conflict(
                            "the position changed while the engine thought",
                        ));
                    }
                    g.play_checked(mv, now);
                    Ok(())
                })
                .await;
            if let Err(ApiError::Internal(e)) = played {
                tracing::error!("engine move in game {id}: {e}");
            }
        });
    }

    // ---- ratings ----

    /// The leaderboard.
    pub async fn leaderboard(&self) -> ApiResult<Vec<(String, f64, f64, i64)>> {
        store::leaderboard(&self.db, 100).await
    }

    /// A player's profile: (record, rating history).
    pub async fn profile(
        &self,
        name: &str,
    ) -> ApiResult<(store::UserRecord, Vec<(i64, f64, f64, i64)>)> {
        let user = store::user_by_name(&self.db, name)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("there is no player named {name}")))?;
        let history = store::rating_history(&self.db, user.player.id).await?;
        Ok((user, history))
    }
}

/// Hashes a password off the async threads (argon2 takes tens of
/// milliseconds on purpose).
async fn hash_blocking(password: String) -> ApiResult<String> {
    tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|e| ApiError::Internal(format!("hashing task: {e}")))?
}
