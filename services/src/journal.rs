//! The action journal of a run: every input that changes a run (an operator or scenario
//! action, a speed change, a single step, a DNS query answered from the GSLB topology), in
//! the order the runtime took it and with the
//! simulated instant at which it took effect. The runtime appends an entry — and, for a
//! signed-in user's request, its audit row — in one durable transaction *before* the request
//! is answered, so an acknowledged action survives a crash. Replaying the journal over the
//! run's start (or a later snapshot) rebuilds the run exactly.

use engine::{Action, Speed};
use serde::{Deserialize, Serialize};
use sqlx::QueryBuilder;

use crate::error::{Result, ServiceError};
use crate::replica::inbox::Answered;
use crate::store::{keep_prepared, now_text, on_conn, on_pool, to_i64, Conn, Store};

/// One input to a run.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// An action applied at the entry's instant.
    Action(Action),
    /// The clock's speed changed at the entry's instant.
    Speed {
        /// The speed before.
        from: Speed,
        /// The speed after.
        to: Speed,
    },
    /// A single step: the clock jumped from the entry's instant to the next one due.
    Step,
    /// A DNS query answered from the GSLB topology (it moves the round robin).
    Dns {
        /// The name asked for.
        domain: String,
        /// The client's address.
        client: std::net::IpAddr,
    },
}

#[derive(Serialize, Deserialize)]
struct SpeedEntry {
    from: Speed,
    to: Speed,
}

#[derive(Serialize, Deserialize)]
struct DnsEntry {
    domain: String,
    client: std::net::IpAddr,
}

impl Entry {
    /// The `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Action(_) => "action",
            Entry::Speed { .. } => "speed",
            Entry::Step => "step",
            Entry::Dns { .. } => "dns",
        }
    }

    /// The `entry` column: an action in its flat `kind` form, `{"from": ..., "to": ...}` for
    /// a speed change, `{}` for a step, `{"domain": ..., "client": ...}` for a DNS query.
    pub fn encode(&self) -> Result<String> {
        let text = match self {
            Entry::Action(action) => serde_json::to_string(action),
            Entry::Speed { from, to } => serde_json::to_string(&SpeedEntry {
                from: *from,
                to: *to,
            }),
            Entry::Step => Ok("{}".to_owned()),
            Entry::Dns { domain, client } => serde_json::to_string(&DnsEntry {
                domain: domain.clone(),
                client: *client,
            }),
        };
        text.map_err(|e| ServiceError::Internal(format!("journal entry: {e}")))
    }

    /// Reads back a `kind` and `entry` pair; the error says what is wrong with it.
    pub fn decode(kind: &str, entry: &str) -> std::result::Result<Entry, String> {
        match kind {
            "action" => serde_json::from_str(entry)
                .map(Entry::Action)
                .map_err(|e| format!("not an action: {e}")),
            "speed" => serde_json::from_str::<SpeedEntry>(entry)
                .map(|s| Entry::Speed {
                    from: s.from,
                    to: s.to,
                })
                .map_err(|e| format!("not a speed change: {e}")),
            "step" => Ok(Entry::Step),
            "dns" => serde_json::from_str::<DnsEntry>(entry)
                .map(|d| Entry::Dns {
                    domain: d.domain,
                    client: d.client,
                })
                .map_err(|e| format!("not a DNS query: {e}")),
            other => Err(format!(
                "unknown kind {other:?} (action, speed, step or dns)"
            )),
        }
    }
}

/// A journal entry as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Journaled {
    /// Place in the run's journal (0, 1, 2, ...).
    pub seq: u64,
    /// Simulated milliseconds at which it took effect.
    pub t_ms: u64,
    /// What it was.
    pub entry: Entry,
    /// The user behind it (`None` for the scenario's own actions).
    pub actor: Option<String>,
}

/// The audit row written with a journal entry: the request that caused it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRow {
    /// User name.
    pub actor: String,
    /// Action name, e.g. `lhc.force_outage`.
    pub action: String,
    /// Arguments as given.
    pub arguments: serde_json::Value,
}

/// Rows per multi-row INSERT: 7 bound values each, 28,000 in all, under SQLite's limit of
/// 32,766 variables.
const ROWS_PER_STATEMENT: usize = 4_000;

