//! The PostgreSQL store: a pool on a PostgreSQL ≥ 15 database, the migrations of
//! `migrations/postgres/` applied, and what only PostgreSQL has — the events table
//! partitioned by run and by spans of simulated time, bulk inserts of whole arrays.
//!
//! Partitions: `events` is partitioned by list of `run_id` (`ev_<run>`), each run's table by
//! list of `engine` (`ev_<run>_<engine>`), and each engine's by range of `t_ms` in spans of
//! [`PARTITION_SPAN_MS`] (`ev_<run>_<engine>_<k>` holds `[k × span, (k + 1) × span)`). A
//! page's query names its run, so PostgreSQL reads one run's tables only; an engine filter
//! reads one engine's; time filters touch whole spans, and retention drops them
//! ([`drop_spans_before`]). The writer creates a table the first time an event falls in it
//! ([`ensure_partitions`]).

use std::collections::HashSet;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

use engine::Event;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, PgConnection, PgPool};

use crate::error::{Result, ServiceError};

mod copy;

/// The migrations of `migrations/postgres/` at the top of the workspace, embedded at build
/// time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

/// The oldest PostgreSQL the store runs on (`server_version_num`).
pub const MIN_SERVER_VERSION: i64 = 150_000;

/// Connections of the pool (pages, server functions, sessions); the persistence task, the
/// journal and the replicas' coordination have connections of their own.
pub const POOL_CONNECTIONS: u32 = 16;

/// How long opening the database (and taking a pooled connection) may take before it is an
/// error: an unreachable server fails start-up in seconds, not minutes.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The span of simulated time of one partition of a run's events: 30 simulated days.
pub const PARTITION_SPAN_MS: u64 = 30 * 86_400_000;

/// Opens a pool on the database at `url`, checks the server's version and applies the
/// migrations. Errors name the host and the cause, never the password.
pub async fn connect(url: &str) -> Result<PgPool> {
    let options = PgConnectOptions::from_str(url)
        .map_err(|e| ServiceError::invalid("database-url", format!("not a PostgreSQL URL: {e}")))?;
    let place = format!(
        "PostgreSQL at {}:{} (database {:?}, user {:?})",
        options.get_host(),
        options.get_port(),
        options.get_database().unwrap_or(options.get_username()),
        options.get_username(),
    );
    let pool = PgPoolOptions::new()
        .max_connections(POOL_CONNECTIONS)
        .acquire_timeout(CONNECT_TIMEOUT)
        .connect_with(options)
        .await
        .map_err(|e| {
            ServiceError::invalid(
                "database-url",
                format!("cannot open {place}: {}", cause(&e)),
            )
        })?;
    let version: String = sqlx::query_scalar("SHOW server_version_num")
        .fetch_one(&pool)
        .await?;
    if version.trim().parse::<i64>().unwrap_or(0) < MIN_SERVER_VERSION {
        return Err(ServiceError::invalid(
            "database-url",
            format!("{place} runs version {version}: PostgreSQL 15 or later is needed"),
        ));
    }
    MIGRATOR
        .run(&pool)
        .await
        .map_err(super::explain_migration)?;
    Ok(pool)
}

/// Creates an empty database named `<prefix>_<n>` (a number unused so far in this process)
/// on the server of `admin_url` (a role allowed to create databases) and returns its URL:
/// each test or benchmark run gets a database of its own on a shared throwaway cluster.
pub async fn scratch_database(admin_url: &str, prefix: &str) -> Result<String> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let valid = !prefix.is_empty()
        && prefix
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        return Err(ServiceError::invalid(
            "prefix",
            "lower-case letters, digits and '_' only",
        ));
    }
    let options = PgConnectOptions::from_str(admin_url)
        .map_err(|e| ServiceError::invalid("database-url", format!("not a PostgreSQL URL: {e}")))?;
    let mut admin = options.connect().await?;
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("{prefix}_{}_{n}", std::process::id());
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await?;
    let (base, _) = admin_url.rsplit_once('/').ok_or_else(|| {
        ServiceError::invalid("database-url", "no /<database> at the end of the URL")
    })?;
    Ok(format!("{base}/{name}"))
}

