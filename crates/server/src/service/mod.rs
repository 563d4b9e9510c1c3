//! The game domain's operations, shared by every front door (the JSON API,
//! the bot API, the pbmserv text commands): accounts, challenges, game
//! changes with their events, the engine's moves and analyses, ratings and
//! the clock sweep. Each operation checks who may do it and answers with
//! plain data or a typed [`Error`]; it knows nothing of HTTP.

mod accounts;
mod analysis;
mod challenges;
mod correspondence;
mod events;
mod game_analysis;
mod games;
mod mail;
mod puzzles;
mod ratings;
mod tournaments;

pub use accounts::Session;
pub use analysis::{AnalysisRun, MAX_ANALYSIS_MS};
pub use challenges::{
    ChallengeOptions, Created, Numbered, Opponent, RulesText, offered_boards, read_board,
    read_rules, read_variant,
};
pub use correspondence::{MAX_VACATION_DAYS, VacationInfo, Waiting};
pub use events::Hello;
pub use game_analysis::{GameAnalysis, MAX_PENDING_PER_PLAYER, MAX_QUEUED, ReviewedPosition};
pub use games::GAMES_LISTED;
pub use mail::{MAX_CHAT, MailOutcome, SPECTATOR_MESSAGES_PER_MINUTE, SpectatorChat};
pub use puzzles::{PuzzleAnswer, PuzzleRecord, RatedPuzzle};
pub use ratings::Profile;
pub use tournaments::{LeagueView, MAX_OPEN_EVENTS, NewLeague, NewTournament};

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::clock::Clock;
use crate::db::{Backend, Database};
use crate::engines::EnginePool;
use crate::error::{Error, Result};
use crate::events::Hub;
use crate::game::Game;
use crate::limits::{Budget, ClientKey, WindowCounter};
use crate::store;

/// How long a browser session lasts.
pub const SESSION_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// How much each client may ask of the server.
#[derive(Clone, Debug)]
pub struct RateLimits {
    /// Sign-ups allowed per address per minute.
    pub signups_per_minute: u32,
    /// Guest accounts made per address per minute.
    pub guests_per_minute: u32,
    /// Failed password checks per address per minute after which the
    /// address gets one try per account (never fewer than one: a correct
    /// password is not refused for the address's sake alone).
    pub failures_per_address: u32,
    /// Failed password checks for one account from one address per 15
    /// minutes, after which that address's checks for the account wait.
    pub failures_per_account_address: u32,
    /// Failed password checks for one account from all addresses per 15
    /// minutes, after which the account's checks wait (a distributed guess).
    pub failures_per_account: u32,
    /// Engine time one client (an account, or an address without a
    /// session) may spend on analysis at once, in milliseconds.
    pub analysis_burst_ms: u64,
    /// Engine milliseconds per second a client's analysis allowance grows by.
    pub analysis_refill_ms_per_s: u64,
    /// Open seeks a player may have at once.
    pub open_seeks: i64,
    /// Open challenges to named players a player may have at once.
    pub open_challenges: i64,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        RateLimits {
            signups_per_minute: 30,
            guests_per_minute: 30,
            failures_per_address: 30,
            failures_per_account_address: 5,
            failures_per_account: 50,
            analysis_burst_ms: 60_000,
            analysis_refill_ms_per_s: 200,
            open_seeks: 3,
            open_challenges: 20,
        }
    }
}

/// How the server is set up.
#[derive(Clone)]
pub struct Settings {
    /// The database URL.
    pub database_url: String,
    /// Where time comes from.
    pub clock: Arc<dyn Clock>,
    /// What each client may ask.
    pub limits: RateLimits,
    /// Engine searches at once (games against the computer and analyses).
    pub engine_workers: usize,
    /// Of those, how many may be analyses (which give way to games).
    pub analysis_workers: usize,
    /// Thinking time of the engine at level 10.
    pub engine_time: Duration,
    /// How often clocks are checked for time-outs and reminders (`None`:
    /// only when [`Service::sweep`] is called, as tests do).
    pub sweep_every: Option<Duration>,
    /// Mail: the server's domain, and the relay it sends through (`None`:
    /// no mail is received or sent).
    pub mail: Option<crate::mail::MailSettings>,
    /// Vacation days each player may take a calendar year, during which
    /// their correspondence clocks stop.
    pub vacation_days: i64,
    /// Engine time per position of a finished game's computer analysis.
    pub game_analysis_time: Duration,
}

/// The vacation days a year a player gets unless the operator says
/// otherwise (Little Golem's allowance is similar).
pub const DEFAULT_VACATION_DAYS: i64 = 30;