/// Appends `entries` (consecutive `seq`s) to run `run_id`'s journal, with `audit` (outcome
/// `ok`) and the answer to the inbox row the input came from (`answered`, an input a follower
/// accepted) in the same transaction. Returns once the transaction is committed on `conn`,
/// whose `synchronous` setting decides how durable that is (see [`Store::journal_connection`]).
pub async fn append(
    conn: &mut Conn,
    run_id: i64,
    entries: &[Journaled],
    audit: Option<&AuditRow>,
    answered: Option<&Answered>,
) -> Result<()> {
    let at = now_text();
    let mut texts = Vec::with_capacity(entries.len());
    for entry in entries {
        texts.push(entry.entry.encode()?);
    }
    let rows: Vec<(&Journaled, String)> = entries.iter().zip(texts).collect();
    on_conn!(conn, c => {
        let mut tx = sqlx::Connection::begin(c).await?;
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let mut insert = QueryBuilder::new(
                "INSERT INTO journal (run_id, seq, t_ms, kind, entry, actor, at) ",
            );
            insert.push_values(chunk, |mut row, (entry, text)| {
                row.push_bind(run_id)
                    .push_bind(to_i64(entry.seq))
                    .push_bind(to_i64(entry.t_ms))
                    .push_bind(entry.entry.kind())
                    .push_bind(text.clone())
                    .push_bind(entry.actor.clone())
                    .push_bind(at.clone());
            });
            insert
                .build()
                .persistent(keep_prepared(chunk.len(), ROWS_PER_STATEMENT))
                .execute(&mut *tx)
                .await?;
        }
        if let Some(audit) = audit {
            sqlx::query(
                "INSERT INTO audit_log (at, actor, action, arguments, outcome) VALUES ($1, $2, $3, $4, 'ok')",
            )
            .bind(&at)
            .bind(&audit.actor)
            .bind(&audit.action)
            .bind(crate::audit::stored_arguments(&audit.arguments))
            .execute(&mut *tx)
            .await?;
        }
        if let Some(answered) = answered {
            sqlx::query("UPDATE inbox SET answer = $1, answered_at = $2 WHERE id = $3")
                .bind(&answered.answer)
                .bind(&at)
                .bind(answered.id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// Why a stored journal cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("run {run_id}: journal entry {seq} cannot be read: {message}")]
pub struct JournalError {
    /// The run.
    pub run_id: i64,
    /// The offending row.
    pub seq: i64,
    /// What is wrong with it.
    pub message: String,
}

/// The entries of run `run_id` with `seq >= from_seq`, in order. A row that does not decode
/// stops the read with a [`JournalError`] naming it (wrapped as [`ServiceError::Invalid`] on
/// the `journal` field); nothing is skipped silently.
pub async fn read(store: &Store, run_id: i64, from_seq: u64) -> Result<Vec<Journaled>> {
    read_until(store, run_id, from_seq, None).await
}

/// [`read`], stopped after the entries at `until` (all of them when `None`). Entries are
/// journaled in time order, so this is a prefix of the journal.
pub async fn read_until(
    store: &Store,
    run_id: i64,
    from_seq: u64,
    until: Option<engine::SimTime>,
) -> Result<Vec<Journaled>> {
    let rows: Vec<(i64, i64, String, String, Option<String>)> = on_pool!(store, pool => sqlx::query_as(
        "SELECT seq, t_ms, kind, entry, actor FROM journal WHERE run_id = $1 AND seq >= $2 AND t_ms <= $3 ORDER BY seq",
    )
    .bind(run_id)
    .bind(to_i64(from_seq))
    .bind(until.map_or(i64::MAX, |t| to_i64(t.as_millis())))
    .fetch_all(pool)
    .await)?;
    let mut out = Vec::with_capacity(rows.len());
    for (seq, t_ms, kind, text, actor) in rows {
        let fail = |message: String| {
            ServiceError::invalid(
                "journal",
                JournalError {
                    run_id,
                    seq,
                    message,
                }
                .to_string(),
            )
        };
        let expected = out.len() as u64 + from_seq;
        let (Ok(seq_u), Ok(t)) = (u64::try_from(seq), u64::try_from(t_ms)) else {
            return Err(fail(format!("negative seq or time ({t_ms})")));
        };
        if seq_u != expected {
            return Err(fail(format!("entry {expected} is missing")));
        }
        let entry = Entry::decode(&kind, &text).map_err(fail)?;
        out.push(Journaled {
            seq: seq_u,
            t_ms: t,
            entry,
            actor,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{CoreAction, LhcAction};

    #[test]
    fn entries_round_trip_through_their_columns() {
        let cases = [
            Entry::Action(Action::from(CoreAction::Note {
                text: "maintenance window".into(),
            })),
            Entry::Action(Action::from(LhcAction::ForceOutage {
                resource_location: "RL-Paris".into(),
                connector: Some("cc1.paris.example".into()),
            })),
            Entry::Speed {
                from: Speed::Paused,
                to: Speed::X600,
            },
            Entry::Step,
            Entry::Dns {
                domain: "apps.example.com".into(),
                client: std::net::IpAddr::from([10, 1, 2, 3]),
            },
        ];
        for entry in cases {
            let text = entry.encode().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                Entry::decode(entry.kind(), &text),
                Ok(entry.clone()),
                "{text}"
            );
        }
    }

    #[test]
    fn an_action_is_stored_in_its_documented_flat_form() {
        let entry = Entry::Action(Action::from(CoreAction::Note { text: "hi".into() }));
        let text = entry.encode().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(text, r#"{"kind":"note","text":"hi"}"#);
        let speed = Entry::Speed {
            from: Speed::Paused,
            to: Speed::Max,
        };
        let text = speed.encode().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(text, r#"{"from":"paused","to":"max"}"#);
    }

    #[test]
    fn bad_rows_say_what_is_wrong() {
        let cases = [
            ("action", r#"{"kind":"no_such_action"}"#, "not an action"),
            ("action", "{", "not an action"),
            (
                "speed",
                r#"{"from":"paused","to":"5x"}"#,
                "not a speed change",
            ),
            (
                "dns",
                r#"{"domain":"a","client":"nowhere"}"#,
                "not a DNS query",
            ),
            ("teleport", "{}", "unknown kind \"teleport\""),
        ];
        for (kind, text, want) in cases {
            let err = Entry::decode(kind, text).err().unwrap_or_default();
            assert!(err.contains(want), "{kind} {text}: {err}");
        }
    }
}
