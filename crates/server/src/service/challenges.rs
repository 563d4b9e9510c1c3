//! Challenges: made by a signed-in player, to a named player or as an open
//! seek; a game exists only once the other player accepts. Games against
//! the computer begin at once.

use std::sync::Arc;

use epaminondas_engine::Level;
use epaminondas_rules::{BoardSize, Color, ParseVariantError, Position, Symmetry, Variant};

use super::Service;
use crate::auth::{self, AuthUser};
use crate::challenge::{Challenge, ChallengeStatus, ColorChoice};
use crate::error::{Error, Result};
use crate::events::PlayerEvent;
use crate::game::{Game, NewGame, Player, Seat, TimeControl};
use crate::store;

/// Whom a challenge is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The player of this name.
    Player(String),
    /// Anyone (an open seek).
    Anyone,
    /// The server's engine at this level (1 to 10): the game begins at once.
    Computer(u8),
}

/// The options of a new challenge.
#[derive(Clone, Debug)]
pub struct ChallengeOptions {
    /// Whom to play.
    pub opponent: Opponent,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// The game of the family.
    pub variant: Variant,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
}

impl ChallengeOptions {
    /// Options from the words a front door was given, each optional: the
    /// rules (see [`read_rules`]), the colour and the time control
    /// (default: unlimited against the computer, three days a move
    /// otherwise).
    pub fn read(
        opponent: Opponent,
        rules: RulesText<'_>,
        color: Option<&str>,
        rated: bool,
        time: Option<TimeControl>,
    ) -> Result<ChallengeOptions> {
        let (variant, size, symmetry) = read_rules(rules)?;
        let color = match color {
            Some(text) => text.parse::<ColorChoice>().map_err(Error::Invalid)?,
            None => ColorChoice::Random,
        };
        let computer = matches!(opponent, Opponent::Computer(_));
        if computer && rated {
            return Err(Error::invalid("games against the computer are not rated"));
        }
        let default_time = if computer {
            TimeControl::Unlimited
        } else {
            TimeControl::Correspondence { days_per_move: 3 }
        };
        Ok(ChallengeOptions {
            opponent,
            size,
            symmetry,
            variant,
            color,
            rated,
            control: time.unwrap_or(default_time),
        })
    }
}

/// The rules of a game as a front door was given them, each optional.
#[derive(Clone, Copy, Debug, Default)]
pub struct RulesText<'a> {
    /// The variant's name (default the standard game).
    pub variant: Option<&'a str>,
    /// The board, `FILESxRANKS` (default the variant's board).
    pub board: Option<&'a str>,
    /// The symmetry option (default the variant's).
    pub symmetry: Option<&'a str>,
}

/// The variant a front door was given by name (default the standard game).
pub fn read_variant(name: Option<&str>) -> Result<Variant> {
    name.map_or(Ok(Variant::Epaminondas), |name| {
        name.parse()
            .map_err(|e: ParseVariantError| Error::invalid(e.to_string()))
    })
}

/// The variant, board and symmetry option a front door was given, checked
/// together (Stumbling Blocks needs five ranks, for instance).
pub fn read_rules(text: RulesText<'_>) -> Result<(Variant, BoardSize, Symmetry)> {
    let invalid = |e: &dyn std::fmt::Display| Error::invalid(e.to_string());
    let variant = read_variant(text.variant)?;
    let size = match text.board {
        Some(board) => board.parse::<BoardSize>().map_err(|e| invalid(&e))?,
        None => variant.default_size(),
    };
    let symmetry = match text.symmetry {
        Some(symmetry) => symmetry.parse::<Symmetry>().map_err(|e| invalid(&e))?,
        None => variant.default_symmetry(),
    };
    Position::new_variant(variant, size, symmetry).map_err(|e| invalid(&e))?;
    Ok((variant, size, symmetry))
}

/// The board (`FILESxRANKS`, default the standard board) and symmetry
/// option (default `mirror`) of a standard game a front door was given.
pub fn read_board(board: Option<&str>, symmetry: Option<&str>) -> Result<(BoardSize, Symmetry)> {
    let (_, size, symmetry) = read_rules(RulesText {
        variant: None,
        board,
        symmetry,
    })?;
    Ok((size, symmetry))
}

