//! The store: where runs, events, the journal, snapshots, accounts, sessions and the audit log
//! are kept. Two implementations, chosen by the scheme of the database URL:
//!
//! - `sqlite://path` — an embedded SQLite file (the default of `make run`), [`sqlite`];
//! - `postgres://…` — a PostgreSQL ≥ 15 database, shared by several console replicas,
//!   [`postgres`].
//!
//! Callers hold a [`Store`] and call the functions of [`crate::history`],
//! [`crate::journal`], [`crate::accounts`] and the other modules with it; none of them names
//! a pool or a dialect. Inside `services`, a query is written once and compiled against both
//! drivers by [`on_pool!`] (the two dialects agree on most SQL, and sqlx binds `$1`, `$2`, …
//! on both); where they differ (bulk inserts, partitions, text search) the module matches
//! on [`Dialect`] and each dialect has its own statement.

pub mod postgres;
pub mod sqlite;

use sqlx::{PgConnection, PgPool, SqliteConnection, SqlitePool};

use crate::error::{Result, ServiceError};

/// Whether a multi-row statement of `rows` rows, out of chunks of at most `full`, stays
/// prepared on its connection. A multi-row statement's text changes with its row count, and
/// a connection keeps up to 100 prepared statements, each holding SQLite's compiled program
/// (tens of KiB for a few hundred rows) or a PostgreSQL server-side plan: kept for every row
/// count a run happened to produce, they grew the console's memory steadily over a soak at
/// `max` (docs/PERFORMANCE.md). Only the two common shapes stay prepared, one row and a full
/// chunk; any other count is prepared, run and finalised.
pub fn keep_prepared(rows: usize, full: usize) -> bool {
    rows == 1 || rows == full
}

/// Which database a [`Store`] runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// An embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

impl Dialect {
    /// The name shown in logs, `/healthz` and errors.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Sqlite => "sqlite",
            Dialect::Postgres => "postgres",
        }
    }
}

/// A handle on the store (migrations applied). Cheap to clone: one pool shared by clones.
#[derive(Debug, Clone)]
pub struct Store {
    db: Db,
    partitions: std::sync::Arc<postgres::Partitions>,
    accounts_version: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// The pool of a [`Store`], one variant per dialect (see [`on_pool!`]).
#[derive(Debug, Clone)]
pub(crate) enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The lead of a store's run, held while this value lives (see [`Store::lead`]).
#[derive(Debug)]
pub enum Lead {
    /// An SQLite file: the process that opened it is its only writer.
    Sole,
    /// A PostgreSQL database: the advisory lock is held.
    Held(Box<postgres::Leadership>),
    /// A PostgreSQL database led by another console: this one follows, and takes the lead
    /// when the lock is free ([`postgres::Candidate::acquire`]).
    Candidate(Box<postgres::Candidate>),
}

impl Lead {
    /// Resolves (with the reason) when the lead is lost for good; never for SQLite. A
    /// candidate first waits for the lead, calls `taken`, then watches it like a leader. See
    /// [`postgres::Leadership::lost`].
    pub async fn lost(self, taken: impl FnOnce()) -> String {
        match self {
            Lead::Sole => std::future::pending().await,
            Lead::Held(leadership) => (*leadership).lost().await,
            Lead::Candidate(candidate) => {
                let leadership = candidate.acquire().await;
                taken();
                leadership.lost().await
            }
        }
    }
}

/// A connection of its own outside the pool (the journal's, the persistence task's), one
/// variant per dialect (see [`on_conn!`]).
#[derive(Debug)]
pub enum Conn {
    /// On an SQLite file.
    Sqlite(SqliteConnection),
    /// On a PostgreSQL server.
    Postgres(PgConnection),
}

/// Runs `$body` with `$pool` bound to the store's pool, whichever the dialect: the body is
/// compiled once per driver, so the same query text and binds serve both.
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store.db() {
            $crate::store::Db::Sqlite($pool) => $body,
            $crate::store::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_pool;

/// As [`on_pool!`], for a [`Conn`].
macro_rules! on_conn {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            $crate::store::Conn::Sqlite($c) => $body,
            $crate::store::Conn::Postgres($c) => $body,
        }
    };
}
pub(crate) use on_conn;

/// The URL schemes a store can be opened on, as shown in errors.
pub const SCHEMES: &str =
    "sqlite://<file> (embedded, the default) or postgres://<user>@<host>/<database>";

impl Store {
    /// Opens the store at `url` and applies the dialect's migrations (`migrations/sqlite/` or
    /// `migrations/postgres/`). Any scheme but `sqlite:` and `postgres:`/`postgresql:` is
    /// refused before anything is created.
    pub async fn connect(url: &str) -> Result<Store> {
        let db = match scheme(url) {
            Some("sqlite") => Db::Sqlite(sqlite::connect(url).await?),
            Some("postgres" | "postgresql") => Db::Postgres(postgres::connect(url).await?),
            Some(other) => {
                return Err(ServiceError::invalid(
                    "database-url",
                    format!("unsupported scheme {other:?}: use {SCHEMES}"),
                ))
            }
            None => {
                return Err(ServiceError::invalid(
                    "database-url",
                    format!("{url:?} has no scheme: use {SCHEMES}"),
                ))
            }
        };
        Ok(Store {
            db,
            partitions: Default::default(),
            accounts_version: Default::default(),
        })
    }

