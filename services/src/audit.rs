//! The audit log: who did what, when (wall clock, UTC), with which arguments and outcome.

use serde::Serialize;

use crate::error::Result;
use crate::store::{now_text, on_pool, Store};

/// One audit row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct AuditEntry {
    /// Row id.
    pub id: i64,
    /// Wall-clock time (RFC 3339, UTC).
    pub at: String,
    /// User name of the actor.
    pub actor: String,
    /// Action name, e.g. `clock.set_speed`.
    pub action: String,
    /// Arguments as a JSON object (passwords are never recorded).
    pub arguments: String,
    /// `ok`, or the refusal / error message.
    pub outcome: String,
}

/// The longest arguments text an audit row keeps, in bytes; longer ones are cut
/// ([`stored_arguments`]).
pub const MAX_ARGUMENTS_BYTES: usize = 4_096;

/// The text an audit row stores for `arguments`: the JSON as is up to
/// [`MAX_ARGUMENTS_BYTES`]; beyond, `{"truncated": true, "length": N, "start": "…"}` with the
/// first bytes of it, so a refused call with a huge argument cannot fill the log.
pub fn stored_arguments(arguments: &serde_json::Value) -> String {
    let text = arguments.to_string();
    if text.len() <= MAX_ARGUMENTS_BYTES {
        return text;
    }
    let mut cut = MAX_ARGUMENTS_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    serde_json::json!({ "truncated": true, "length": text.len(), "start": &text[..cut] })
        .to_string()
}

/// Records one action.
pub async fn record(
    store: &Store,
    actor: &str,
    action: &str,
    arguments: &serde_json::Value,
    outcome: &str,
) -> Result<()> {
    on_pool!(store, pool => sqlx::query(
        "INSERT INTO audit_log (at, actor, action, arguments, outcome) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(now_text())
    .bind(actor)
    .bind(action)
    .bind(stored_arguments(arguments))
    .bind(outcome)
    .execute(pool)
    .await.map(|_| ()))?;
    Ok(())
}

/// Which audit rows a listing keeps (all given conditions hold) and in which order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditFilter {
    /// Only this user's actions.
    pub actor: Option<String>,
    /// Only actions whose name starts with this (`lhc.`, `clock.set_speed`).
    pub action_prefix: Option<String>,
    /// Only refused (`true`) or only accepted (`false`) actions.
    pub refused: Option<bool>,
    /// The column sorted by (then the entry's number: the time it was written).
    pub sort: AuditSort,
    /// Smallest first: the oldest, or names from A (the largest first otherwise).
    pub oldest_first: bool,
}

/// A column of the audit log to sort by; each is indexed with the entry's number, so a page
/// in any order is read through an index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AuditSort {
    /// When the action was taken.
    #[default]
    Time,
    /// Who took it.
    Actor,
    /// The action's name.
    Action,
    /// Its outcome (`ok`, or the refusal).
    Outcome,
}

impl AuditSort {
    /// The SQL columns of the order, before the entry's number.
    fn columns(self) -> &'static str {
        match self {
            AuditSort::Time => "",
            AuditSort::Actor => "actor",
            AuditSort::Action => "action",
            AuditSort::Outcome => "outcome",
        }
    }
}

