//! Sign-in sessions kept in the store, whichever the dialect: the session stores of
//! `tower-sessions-sqlx-store` for SQLite and PostgreSQL behind one type, so the server's
//! session layer never names a dialect.

use async_trait::async_trait;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, ExpiredDeletion, SessionStore};
use tower_sessions_sqlx_store::{PostgresStore, SqliteStore};

use crate::error::Result;
use crate::store::{Db, Store};

/// How often expired sessions are deleted (`ExpiredDeletion::continuously_delete_expired`).
pub const DELETE_EXPIRED_EVERY: std::time::Duration = std::time::Duration::from_secs(600);

/// The session store on a [`Store`]'s database.
#[derive(Debug, Clone)]
pub enum Sessions {
    /// Table `tower_sessions` of the SQLite file.
    Sqlite(SqliteStore),
    /// Table `tower_sessions.session` of the PostgreSQL database.
    Postgres(PostgresStore),
}

impl Sessions {
    /// The session store on `store`'s database, its table created when missing.
    pub async fn open(store: &Store) -> Result<Sessions> {
        let sessions = match store.db() {
            Db::Sqlite(pool) => Sessions::Sqlite(SqliteStore::new(pool.clone())),
            Db::Postgres(pool) => Sessions::Postgres(PostgresStore::new(pool.clone())),
        };
        match &sessions {
            Sessions::Sqlite(s) => s.migrate().await?,
            Sessions::Postgres(s) => s.migrate().await?,
        }
        Ok(sessions)
    }
}

#[async_trait]
impl SessionStore for Sessions {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.create(record).await,
            Sessions::Postgres(s) => s.create(record).await,
        }
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.save(record).await,
            Sessions::Postgres(s) => s.save(record).await,
        }
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        match self {
            Sessions::Sqlite(s) => s.load(id).await,
            Sessions::Postgres(s) => s.load(id).await,
        }
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete(id).await,
            Sessions::Postgres(s) => s.delete(id).await,
        }
    }
}

#[async_trait]
impl ExpiredDeletion for Sessions {
    async fn delete_expired(&self) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete_expired().await,
            Sessions::Postgres(s) => s.delete_expired().await,
        }
    }
}
