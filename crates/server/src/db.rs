//! The database: SQLite (one file, the default) or PostgreSQL (shared by
//! several server processes), behind one set of queries through sqlx's
//! `Any` driver. Migrations run when the server starts.

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor};

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file: one server process.
    Sqlite,
    /// A PostgreSQL server: one or more server processes.
    Postgres,
}

/// The database URL could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// The URL's scheme is neither `sqlite:` nor `postgres:`.
    #[error("unsupported database URL {0:?}: use sqlite://FILE or postgres://USER@HOST/DB")]
    Scheme(String),
    /// Connecting failed.
    #[error("cannot open the database {url}: {source}")]
    Connect {
        /// The URL, without its password.
        url: String,
        /// What went wrong.
        source: sqlx::Error,
    },
    /// A migration failed.
    #[error("cannot bring the database schema up to date: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl FromStr for Backend {
    type Err = DatabaseError;

    fn from_str(url: &str) -> Result<Backend, DatabaseError> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Backend::Postgres)
        } else {
            Err(DatabaseError::Scheme(redact(url)))
        }
    }
}

/// `url` with any password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme + 3],
                    &credentials[..colon],
                    &url[at..]
                ),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The connection pools.
#[derive(Clone, Debug)]
pub struct Database {
    /// For reads (several connections).
    pub read: AnyPool,
    /// For writes. With SQLite a single connection, so that writers queue in
    /// the server instead of failing on SQLite's lock; with PostgreSQL the
    /// same pool as `read`.
    pub write: AnyPool,
    /// Which database this is.
    pub backend: Backend,
    /// The URL it was opened with (for PostgreSQL's notification listener).
    pub url: String,
}

impl Database {
    /// Opens the database at `url` (creating an SQLite file if needed) and
    /// runs the migrations.
    pub async fn open(url: &str) -> Result<Database, DatabaseError> {
        install_default_drivers();
        let backend: Backend = url.parse()?;
        let connect = |e| DatabaseError::Connect {
            url: redact(url),
            source: e,
        };
        let db = match backend {
            Backend::Sqlite => {
                let url = if url.contains('?') {
                    url.to_string()
                } else {
                    format!("{url}?mode=rwc")
                };
                let options = || {
                    AnyPoolOptions::new()
                        .acquire_timeout(Duration::from_secs(30))
                        .after_connect(|conn, _| {
                            Box::pin(async move {
                                // WAL: readers never wait for the writer; a
                                // commit is in the log before it is
                                // acknowledged, so a killed process loses
                                // nothing it acknowledged.
                                conn.execute("PRAGMA journal_mode = WAL").await?;
                                conn.execute("PRAGMA synchronous = NORMAL").await?;
                                conn.execute("PRAGMA busy_timeout = 10000").await?;
                                conn.execute("PRAGMA foreign_keys = ON").await?;
                                Ok(())
                            })
                        })
                };
                let write = options()
                    .max_connections(1)
                    .connect(&url)
                    .await
                    .map_err(connect)?;
                sqlx::migrate!("./migrations/sqlite").run(&write).await?;
                let read = options()
                    .max_connections(4)
                    .connect(&url)
                    .await
                    .map_err(connect)?;
                Database {
                    read,
                    write,
                    backend,
                    url,
                }
            }
            Backend::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(16)
                    .acquire_timeout(Duration::from_secs(30))
                    .connect(url)
                    .await
                    .map_err(connect)?;
                sqlx::migrate!("./migrations/postgres").run(&pool).await?;
                Database {
                    read: pool.clone(),
                    write: pool,
                    backend,
                    url: url.to_string(),
                }
            }
        };
        Ok(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_and_redaction() {
        assert_eq!("sqlite://x.db".parse::<Backend>().unwrap(), Backend::Sqlite);
        assert_eq!(
            "postgres://u@h/d".parse::<Backend>().unwrap(),
            Backend::Postgres
        );
        let err = "mysql://u:secret@h/d".parse::<Backend>().unwrap_err();
        assert!(!err.to_string().contains("secret"), "{err}");
        assert_eq!(redact("postgres://u:pw@h/d"), "postgres://u:***@h/d");
        assert_eq!(redact("postgres://u@h/d"), "postgres://u@h/d");
    }
}