    /// The dialect of the store.
    pub fn dialect(&self) -> Dialect {
        match self.db {
            Db::Sqlite(_) => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// The partitions of the events table known to exist (PostgreSQL).
    pub(crate) fn partitions(&self) -> &postgres::Partitions {
        &self.partitions
    }

    /// How many times this process changed an account (role, disabled, deleted, password):
    /// what a remembered sign-in ([`crate::signed_in`]) was read for.
    pub fn accounts_version(&self) -> u64 {
        self.accounts_version
            .load(std::sync::atomic::Ordering::Acquire)
    }

    /// Marks a change to an account (after its write is committed).
    pub(crate) fn account_changed(&self) {
        self.accounts_version
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    }

    /// Whether the database answers (`/healthz`).
    pub async fn ping(&self) -> Result<()> {
        on_pool!(self, pool => sqlx::query("SELECT 1").execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The SQLite pool, for tests and tools that look at the file directly.
    pub fn sqlite_pool(&self) -> Option<&SqlitePool> {
        match &self.db {
            Db::Sqlite(pool) => Some(pool),
            Db::Postgres(_) => None,
        }
    }

    /// The PostgreSQL pool, for tests, tools and the replicas' coordination.
    pub fn postgres_pool(&self) -> Option<&PgPool> {
        match &self.db {
            Db::Postgres(pool) => Some(pool),
            Db::Sqlite(_) => None,
        }
    }

    /// Takes the lead of the store's run: on PostgreSQL the advisory lock of
    /// [`postgres::lead`] (refused while another console holds it); on SQLite nothing (the
    /// file belongs to the process that opened it). Keep the value for as long as the console
    /// runs the engines.
    pub async fn lead(&self) -> Result<Lead> {
        Ok(match &self.db {
            Db::Sqlite(_) => Lead::Sole,
            Db::Postgres(pool) => Lead::Held(Box::new(postgres::lead(pool).await?)),
        })
    }

    /// Takes the lead if it is free, or becomes a [`Lead::Candidate`] (PostgreSQL) while
    /// another console holds it.
    pub async fn lead_or_follow(&self) -> Result<Lead> {
        Ok(match &self.db {
            Db::Sqlite(_) => Lead::Sole,
            Db::Postgres(pool) => match postgres::lead_or_candidate(pool).await? {
                Ok(leadership) => Lead::Held(Box::new(leadership)),
                Err(candidate) => Lead::Candidate(Box::new(candidate)),
            },
        })
    }

    /// A connection of its own for the action journal: every commit on it is durable before
    /// it returns (SQLite `synchronous = FULL`; PostgreSQL `synchronous_commit = on`).
    pub async fn journal_connection(&self) -> Result<Conn> {
        Ok(match &self.db {
            Db::Sqlite(pool) => Conn::Sqlite(sqlite::journal_connection(pool).await?),
            Db::Postgres(pool) => Conn::Postgres(postgres::journal_connection(pool).await?),
        })
    }

    /// A connection of its own for the persistence task's events and snapshots. Its commits
    /// survive a crash of the console; a crash of the machine may lose the last ones, which a
    /// resume writes again from the journal.
    pub async fn events_connection(&self) -> Result<Conn> {
        Ok(match &self.db {
            Db::Sqlite(pool) => Conn::Sqlite(sqlite::events_connection(pool).await?),
            Db::Postgres(pool) => Conn::Postgres(postgres::events_connection(pool).await?),
        })
    }
}

/// Writing a batch of a run's events in the dialect's fastest form (SQLite: multi-row
/// `INSERT`s; PostgreSQL: `COPY` for new events, `INSERT … SELECT FROM UNNEST` of arrays for
/// those a resume writes again). Implemented by both
/// connection types, so the persistence task's transaction loop is written once.
#[allow(async_fn_in_trait)] // crate-private: every caller uses a concrete connection type.
pub(crate) trait EventRows {
    /// Makes sure the tables the events of `run_id` go into exist (PostgreSQL: the
    /// partitions of their spans; SQLite: nothing). Outside a transaction.
    async fn prepare_events(
        &mut self,
        partitions: &postgres::Partitions,
        run_id: i64,
        events: &[engine::Event],
    ) -> Result<()>;

    /// Inserts `events` numbered from `first_seq`; events stored already are skipped.
    async fn insert_event_rows(
        &mut self,
        run_id: i64,
        first_seq: u64,
        events: &[engine::Event],
    ) -> Result<()>;

    /// Appends `events` numbered from `first_seq`, none of which is stored yet (the
    /// persistence task's), in one statement of the dialect's bulk path (PostgreSQL: a
    /// binary `COPY`).
    async fn append_event_rows(
        &mut self,
        run_id: i64,
        first_seq: u64,
        events: &[engine::Event],
    ) -> Result<()>;
}

impl EventRows for SqliteConnection {
    async fn prepare_events(
        &mut self,
        _: &postgres::Partitions,
        _: i64,
        _: &[engine::Event],
    ) -> Result<()> {
        Ok(())
    }

    async fn insert_event_rows(
        &mut self,
        run_id: i64,
        first_seq: u64,
        events: &[engine::Event],
    ) -> Result<()> {
        sqlite::insert_event_rows(self, run_id, first_seq, events).await
    }

    async fn append_event_rows(
        &mut self,
        run_id: i64,
        first_seq: u64,
        events: &[engine::Event],
    ) -> Result<()> {
        sqlite::insert_event_rows(self, run_id, first_seq, events).await
    }
}

impl EventRows for PgConnection {
    async fn prepare_events(
        &mut self,
        partitions: &postgres::Partitions,
        run_id: i64,
        events: &[engine::Event],
    ) -> Result<()> {
        postgres::ensure_partitions(self, partitions, run_id, events).await
    }

    async fn insert_event_rows(
        &mut self,
        run_id: i64,
        first_seq: u64,
        events: &[engine::Event],
    ) -> Result<()> {
        postgres::insert_event_rows(self, run_id, first_seq, events).await
    }

    async fn append_event_rows(
        &mut self,
        run_id: i64,
        first_seq: u64,
        events: &[engine::Event],
    ) -> Result<()> {
        postgres::copy_event_rows(self, run_id, first_seq, events).await
    }
}

/// `url` with its password (if any) replaced by `***`, for logs and start-up lines.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((userinfo, host)) = rest.rsplit_once('@') else {
        return url.to_owned();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

/// The scheme of a URL (`sqlite` of `sqlite://x.db`), as written (schemes are compared
/// exactly: `SQLITE://` is refused like any unknown scheme).
fn scheme(url: &str) -> Option<&str> {
    let (scheme, _) = url.split_once(':')?;
    let valid = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

/// A migration failure in words an operator can act on: a database migrated by a newer
/// version of the console is named as such.
pub(crate) fn explain_migration(e: sqlx::migrate::MigrateError) -> ServiceError {
    use sqlx::migrate::MigrateError;
    match e {
        MigrateError::VersionMissing(version) => ServiceError::invalid(
            "database-url",
            format!(
                "the database was migrated by a newer version of Switchyard (migration {version} is unknown to this one): run the newer version, or use another database"
            ),
        ),
        MigrateError::VersionMismatch(version) => ServiceError::invalid(
            "database-url",
            format!(
                "migration {version} of the database differs from this version's: it was made by another build of Switchyard"
            ),
        ),
        other => ServiceError::Migration(other),
    }
}

/// The current wall-clock time as stored in text columns (RFC 3339, UTC, milliseconds).
pub fn now_text() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Saturating conversion of counters and instants to the stores' signed 64-bit integers.
pub(crate) fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_a_log_line() {
        let cases = [
            (
                "postgres://sy:s3cret@db:5432/sy",
                "postgres://sy:***@db:5432/sy",
            ),
            ("postgres://sy:p@ss@db/sy", "postgres://sy:***@db/sy"),
            ("postgres://sy@db/sy", "postgres://sy@db/sy"),
            ("sqlite://data/switchyard.db", "sqlite://data/switchyard.db"),
            ("no scheme", "no scheme"),
        ];
        for (url, shown) in cases {
            assert_eq!(redacted(url), shown, "{url}");
        }
    }

    #[test]
    fn the_scheme_chooses_the_store() {
        let cases = [
            ("sqlite://data/x.db", Some("sqlite")),
            ("sqlite::memory:", Some("sqlite")),
            ("postgres://u@h/db", Some("postgres")),
            ("postgresql://u@h/db", Some("postgresql")),
            ("mysql://u@h/db", Some("mysql")),
            ("data/x.db", None),
            ("", None),
        ];
        for (url, want) in cases {
            assert_eq!(scheme(url), want, "{url}");
        }
    }

    #[tokio::test]
    async fn other_schemes_are_refused_and_nothing_is_created() {
        let dir = tempfile::tempdir().expect("dir");
        for url in [
            format!("mysql://{}/x.db", dir.path().display()),
            format!("{}/x.db", dir.path().display()),
        ] {
            let err = Store::connect(&url).await.err().map(|e| e.to_string());
            let err = err.unwrap_or_default();
            assert!(err.starts_with("database-url: "), "{url}: {err}");
            assert!(
                err.contains("sqlite://") && err.contains("postgres://"),
                "{err}"
            );
        }
        let created = std::fs::read_dir(dir.path()).expect("dir").count();
        assert_eq!(created, 0, "nothing created for a refused URL");
    }
}