/// The key of the session-level advisory lock held by the console that leads the database's
/// run (the bytes of "SWYCHARD").
pub const LEADER_LOCK_KEY: i64 = 0x5357_5943_4841_5244;

/// Leading the run of a PostgreSQL database: the advisory lock [`LEADER_LOCK_KEY`], held by a
/// connection of its own for as long as this value lives. PostgreSQL releases it when that
/// connection ends — when the console exits or dies (its socket closes) or, after a network
/// cut, when the server's TCP keepalive gives up on it.
#[derive(Debug)]
pub struct Leadership {
    conn: PgConnection,
    options: PgConnectOptions,
}

/// How often the leader checks that its lock's connection is alive.
pub const LEAD_CHECK_EVERY: Duration = Duration::from_secs(1);

impl Leadership {
    /// Resolves when this console has lost the lead for good, with the reason: its lock's
    /// connection broke (the database restarted, a network cut), and when the database
    /// answered again another console held the lock. While the database does not answer it
    /// keeps trying; when it answers and the lock is free, it takes the lock again and goes
    /// on watching.
    pub async fn lost(mut self) -> String {
        loop {
            tokio::time::sleep(LEAD_CHECK_EVERY).await;
            if sqlx::query("SELECT 1")
                .execute(&mut self.conn)
                .await
                .is_ok()
            {
                continue;
            }
            tracing::warn!("the leader's lock connection broke: taking the lock again");
            loop {
                match take_lock(&self.options).await {
                    Ok(Some(conn)) => {
                        tracing::info!("the lead is held again");
                        self.conn = conn;
                        break;
                    }
                    Ok(None) => {
                        return "another console took the lead while the database was unreachable"
                            .to_owned()
                    }
                    Err(e) => tracing::debug!(error = %e, "database still unavailable"),
                }
                tokio::time::sleep(LEAD_CHECK_EVERY).await;
            }
        }
    }
}

/// A connection of its own for the lock. The server gives up on it ~5 s after its client
/// stops answering (a network cut: TCP keepalive and user timeout), so the lock passes to a
/// follower within seconds rather than after the system's default two hours.
async fn lock_connection(options: &PgConnectOptions) -> Result<PgConnection> {
    let options = options.clone().options([
        ("tcp_keepalives_idle", "2"),
        ("tcp_keepalives_interval", "1"),
        ("tcp_keepalives_count", "3"),
        ("tcp_user_timeout", "5000"),
    ]);
    Ok(options.connect().await?)
}

/// A console waiting for the lead of a database another console leads.
#[derive(Debug)]
pub struct Candidate {
    options: PgConnectOptions,
}

impl Candidate {
    /// Waits until this console holds the lock: at once when the leader's lock connection
    /// ends (the server grants it to the first waiter), whatever happens to the database
    /// meanwhile (it tries again every [`LEAD_CHECK_EVERY`]).
    pub async fn acquire(self) -> Leadership {
        loop {
            match lock_connection(&self.options).await {
                Ok(mut conn) => {
                    let waited = sqlx::query("SELECT pg_advisory_lock($1)")
                        .bind(LEADER_LOCK_KEY)
                        .execute(&mut conn)
                        .await;
                    match waited {
                        Ok(_) => {
                            return Leadership {
                                conn,
                                options: self.options,
                            }
                        }
                        Err(e) => tracing::debug!(error = %e, "waiting for the lead failed"),
                    }
                }
                Err(e) => tracing::debug!(error = %e, "cannot wait for the lead yet"),
            }
            tokio::time::sleep(LEAD_CHECK_EVERY).await;
        }
    }
}

/// How long [`lead_or_candidate`] tries for the lock before it follows: a console restarted
/// right after it died may arrive before the server has seen its old connection close.
pub const FOLLOW_AFTER: Duration = Duration::from_secs(1);