/// One game's slot in the cache, locked while the game is changed.
type Slot = Arc<tokio::sync::Mutex<Option<Game>>>;

/// The counters behind the password-check limits (see [`RateLimits`]).
struct AuthCounters {
    signups: WindowCounter<IpAddr>,
    guests: WindowCounter<IpAddr>,
    failures_by_address: WindowCounter<IpAddr>,
    failures_by_pair: WindowCounter<(String, IpAddr)>,
    failures_by_account: WindowCounter<String>,
}

/// What analysis clients have used.
struct AnalysisUse {
    budget: Budget<ClientKey>,
    running: Mutex<Vec<ClientKey>>,
}

/// The server's state and operations.
pub struct Service {
    /// The database (public for tests that play another process behind
    /// this one's back).
    pub db: Database,
    /// Where time comes from.
    pub clock: Arc<dyn Clock>,
    /// Live events in this process.
    pub hub: Hub,
    engines: EnginePool,
    limits: RateLimits,
    auth: AuthCounters,
    analysis: AnalysisUse,
    games: Mutex<HashMap<i64, Slot>>,
    /// Tells this process's notifications from other processes'.
    origin: String,
    /// The mail setup, if any.
    mail: Option<crate::mail::MailSettings>,
    /// Commands mailed per sender, chat messages and conditional-move
    /// changes per player, in the last minute.
    mail_senders: WindowCounter<String>,
    /// Counts over the last hour: error replies per sender and mistake (stops mail
    /// loops), verification and password-reset mails per account.
    mail_errors: WindowCounter<String>,
    /// Woken when mail is queued, so that the sender sends it at once.
    pub mail_waiting: tokio::sync::Notify,
    /// Vacation days a player gets a calendar year.
    vacation_days: i64,
    /// Engine time per position of a game's analysis.
    game_analysis_time: Duration,
    /// Woken when a game's analysis is queued.
    analyses_waiting: Arc<tokio::sync::Notify>,
}

/// Failure windows for password checks per account: 15 minutes.
const FAILURE_WINDOW_MS: i64 = 15 * 60 * 1000;

impl Service {
    /// Opens the database and starts the background tasks (clock sweep,
    /// PostgreSQL listener, engine moves left pending by a restart).
    pub async fn start(settings: Settings) -> Result<Arc<Service>, crate::db::DatabaseError> {
        let db = Database::open(&settings.database_url).await?;
        let limits = settings.limits.clone();
        let service = Arc::new(Service {
            db,
            clock: settings.clock.clone(),
            hub: Hub::default(),
            engines: EnginePool::new(
                settings.engine_workers,
                settings.analysis_workers,
                settings.engine_time,
            ),
            auth: AuthCounters {
                signups: WindowCounter::new(60_000),
                guests: WindowCounter::new(60_000),
                failures_by_address: WindowCounter::new(60_000),
                failures_by_pair: WindowCounter::new(FAILURE_WINDOW_MS),
                failures_by_account: WindowCounter::new(FAILURE_WINDOW_MS),
            },
            analysis: AnalysisUse {
                budget: Budget::new(limits.analysis_burst_ms, limits.analysis_refill_ms_per_s),
                running: Mutex::new(Vec::new()),
            },
            limits,
            games: Mutex::new(HashMap::new()),
            origin: crate::auth::new_secret(""),
            mail: settings.mail.clone(),
            mail_senders: WindowCounter::new(60_000),
            mail_errors: WindowCounter::new(3_600_000),
            mail_waiting: tokio::sync::Notify::new(),
            vacation_days: settings.vacation_days.max(0),
            game_analysis_time: settings.game_analysis_time,
            analyses_waiting: Arc::new(tokio::sync::Notify::new()),
        });
        service.start_analysis_worker();
        if service.sending().is_some() {
            crate::mail::sender::start(&service);
        }
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
}

/// Hashes a password off the async threads (argon2 takes tens of
/// milliseconds on purpose).
async fn hash_blocking(password: String) -> Result<String> {
    tokio::task::spawn_blocking(move || crate::auth::hash_password(&password))
        .await
        .map_err(|e| Error::Internal(format!("hashing task: {e}")))?
}

/// Reads a number a request names (a game, a challenge, a token), for the
/// messages of every front door.
pub fn parse_number(text: &str, what: &str) -> Result<i64> {
    text.trim().parse().map_err(|_| {
        Error::invalid(format!(
            "{what} must be a number, not {:?}",
            epaminondas_rules::excerpt(text)
        ))
    })
}