/// The arguments (JSON object text) of the audit row `id`; `None` when there is none. The
/// audit page carries each row's arguments in words, and their JSON is read when asked for.
pub async fn arguments(store: &Store, id: i64) -> Result<Option<String>> {
    Ok(
        on_pool!(store, pool => sqlx::query_scalar("SELECT arguments FROM audit_log WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await)?,
    )
}

/// The conditions of [`AuditFilter`], in SQL both stores read (`CAST` gives PostgreSQL each
/// parameter's type even when it is `NULL`).
const AUDIT_WHERE: &str = "WHERE (CAST($1 AS TEXT) IS NULL OR actor = CAST($1 AS TEXT)) \
     AND (CAST($2 AS TEXT) IS NULL \
          OR substr(action, 1, length(CAST($2 AS TEXT))) = CAST($2 AS TEXT)) \
     AND (CAST($3 AS BIGINT) IS NULL OR (CASE WHEN outcome = 'ok' THEN 0 ELSE 1 END) = CAST($3 AS BIGINT))";

/// The newest entries first; `offset`/`limit` page through them. Returns the page and the total.
pub async fn list(store: &Store, offset: i64, limit: i64) -> Result<(Vec<AuditEntry>, i64)> {
    let (rows, total, _) = list_filtered(store, &AuditFilter::default(), offset, limit).await?;
    Ok((rows, total))
}

/// The entries `filter` keeps, in its order; `offset`/`limit` page through them. Returns the
/// page, the total of the log and how many the filter keeps.
pub async fn list_filtered(
    store: &Store,
    filter: &AuditFilter,
    offset: i64,
    limit: i64,
) -> Result<(Vec<AuditEntry>, i64, i64)> {
    let dir = if filter.oldest_first { "ASC" } else { "DESC" };
    let order = match filter.sort.columns() {
        "" => format!("id {dir}"),
        column => format!("{column} {dir}, id {dir}"),
    };
    let select = format!(
        "SELECT id, at, actor, action, arguments, outcome FROM audit_log {AUDIT_WHERE} \
         ORDER BY {order} LIMIT $4 OFFSET $5"
    );
    let count = format!("SELECT COUNT(*) FROM audit_log {AUDIT_WHERE}");
    let refused = filter.refused.map(i64::from);
    let rows = on_pool!(store, pool => sqlx::query_as::<_, AuditEntry>(&select)
        .bind(filter.actor.as_deref())
        .bind(filter.action_prefix.as_deref())
        .bind(refused)
        .bind(limit)
        .bind(offset)
        .fetch_all(pool)
        .await)?;
    let matching = on_pool!(store, pool => sqlx::query_scalar(&count)
        .bind(filter.actor.as_deref())
        .bind(filter.action_prefix.as_deref())
        .bind(refused)
        .fetch_one(pool)
        .await)?;
    let total = on_pool!(store, pool => sqlx::query_scalar("SELECT COUNT(*) FROM audit_log")
        .fetch_one(pool)
        .await)?;
    Ok((rows, total, matching))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn records_and_lists_newest_first() {
        let pool = crate::store::Store::connect("sqlite::memory:")
            .await
            .expect("store");
        record(&pool, "alice", "clock.pause", &serde_json::json!({}), "ok")
            .await
            .expect("record");
        record(
            &pool,
            "bob",
            "clock.step",
            &serde_json::json!({"n": 1}),
            "ok",
        )
        .await
        .expect("record");
        let (rows, total) = list(&pool, 0, 10).await.expect("list");
        assert_eq!(total, 2);
        assert_eq!(rows[0].actor, "bob");
        assert_eq!(rows[0].arguments, r#"{"n":1}"#);
        assert_eq!(rows[1].action, "clock.pause");
    }

    #[test]
    fn huge_arguments_are_cut_with_their_length() {
        let small = serde_json::json!({ "text": "note" });
        assert_eq!(stored_arguments(&small), r#"{"text":"note"}"#);
        // Multi-byte characters across the cut.
        let huge = serde_json::json!({ "text": "é".repeat(1_000_000) });
        let stored = stored_arguments(&huge);
        assert!(stored.len() < MAX_ARGUMENTS_BYTES + 100, "{}", stored.len());
        let back: serde_json::Value = serde_json::from_str(&stored).expect("JSON");
        assert_eq!(back["truncated"], true);
        assert_eq!(back["length"], huge.to_string().len());
        assert!(back["start"]
            .as_str()
            .is_some_and(|s| s.starts_with(r#"{"text":"éé"#)));
    }
}
