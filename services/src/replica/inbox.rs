//! The inbox table: inputs a follower accepted, waiting for the leader.
//!
//! A follower [`post`]s the input (with the request's audit row) and waits for its answer.
//! The leader [`claim`]s each waiting row, plays it like its own input and writes the answer
//! in the journal's transaction ([`crate::journal::append`]), or, for a refusal, with
//! [`answer`]. A follower that waits too long [`withdraw`]s a row the leader has not claimed,
//! so an input is never applied after its requester was told it was not. A leader that dies
//! after claiming a row and before answering it wrote nothing; the next leader plays it.

use engine::gslb::views::ResolutionView;
use engine::Event;
use serde::{Deserialize, Serialize};

use crate::error::{Result, ServiceError};
use crate::journal::{AuditRow, Entry};
use crate::store::{now_text, on_pool, Dialect, Store};

/// The `NOTIFY` channel a follower wakes the leader's inbox pump with.
pub const CHANNEL: &str = "switchyard_inbox";

/// Rows the leader reads per round.
const ROUND_ROWS: i64 = 100;

/// The leader's answer to an input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// Played and journaled as entry `journal_seq`.
    Applied {
        /// The input's own events.
        events: Vec<Event>,
        /// The answer to a DNS query.
        resolution: Option<ResolutionView>,
        /// Its place in the run's journal.
        journal_seq: u64,
    },
    /// Refused by the engines; nothing changed.
    Refused {
        /// The field refused.
        field: String,
        /// Why.
        message: String,
    },
}

impl Answer {
    /// The answer as stored.
    pub fn encode(&self) -> Result<String> {
        serde_json::to_string(self)
            .map_err(|e| ServiceError::Internal(format!("inbox answer: {e}")))
    }
}

/// An answer to write with a journal entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    /// The inbox row.
    pub id: i64,
    /// [`Answer::encode`]d.
    pub answer: String,
}

/// An input waiting for the leader.
#[derive(Debug, Clone, PartialEq)]
pub struct Waiting {
    /// The inbox row.
    pub id: i64,
    /// The input (a speed change's `from` is the leader's to fill).
    pub entry: Entry,
    /// Who asked.
    pub actor: Option<String>,
    /// The request's audit row, written with the journal entry.
    pub audit: Option<AuditRow>,
}

/// Posts an input for run `run_id`; returns its row. On PostgreSQL the leader is woken.
pub async fn post(
    store: &Store,
    run_id: i64,
    entry: &Entry,
    actor: Option<&str>,
    audit: Option<&AuditRow>,
) -> Result<i64> {
    let audit = audit
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| ServiceError::Internal(format!("inbox audit row: {e}")))?;
    let text = entry.encode()?;
    let id: i64 = on_pool!(store, pool => sqlx::query_scalar(
        "INSERT INTO inbox (run_id, kind, entry, actor, audit, posted_at) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(run_id)
    .bind(entry.kind())
    .bind(text)
    .bind(actor)
    .bind(audit)
    .bind(now_text())
    .fetch_one(pool)
    .await)?;
    if let Some(pool) = store.postgres_pool() {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(run_id.to_string())
            .execute(pool)
            .await?;
    }
    Ok(id)
}

/// The inputs of run `run_id` not answered yet, oldest first (claimed ones included: a
/// claim by a leader that died is void).
pub async fn waiting(store: &Store, run_id: i64) -> Result<Vec<Waiting>> {
    type Row = (i64, String, String, Option<String>, Option<String>);
    let rows: Vec<Row> = on_pool!(store, pool => sqlx::query_as(
        "SELECT id, kind, entry, actor, audit FROM inbox \
         WHERE run_id = $1 AND answer IS NULL ORDER BY id LIMIT $2",
    )
    .bind(run_id)
    .bind(ROUND_ROWS)
    .fetch_all(pool)
    .await)?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, kind, text, actor, audit) in rows {
        let bad = |message: String| ServiceError::invalid("inbox", format!("row {id}: {message}"));
        let entry = Entry::decode(&kind, &text).map_err(bad)?;
        let audit = audit
            .map(|a| serde_json::from_str(&a))
            .transpose()
            .map_err(|e| bad(format!("audit row: {e}")))?;
        out.push(Waiting {
            id,
            entry,
            actor,
            audit,
        });
    }
    Ok(out)
}

/// Marks row `id` as taken by the leader; `false` when it was withdrawn or answered meanwhile.
pub async fn claim(store: &Store, id: i64) -> Result<bool> {
    let done = on_pool!(store, pool => sqlx::query(
        "UPDATE inbox SET claimed_at = $1 WHERE id = $2 AND answer IS NULL",
    )
    .bind(now_text())
    .bind(id)
    .execute(pool)
    .await
    .map(|done| done.rows_affected()))?;
    Ok(done == 1)
}

/// Answers row `id` outside a journal transaction (a refusal: nothing was journaled).
pub async fn answer(store: &Store, id: i64, answer: &Answer) -> Result<()> {
    let text = answer.encode()?;
    on_pool!(store, pool => sqlx::query(
        "UPDATE inbox SET answer = $1, answered_at = $2 WHERE id = $3 AND answer IS NULL",
    )
    .bind(text)
    .bind(now_text())
    .bind(id)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// The answer to row `id`, once there is one.
pub async fn answer_of(store: &Store, id: i64) -> Result<Option<Answer>> {
    let text: Option<Option<String>> = on_pool!(store, pool => sqlx::query_scalar(
        "SELECT answer FROM inbox WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await)?;
    match text.flatten() {
        None => Ok(None),
        Some(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| ServiceError::Internal(format!("inbox answer {id}: {e}"))),
    }
}

/// Takes back row `id` if the leader has not claimed it; `true` when it is gone (the input
/// will never be applied).
pub async fn withdraw(store: &Store, id: i64) -> Result<bool> {
    let done = on_pool!(store, pool => sqlx::query(
        "DELETE FROM inbox WHERE id = $1 AND claimed_at IS NULL AND answer IS NULL",
    )
    .bind(id)
    .execute(pool)
    .await
    .map(|done| done.rows_affected()))?;
    Ok(done == 1)
}

/// Whether this store can have followers (PostgreSQL).
pub fn shared(store: &Store) -> bool {
    store.dialect() == Dialect::Postgres
}