/// Takes the lead of the database at `pool` if no other console holds it (trying for
/// [`FOLLOW_AFTER`]), or returns a [`Candidate`] for it.
pub async fn lead_or_candidate(
    pool: &PgPool,
) -> Result<std::result::Result<Leadership, Candidate>> {
    let options = (*pool.connect_options())
        .clone()
        .application_name("switchyard leader");
    let give_up = tokio::time::Instant::now() + FOLLOW_AFTER;
    loop {
        if let Some(conn) = take_lock(&options).await? {
            return Ok(Ok(Leadership { conn, options }));
        }
        if tokio::time::Instant::now() >= give_up {
            return Ok(Err(Candidate { options }));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// A connection of its own that holds the lock, or `None` when another one holds it.
async fn take_lock(options: &PgConnectOptions) -> Result<Option<PgConnection>> {
    let mut conn = lock_connection(options).await?;
    let won: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
        .bind(LEADER_LOCK_KEY)
        .fetch_one(&mut conn)
        .await?;
    Ok(won.then_some(conn))
}

/// How long [`lead`] tries before it says another console leads.
pub const LEAD_WAIT: Duration = Duration::from_secs(5);

/// Takes the lead of the database at `pool`, or says who holds it.
pub async fn lead(pool: &PgPool) -> Result<Leadership> {
    let options = (*pool.connect_options())
        .clone()
        .application_name("switchyard leader");
    // A console restarted right after its predecessor died may arrive before the server has
    // seen that predecessor's connection close: try for a few seconds.
    let give_up = tokio::time::Instant::now() + LEAD_WAIT;
    loop {
        if let Some(conn) = take_lock(&options).await? {
            return Ok(Leadership { conn, options });
        }
        if tokio::time::Instant::now() >= give_up {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let mut conn = options.connect().await?;
    let holder: Option<(i32, Option<String>)> = sqlx::query_as(
        "SELECT a.pid, host(a.client_addr) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE l.locktype = 'advisory' AND l.granted \
         AND ((l.classid::bigint << 32) | l.objid::bigint) = $1 LIMIT 1",
    )
    .bind(LEADER_LOCK_KEY)
    .fetch_optional(&mut conn)
    .await?;
    let who = match holder {
        Some((pid, addr)) => format!(
            " (server process {pid}, client {})",
            addr.unwrap_or_else(|| "local".into())
        ),
        None => String::new(),
    };
    Err(ServiceError::invalid(
        "database-url",
        format!("another Switchyard console leads this database{who}: --new-run needs the lead (without it, this console follows the leader's run)"),
    ))
}

/// The part of a connection error worth showing (the server's own message when it gave one).
fn cause(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(db) => db.message().to_owned(),
        sqlx::Error::PoolTimedOut => format!("no answer within {} s", CONNECT_TIMEOUT.as_secs()),
        other => other.to_string(),
    }
}

/// A connection outside the pool on its database, with `synchronous_commit` as given.
async fn own_connection(pool: &PgPool, synchronous_commit: &str) -> Result<PgConnection> {
    let options = (*pool.connect_options())
        .clone()
        .options([("synchronous_commit", synchronous_commit)]);
    Ok(options.connect().await?)
}

/// The journal's connection: a commit returns once it is flushed to disk (and to the
/// synchronous standbys the server is configured with).
pub async fn journal_connection(pool: &PgPool) -> Result<PgConnection> {
    own_connection(pool, "on").await
}

/// The persistence task's connection. `synchronous_commit = off`: a commit returns before
/// its WAL is flushed, so a crash of the database server may lose the last events written
/// (never a journal entry); a resume writes them again from the journal, as after a crash of
/// the console on SQLite.
pub async fn events_connection(pool: &PgPool) -> Result<PgConnection> {
    own_connection(pool, "off").await
}

/// The events tables known to exist (by name). Shared by the clones of a store.
#[derive(Debug, Default)]
pub struct Partitions {
    made: Mutex<HashSet<String>>,
}

impl Partitions {
    fn known(&self, table: &str) -> bool {
        self.made.lock().map(|m| m.contains(table)).unwrap_or(false)
    }

    fn remember(&self, table: String) {
        if let Ok(mut made) = self.made.lock() {
            made.insert(table);
        }
    }

    fn forget(&self, table: &str) {
        if let Ok(mut made) = self.made.lock() {
            made.remove(table);
        }
    }
}

/// The span index of an instant.
fn span_of(t_ms: u64) -> i64 {
    i64::try_from(t_ms / PARTITION_SPAN_MS).unwrap_or(i64::MAX - 1)
}

/// The table of run `run_id`'s events of `engine` (an engine's name: lower-case ASCII).
fn engine_table(run_id: i64, engine: &str) -> String {
    format!("ev_{run_id}_{engine}")
}

/// Makes sure the tables that hold `events` of `run_id` exist. Outside any transaction:
/// each `CREATE` commits on its own.
pub async fn ensure_partitions(
    conn: &mut PgConnection,
    partitions: &Partitions,
    run_id: i64,
    events: &[Event],
) -> Result<()> {
    // (engine, first span, last span) of the batch.
    let mut spans: Vec<(&'static str, i64, i64)> = Vec::new();
    for e in events {
        let (engine, k) = (e.engine.as_str(), span_of(e.t_ms));
        match spans.iter_mut().find(|(name, ..)| *name == engine) {
            Some((_, low, high)) => {
                *low = (*low).min(k);
                *high = (*high).max(k);
            }
            None => spans.push((engine, k, k)),
        }
    }
    let run_table = format!("ev_{run_id}");
    // Each statement below is run once per table: none stays prepared (see keep_prepared).
    for (engine, first, last) in spans {
        if !partitions.known(&run_table) {
            sqlx::query(&format!(
                "CREATE TABLE IF NOT EXISTS {run_table} PARTITION OF events \
                 FOR VALUES IN ({run_id}) PARTITION BY LIST (engine)"
            ))
            .persistent(false)
            .execute(&mut *conn)
            .await?;
            partitions.remember(run_table.clone());
        }
        let engine_table = engine_table(run_id, engine);
        if !partitions.known(&engine_table) {
            sqlx::query(&format!(
                "CREATE TABLE IF NOT EXISTS {engine_table} PARTITION OF {run_table} \
                 FOR VALUES IN ('{engine}') PARTITION BY RANGE (t_ms)"
            ))
            .persistent(false)
            .execute(&mut *conn)
            .await?;
            partitions.remember(engine_table.clone());
        }
        for span in first..=last {
            let table = format!("{engine_table}_{span}");
            if partitions.known(&table) {
                continue;
            }
            let low = i128::from(span) * i128::from(PARTITION_SPAN_MS);
            let high = low + i128::from(PARTITION_SPAN_MS);
            let high = if high > i128::from(i64::MAX) {
                "MAXVALUE".to_owned()
            } else {
                high.to_string()
            };
            sqlx::query(&format!(
                "CREATE TABLE IF NOT EXISTS {table} PARTITION OF {engine_table} \
                 FOR VALUES FROM ({low}) TO ({high})"
            ))
            .persistent(false)
            .execute(&mut *conn)
            .await?;
            partitions.remember(table);
        }
    }
    Ok(())
}

/// The start of the span before the latest span of run `run_id` that holds events (at or
/// before `below_ms` when given), or `None` when that is the run's start anyway: a lower
/// bound that prunes a newest-first read to two spans per engine (see
/// `history::read_events`). Reads the catalog, not the events.
pub async fn recent_spans_start(
    pool: &PgPool,
    run_id: i64,
    below_ms: Option<u64>,
) -> Result<Option<u64>> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT relname::text FROM pg_class WHERE relkind = 'r' AND relname LIKE $1",
    )
    .bind(format!("ev\\_{run_id}\\_%"))
    .fetch_all(pool)
    .await?;
    let cap = below_ms.map(span_of);
    let latest = names
        .iter()
        .filter_map(|n| n.rsplit('_').next()?.parse::<i64>().ok())
        .filter(|k| cap.is_none_or(|c| *k <= c))
        .max();
    Ok(match latest {
        Some(k) if k >= 2 => u64::try_from(k - 1)
            .ok()
            .map(|k| k.saturating_mul(PARTITION_SPAN_MS)),
        _ => None,
    })
}

/// Drops the spans of run `run_id`'s events of `engine` that end at or before `before_ms`
/// (retention: whole tables go, no row is deleted one by one). Returns how many it dropped.
pub async fn drop_spans_before(
    pool: &PgPool,
    partitions: &Partitions,
    run_id: i64,
    engine: &str,
    before_ms: u64,
) -> Result<u64> {
    let parent = engine_table(run_id, engine);
    let children: Vec<String> = sqlx::query_scalar(
        "SELECT c.relname::text FROM pg_inherits i \
         JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent \
         WHERE p.relname = $1",
    )
    .bind(&parent)
    .fetch_all(pool)
    .await?;
    let mut dropped = 0;
    for child in children {
        let Some(span) = child
            .strip_prefix(&format!("{parent}_"))
            .and_then(|k| k.parse::<u64>().ok())
        else {
            continue;
        };
        let end = span.saturating_add(1).saturating_mul(PARTITION_SPAN_MS);
        if end <= before_ms {
            sqlx::query(&format!("DROP TABLE IF EXISTS {child}"))
                .execute(pool)
                .await?;
            partitions.forget(&child);
            dropped += 1;
        }
    }
    Ok(dropped)
}

/// Inserts `events` (numbered from `first_seq`) in one statement of arrays; an event stored
/// already (same run, instant and number: produced again by a resumed run) is skipped. The
/// partitions must exist ([`ensure_partitions`]).
pub async fn insert_event_rows(
    conn: &mut PgConnection,
    run_id: i64,
    first_seq: u64,
    events: &[Event],
) -> Result<()> {
    if events.is_empty() {
        return Ok(());
    }
    let first = super::to_i64(first_seq);
    let seqs: Vec<i64> = (0..events.len() as i64)
        .map(|i| first.saturating_add(i))
        .collect();
    let times: Vec<i64> = events.iter().map(|e| super::to_i64(e.t_ms)).collect();
    let engines: Vec<&str> = events.iter().map(|e| e.engine.as_str()).collect();
    let subjects: Vec<&str> = events.iter().map(|e| e.subject.as_str()).collect();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    let details: Vec<String> = events.iter().map(|e| e.details.to_string()).collect();
    let actors: Vec<Option<&str>> = events.iter().map(|e| e.actor.as_deref()).collect();
    sqlx::query(
        "INSERT INTO events (run_id, seq, t_ms, engine, subject, kind, details, actor) \
         SELECT $1, * FROM UNNEST($2::bigint[], $3::bigint[], $4::text[], $5::text[], \
         $6::text[], $7::text[], $8::text[]) ON CONFLICT DO NOTHING",
    )
    .bind(run_id)
    .bind(seqs)
    .bind(times)
    .bind(engines)
    .bind(subjects)
    .bind(kinds)
    .bind(details)
    .bind(actors)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Appends `events` (numbered from `first_seq`, none stored yet) with one binary
/// `COPY … FROM STDIN`: PostgreSQL's bulk path, several times faster than `INSERT`s. COPY
/// has no `ON CONFLICT`: an event stored already fails the whole statement, so this is for
/// the persistence task, whose events are always new; a resume's missing events, which may
/// overlap what is stored, go through [`insert_event_rows`].
///
/// Into `events`, which routes each row to its partition. Measured here and not kept: a
/// `COPY` into each leaf partition (no routing, but five to ten statements where there was
/// one: 10–25 % slower) and encoding the next statement while the server stores the current
/// one (no difference beyond the noise: the server's work is nine tenths of the time).
pub async fn copy_event_rows(
    conn: &mut PgConnection,
    run_id: i64,
    first_seq: u64,
    events: &[Event],
) -> Result<()> {
    if events.is_empty() {
        return Ok(());
    }
    let payload = copy::binary_rows(run_id, super::to_i64(first_seq), events);
    let mut copy = conn.copy_in_raw(copy::STATEMENT).await?;
    if let Err(e) = copy.send(payload).await {
        // Ends the COPY on the server too, so the connection stays usable.
        let _ = copy.abort(e.to_string()).await;
        return Err(e.into());
    }
    copy.finish().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_fall_in_thirty_day_spans() {
        let day = 86_400_000;
        let cases = [
            (0, 0),
            (30 * day - 1, 0),
            (30 * day, 1),
            (95 * day, 3),
            (
                u64::MAX,
                i64::try_from(u64::MAX / PARTITION_SPAN_MS).unwrap_or(0),
            ),
        ];
        for (t, want) in cases {
            assert_eq!(span_of(t), want, "{t}");
        }
    }
}