/// The board sizes the site's forms offer (any size from 4x4 to 26x26 may
/// be asked for through the API).
pub fn offered_boards() -> Vec<BoardSize> {
    [(14, 12), (12, 10), (10, 10), (10, 8), (8, 8), (6, 6)]
        .into_iter()
        .filter_map(|(files, ranks)| BoardSize::new(files, ranks).ok())
        .collect()
}

/// What a challenge request made.
pub enum Created {
    /// A challenge waiting for an answer.
    Challenge(Challenge),
    /// A game that began at once (against the computer).
    Game(Box<Game>),
}

/// What a number names: games and challenges share one numbering.
pub enum Numbered {
    /// A challenge (open or answered).
    Challenge(Challenge),
    /// A game (or nothing open: the game lookup says what is there).
    Game,
}

impl Service {
    /// Creates a challenge, or a game at once against the computer.
    pub async fn challenge(
        self: &Arc<Self>,
        user: &AuthUser,
        options: ChallengeOptions,
    ) -> Result<Created> {
        user.require_play()?;
        let control = options
            .control
            .validate()
            .map_err(|e| Error::invalid(e.to_string()))?;
        if user.guest && options.rated {
            return Err(Error::forbidden(
                "guests play unrated games only: sign up to play rated games",
            ));
        }
        let target = match &options.opponent {
            Opponent::Computer(level) => {
                let level = Level::new(*level)
                    .ok_or_else(|| Error::invalid("the level must be 1 to 10"))?;
                return self.computer_game(user, &options, control, level).await;
            }
            Opponent::Player(name) => {
                let target = self.player(name).await?;
                if target.id == user.player.id {
                    return Err(Error::invalid("you cannot challenge yourself"));
                }
                Some(target)
            }
            Opponent::Anyone => None,
        };
        if control.is_correspondence() {
            self.check_correspondence_room(user.player.id, "you")
                .await?;
            if let Some(target) = &target {
                self.check_correspondence_room(target.id, &target.name)
                    .await?;
            }
        }
        let (seeks, named) = store::open_challenge_counts(&self.db, user.player.id).await?;
        if target.is_none() && seeks >= self.limits.open_seeks {
            return Err(Error::conflict(format!(
                "you have {seeks} open seeks already: cancel one before posting another"
            )));
        }
        if target.is_some() && named >= self.limits.open_challenges {
            return Err(Error::conflict(format!(
                "you have {named} open challenges already: wait for answers or cancel some"
            )));
        }
        let mut challenge = Challenge {
            id: 0,
            challenger: user.player.clone(),
            target,
            size: options.size,
            symmetry: options.symmetry,
            variant: options.variant,
            color: options.color,
            rated: options.rated,
            control,
            status: ChallengeStatus::Open,
            game_id: None,
            created_at: self.now(),
        };
        let to = match &challenge.target {
            Some(target) => self.profile_for_mail(target.id).await,
            None => None,
        };
        let lead = format!("{} challenges you", user.player.name);
        store::insert_challenge(&self.db, &mut challenge, |c| {
            self.challenge_mails(c, to.as_ref(), &lead, true)
        })
        .await?;
        self.mail_waiting.notify_one();
        if let Some(target) = &challenge.target {
            self.notify_player(target.id, PlayerEvent::Challenge(challenge.clone()))
                .await;
        }
        Ok(Created::Challenge(challenge))
    }

    async fn computer_game(
        self: &Arc<Self>,
        user: &AuthUser,
        options: &ChallengeOptions,
        control: TimeControl,
        level: Level,
    ) -> Result<Created> {
        let me = Seat::Human(user.player.clone());
        let engine = Seat::Engine(level.get());
        let (white, black) = match options.color.resolve(auth::coin()) {
            Color::White => (me, engine),
            Color::Black => (engine, me),
        };
        let start = Position::new_variant(options.variant, options.size, options.symmetry)
            .map_err(|e| Error::invalid(e.to_string()))?;
        let settings = NewGame {
            white,
            black,
            start,
            rated: false,
            control,
        };
        let mut game = Game::new(settings, self.now());
        let mut conn = self.db.write.acquire().await?;
        store::insert_game(&mut conn, &mut game).await?;
        drop(conn);
        self.game_started(&game).await;
        Ok(Created::Game(Box::new(game)))
    }

    async fn open_challenge(&self, id: i64) -> Result<Challenge> {
        let c = store::load_challenge(&self.db, id)
            .await?
            .ok_or(Error::NoSuchChallenge(id))?;
        if c.status != ChallengeStatus::Open {
            return Err(Error::conflict(format!("challenge {id} is {}", c.status)));
        }
        Ok(c)
    }

