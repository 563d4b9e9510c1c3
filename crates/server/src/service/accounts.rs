//! Accounts: sign-up, guests, password checks with their limits, sessions,
//! API tokens, password changes and account deletion.

use std::net::IpAddr;
use std::sync::Arc;

use super::{SESSION_MS, Service, hash_blocking};
use crate::auth::{self, AuthUser, Credential, Scope};
use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::store::{self, TokenInfo, UserRecord};

/// A new browser session: who, its secret (for the cookie) and its CSRF
/// token.
#[derive(Clone, Debug)]
pub struct Session {
    /// The signed-in account.
    pub player: Player,
    /// The session's secret, for the cookie; stored only as its hash.
    pub secret: String,
    /// The token state-changing requests must carry in a header.
    pub csrf: String,
}

/// The longest token label.
const MAX_LABEL: usize = 100;

impl Service {
    /// Creates an account and signs it in. A guest who signs up keeps their
    /// games: the guest account becomes theirs. Limited per address.
    pub async fn sign_up(
        &self,
        name: &str,
        password: &str,
        email: &str,
        bot: bool,
        addr: IpAddr,
        guest: Option<&AuthUser>,
    ) -> Result<Session> {
        auth::check_name(name)?;
        auth::check_password(password)?;
        auth::check_email(email)?;
        self.auth
            .signups
            .try_add(addr, self.limits.signups_per_minute, self.now())
            .map_err(|retry_after_s| Error::RateLimited {
                what: "too many sign-ups from your address".into(),
                retry_after_s,
            })?;
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
        // The address is verified by mail before anything else is mailed.
        if let Err(e) = self
            .mail_verification(player.id, &player.name, email.trim())
            .await
        {
            tracing::warn!("queueing the verification mail of {}: {e}", player.name);
        }
        self.new_session(player).await
    }

    /// Makes a guest account and signs it in, for a visitor who wants to play
    /// at once. Refused to a visitor already signed in (so that no other
    /// site can sign a visitor out by making them a guest). Limited per
    /// address, apart from password checks.
    pub async fn guest(&self, addr: IpAddr, signed_in: Option<&AuthUser>) -> Result<Session> {
        if let Some(user) = signed_in {
            return Err(Error::conflict(format!(
                "you are already signed in as {}",
                user.player.name
            )));
        }
        self.auth
            .guests
            .try_add(addr, self.limits.guests_per_minute, self.now())
            .map_err(|retry_after_s| Error::RateLimited {
                what: "too many guest accounts from your address".into(),
                retry_after_s,
            })?;
        let mut last = None;
        for _ in 0..5 {
            let name = auth::guest_name();
            match store::create_guest(&self.db, &name, self.now()).await {
                Ok(player) => return self.new_session(player).await,
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| Error::Internal("no guest name was free".into())))
    }