    /// Whether `id` is a challenge or else (possibly) a game: the number
    /// alone tells them apart, since both share one numbering.
    pub async fn numbered(&self, id: i64) -> Result<Numbered> {
        match store::load_challenge(&self.db, id).await? {
            Some(c) => Ok(Numbered::Challenge(c)),
            None => Ok(Numbered::Game),
        }
    }

    /// Accepts a challenge: the game begins.
    pub async fn accept(self: &Arc<Self>, user: &AuthUser, id: i64) -> Result<Game> {
        user.require_play()?;
        let c = self.open_challenge(id).await?;
        if c.challenger.id == user.player.id {
            return Err(Error::invalid("you cannot accept your own challenge"));
        }
        if c.target.as_ref().is_some_and(|t| t.id != user.player.id) {
            return Err(Error::forbidden(format!(
                "challenge {id} is for another player"
            )));
        }
        if user.guest && c.rated {
            return Err(Error::forbidden(
                "guests play unrated games only: sign up to accept a rated challenge",
            ));
        }
        let challenger = Seat::Human(c.challenger.clone());
        let me = Seat::Human(user.player.clone());
        let (white, black) = match c.color.resolve(auth::coin()) {
            Color::White => (challenger, me),
            Color::Black => (me, challenger),
        };
        let start = c
            .start()
            .map_err(|e| Error::Internal(format!("challenge {id}: {e}")))?;
        let settings = NewGame {
            white,
            black,
            start,
            rated: c.rated,
            control: c.control,
        };
        if c.control.is_correspondence() {
            self.check_correspondence_room(user.player.id, "you")
                .await?;
            self.check_correspondence_room(c.challenger.id, &c.challenger.name)
                .await?;
        }
        let mut game = Game::new(settings, self.now());
        self.with_vacations(&mut game).await?;
        let challenger = self.profile_for_mail(c.challenger.id).await;
        let accepter = self.profile_for_mail(user.player.id).await;
        let profiles: Vec<&crate::mail::MailProfile> =
            challenger.iter().chain(accepter.iter()).collect();
        let accepted = store::accept_challenge(&self.db, id, &mut game, |g| {
            self.game_start_mails(g, challenger.as_ref(), &user.player.name, &profiles)
        })
        .await?;
        self.mail_waiting.notify_one();
        if !accepted {
            return Err(Error::conflict(format!(
                "challenge {id} was answered meanwhile"
            )));
        }
        self.game_started(&game).await;
        Ok(game)
    }

    /// Declines a challenge made to `user`, or withdraws `user`'s own.
    pub async fn close_challenge(
        &self,
        user: &AuthUser,
        id: i64,
        cancel: bool,
    ) -> Result<Challenge> {
        user.require_play()?;
        let mut c = self.open_challenge(id).await?;
        let allowed = if cancel {
            c.challenger.id == user.player.id
        } else {
            c.target.as_ref().is_some_and(|t| t.id == user.player.id)
        };
        if !allowed {
            return Err(Error::forbidden(if cancel {
                format!("only its challenger can cancel challenge {id}")
            } else {
                format!("only the challenged player can decline challenge {id}")
            }));
        }
        let status = if cancel {
            ChallengeStatus::Canceled
        } else {
            ChallengeStatus::Declined
        };
        let mails = if cancel {
            Vec::new()
        } else {
            let to = self.profile_for_mail(c.challenger.id).await;
            let lead = format!("{} declined your challenge", user.player.name);
            self.challenge_mails(&c, to.as_ref(), &lead, false)
        };
        if !store::close_challenge(&self.db, id, status, &mails, self.now()).await? {
            return Err(Error::conflict(format!(
                "challenge {id} was answered meanwhile"
            )));
        }
        c.status = status;
        if cancel {
            if let Some(target) = &c.target {
                self.notify_player(target.id, PlayerEvent::ChallengeCanceled(c.clone()))
                    .await;
            }
        } else {
            self.notify_player(c.challenger.id, PlayerEvent::ChallengeDeclined(c.clone()))
                .await;
        }
        Ok(c)
    }

    /// The open challenges `player` sees: their own, those to them and open
    /// seeks.
    pub async fn challenges(&self, player: &Player) -> Result<Vec<Challenge>> {
        store::open_challenges(&self.db, player.id).await
    }
}