    /// Checks a name and password for a request from `addr`.
    ///
    /// Failures are counted per account, per account and address, and per
    /// address. A check is refused without looking at the password when the
    /// account has failed too often from this address, or from everywhere,
    /// or when the address has failed too often overall *and* already failed
    /// on this account. So a correct password is never refused for the
    /// address's sake alone, and one client behind a shared address cannot
    /// lock the others out.
    pub async fn check_password(
        &self,
        name: &str,
        password: &str,
        addr: IpAddr,
    ) -> Result<UserRecord> {
        let now = self.now();
        let key = name.to_ascii_lowercase();
        let pair = (key.clone(), addr);
        let limits = &self.limits;
        let counters = &self.auth;
        let pair_failures = counters.failures_by_pair.count(&pair, now);
        let waits = if pair_failures >= limits.failures_per_account_address {
            Some(counters.failures_by_pair.retry_after_s(
                &pair,
                limits.failures_per_account_address,
                now,
            ))
        } else if counters.failures_by_account.count(&key, now) >= limits.failures_per_account {
            Some(
                counters
                    .failures_by_account
                    .retry_after_s(&key, limits.failures_per_account, now),
            )
        } else if pair_failures > 0
            && counters.failures_by_address.count(&addr, now) >= limits.failures_per_address
        {
            // One try per account: until the pair's failure ages out.
            Some(counters.failures_by_pair.retry_after_s(&pair, 1, now))
        } else {
            None
        };
        if let Some(retry_after_s) = waits {
            return Err(Error::RateLimited {
                what: format!(
                    "too many failed sign-ins for {}",
                    epaminondas_rules::excerpt(name)
                ),
                retry_after_s,
            });
        }
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
            Some(user) if ok => {
                counters.failures_by_pair.reset(&pair);
                Ok(user)
            }
            _ => {
                counters
                    .failures_by_pair
                    .add(pair, limits.failures_per_account_address, now);
                counters
                    .failures_by_account
                    .add(key, limits.failures_per_account, now);
                counters
                    .failures_by_address
                    .add(addr, limits.failures_per_address, now);
                Err(Error::Unauthorized("wrong name or password".into()))
            }
        }
    }

    /// The user a pbmserv-style command acts for: its name and password
    /// checked as [`Service::check_password`] does.
    pub async fn password_user(
        &self,
        name: &str,
        password: &str,
        addr: IpAddr,
    ) -> Result<AuthUser> {
        let user = self.check_password(name, password, addr).await?;
        Ok(AuthUser::by_password(user.player, user.bot))
    }

    /// Signs in with a password: a new session.
    pub async fn sign_in(&self, name: &str, password: &str, addr: IpAddr) -> Result<Session> {
        let user = self.check_password(name, password, addr).await?;
        self.new_session(user.player).await
    }

    async fn new_session(&self, player: Player) -> Result<Session> {
        let secret = auth::new_secret("s_");
        let csrf = auth::new_secret("c_");
        store::create_session(
            &self.db,
            &auth::hash_secret(&secret),
            player.id,
            &csrf,
            self.now() + SESSION_MS,
        )
        .await?;
        Ok(Session {
            player,
            secret,
            csrf,
        })
    }

    /// Ends the session with this secret.
    pub async fn sign_out(&self, secret: &str) -> Result<()> {
        store::delete_session(&self.db, &auth::hash_secret(secret)).await
    }

    /// Ends every session of `user` (this one included); API tokens stay.
    /// Returns how many sessions ended.
    pub async fn sign_out_everywhere(&self, user: &AuthUser) -> Result<u64> {
        user.require_password_session()?;
        store::delete_sessions_of(&self.db, user.player.id, None).await
    }

    /// The user of a session secret.
    pub async fn session_user(&self, secret: &str) -> Result<Option<AuthUser>> {
        store::session_user(&self.db, &auth::hash_secret(secret), self.now()).await
    }

    /// The user of an API token.
    pub async fn token_user(&self, secret: &str) -> Result<Option<AuthUser>> {
        store::token_user(&self.db, &auth::hash_secret(secret)).await
    }

    /// Makes an API token for `user` with the scopes named; the secret is
    /// returned only here. Needs a password session.
    pub async fn create_token(
        &self,
        user: &AuthUser,
        label: &str,
        scope_names: &[String],
    ) -> Result<(TokenInfo, String)> {
        user.require_password_session()?;
        let scopes = Scope::parse_list(scope_names)?;
        if scopes.contains(&Scope::Bot) && !user.bot {
            return Err(Error::forbidden(
                "only bot accounts can have the bot scope (sign up with \"bot\": true)",
            ));
        }
        if label.chars().count() > MAX_LABEL {
            return Err(Error::invalid(format!(
                "a token label is at most {MAX_LABEL} characters"
            )));
        }
        let secret = auth::new_secret("ep_");
        let now = self.now();
        let id = store::create_token(
            &self.db,
            user.player.id,
            &auth::hash_secret(&secret),
            label,
            &scopes,
            now,
        )
        .await?;
        let info = TokenInfo {
            id,
            label: label.to_string(),
            scopes,
            created_at: now,
        };
        Ok((info, secret))
    }

    /// `user`'s API tokens. Needs a password session.
    pub async fn tokens(&self, user: &AuthUser) -> Result<Vec<TokenInfo>> {
        user.require_password_session()?;
        store::list_tokens(&self.db, user.player.id).await
    }

    /// Revokes `user`'s token `id`. Needs a password session: a token
    /// cannot revoke its siblings.
    pub async fn revoke_token(&self, user: &AuthUser, id: i64) -> Result<()> {
        user.require_password_session()?;
        if store::delete_token(&self.db, user.player.id, id).await? {
            Ok(())
        } else {
            Err(Error::NoSuchToken(id))
        }
    }

    /// Changes `user`'s password after checking the current one; every
    /// other session of the account ends (API tokens stay). `current_session`
    /// is the secret of the session making the change, which stays.
    pub async fn change_password(
        &self,
        user: &AuthUser,
        current: &str,
        new: &str,
        addr: IpAddr,
        current_session: Option<&str>,
    ) -> Result<u64> {
        user.require_password_session()?;
        auth::check_password(new)?;
        self.check_password(&user.player.name, current, addr)
            .await?;
        let hash = hash_blocking(new.to_string()).await?;
        store::set_password(&self.db, user.player.id, &hash).await?;
        let keep = current_session.map(auth::hash_secret);
        store::delete_sessions_of(&self.db, user.player.id, keep.as_deref()).await
    }

    /// Sets `user`'s password to `new` when the request itself was signed
    /// with the password (pbmserv's `change password` command): every
    /// session of the account ends.
    pub async fn set_new_password(&self, user: &AuthUser, new: &str) -> Result<u64> {
        if user.credential != Credential::Password {
            return Err(Error::forbidden(
                "changing the password needs the current password",
            ));
        }
        auth::check_password(new)?;
        let hash = hash_blocking(new.to_string()).await?;
        store::set_password(&self.db, user.player.id, &hash).await?;
        store::delete_sessions_of(&self.db, user.player.id, None).await
    }

    /// Every player's finished games against people: played, won, drawn.
    pub async fn standings(&self) -> Result<Vec<store::Standings>> {
        store::standings(&self.db).await
    }

    /// Deletes `user`'s account after checking its password: the account's
    /// running games are resigned, its challenges withdrawn, its sessions
    /// and tokens ended, its name and e-mail forgotten. Its games stay,
    /// under a placeholder name (`deleted-N`), which is returned.
    pub async fn delete_account(
        self: &Arc<Self>,
        user: &AuthUser,
        password: &str,
        addr: IpAddr,
    ) -> Result<String> {
        user.require_password_session()?;
        self.check_password(&user.player.name, password, addr)
            .await?;
        let running = store::games_of(&self.db, user.player.id, true, i64::MAX).await?;
        for game in running {
            let resigned = self
                .change_game(game.id, |g: &mut Game, now| {
                    if let Some(side) = g.color_of(user.player.id) {
                        g.resign(side, now)?;
                    }
                    Ok(())
                })
                .await;
            match resigned {
                Ok(_) | Err(Error::Game(_)) => {}
                Err(e) => return Err(e),
            }
        }
        let placeholder = format!("deleted-{}", user.player.id);
        store::delete_account(&self.db, user.player.id, &placeholder, self.now()).await?;
        self.forget_games_of(user.player.id).await;
        Ok(placeholder)
    }

    /// The account named `name`.
    pub async fn user(&self, name: &str) -> Result<UserRecord> {
        store::user_by_name(&self.db, name)
            .await?
            .ok_or_else(|| Error::NoSuchPlayer(epaminondas_rules::excerpt(name)))
    }

    /// The player named `name`.
    pub async fn player(&self, name: &str) -> Result<Player> {
        Ok(self.user(name).await?.player)
    }
}

impl AuthUser {
    /// The CSRF token of a browser session, if signed in by one.
    pub fn csrf(&self) -> Option<&str> {
        match &self.credential {
            Credential::Session { csrf } => Some(csrf),
            _ => None,
        }
    }
}
