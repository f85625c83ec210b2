//! Alert rules and the alert history, in the store.
//!
//! An admin's rules are kept as JSON (validated by [`engine::alerts`] before they are
//! stored, so a refused rule leaves the stored set unchanged). The leading console evaluates
//! them on its run ([`crate::runtime`]) and records here each alert that fires and resolves;
//! operators acknowledge them. Every console, leader or follower, reads the history here.

use engine::alerts::{validate_rules, ActiveAlert, AlertChange, AlertRule, AlertSeverity};
use serde::Serialize;

use crate::error::{Result, ServiceError};
use crate::store::{now_text, on_pool, to_i64, Store};

/// A stored rule, with who saved it last and when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredRule {
    /// The rule.
    pub rule: AlertRule,
    /// Who saved it last.
    pub saved_by: String,
    /// When (wall clock, RFC 3339 UTC).
    pub saved_at: String,
}

/// One alert of a run's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct AlertRow {
    /// Row id (what an acknowledgement names).
    pub id: i64,
    /// The rule's name.
    pub rule: String,
    /// `critical`, `warning` or `info`.
    pub severity: String,
    /// What it is about.
    pub subject: String,
    /// Why it fired, in words.
    pub text: String,
    /// Since when the condition held (simulated ms).
    pub since_ms: i64,
    /// When it fired (simulated ms).
    pub fired_ms: i64,
    /// When it fired (wall clock, RFC 3339 UTC).
    pub fired_at: String,
    /// Who acknowledged it.
    pub acked_by: Option<String>,
    /// When (wall clock).
    pub acked_at: Option<String>,
    /// When it resolved (simulated ms); none while it fires.
    pub resolved_ms: Option<i64>,
    /// When it resolved (wall clock).
    pub resolved_at: Option<String>,
    /// Why it resolved.
    pub resolved_reason: Option<String>,
}

impl AlertRow {
    /// The alert as the engine's book holds it (to restore a book on a new leader).
    pub fn active(&self) -> Option<ActiveAlert> {
        Some(ActiveAlert {
            rule: self.rule.clone(),
            severity: parse_severity(&self.severity)?,
            subject: self.subject.clone(),
            since_ms: u64::try_from(self.since_ms).unwrap_or_default(),
            fired_ms: u64::try_from(self.fired_ms).unwrap_or_default(),
            text: self.text.clone(),
        })
    }
}

/// Firing alerts of a run per severity (the header's badge and the `/metrics` gauges).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct AlertCounts {
    /// Critical alerts firing.
    pub critical: u64,
    /// Warnings firing.
    pub warning: u64,
    /// Informational alerts firing.
    pub info: u64,
}

impl AlertCounts {
    /// Every firing alert.
    pub fn total(&self) -> u64 {
        self.critical + self.warning + self.info
    }

    /// Counts `alerts` by severity.
    pub fn of<'a>(alerts: impl IntoIterator<Item = &'a ActiveAlert>) -> AlertCounts {
        let mut counts = AlertCounts::default();
        for a in alerts {
            match a.severity {
                AlertSeverity::Critical => counts.critical += 1,
                AlertSeverity::Warning => counts.warning += 1,
                AlertSeverity::Info => counts.info += 1,
            }
        }
        counts
    }
}

/// `critical`, `warning` or `info` back to a severity.
pub fn parse_severity(text: &str) -> Option<AlertSeverity> {
    match text {
        "critical" => Some(AlertSeverity::Critical),
        "warning" => Some(AlertSeverity::Warning),
        "info" => Some(AlertSeverity::Info),
        _ => None,
    }
}

const ALERT_COLUMNS: &str = "id, rule, severity, subject, text, since_ms, fired_ms, fired_at, \
     acked_by, acked_at, resolved_ms, resolved_at, resolved_reason";

/// Every stored rule, by name. A row that no longer reads as a rule (written by another
/// build) is skipped with a warning rather than stopping every rule.
pub async fn rules(store: &Store) -> Result<Vec<StoredRule>> {
    let rows: Vec<(String, String, String, String)> = on_pool!(store, pool => sqlx::query_as(
        "SELECT name, rule, saved_by, saved_at FROM alert_rules ORDER BY name",
    )
    .fetch_all(pool)
    .await)?;
    Ok(rows
        .into_iter()
        .filter_map(|(name, json, saved_by, saved_at)| {
            match serde_json::from_str::<AlertRule>(&json) {
                Ok(rule) => Some(StoredRule {
                    rule,
                    saved_by,
                    saved_at,
                }),
                Err(e) => {
                    tracing::warn!(rule = %name, error = %e, "a stored alert rule cannot be read; it is skipped");
                    None
                }
            }
        })
        .collect())
}

/// The stored rules alone, as the runtime evaluates them.
pub async fn rule_set(store: &Store) -> Result<Vec<AlertRule>> {
    Ok(rules(store).await?.into_iter().map(|r| r.rule).collect())
}

/// Saves `rule` (a new name adds it, an existing one replaces it), after validating it with
/// the rules it joins: a refusal names the field and stores nothing.
pub async fn save_rule(store: &Store, rule: &AlertRule, actor: &str) -> Result<()> {
    let mut set = rule_set(store).await?;
    set.retain(|r| r.name != rule.name);
    set.push(rule.clone());
    let own_prefix = format!("rules[{}].", set.len() - 1);
    validate_rules(&set).map_err(|e| {
        // The refusal is about the rule being saved: name its own field, not its place in
        // the set it would join.
        let field = match e.field.strip_prefix(&own_prefix) {
            Some(own) => own.to_owned(),
            None => e.field,
        };
        ServiceError::invalid(field, e.message)
    })?;
    let json = serde_json::to_string(rule).map_err(|e| ServiceError::Internal(e.to_string()))?;
    on_pool!(store, pool => sqlx::query(
        "INSERT INTO alert_rules (name, rule, saved_by, saved_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (name) DO UPDATE SET rule = excluded.rule, saved_by = excluded.saved_by, \
         saved_at = excluded.saved_at",
    )
    .bind(&rule.name)
    .bind(json)
    .bind(actor)
    .bind(now_text())
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// Deletes the rule `name`; `NotFound` when there is none.
pub async fn delete_rule(store: &Store, name: &str) -> Result<()> {
    let done = on_pool!(store, pool => sqlx::query("DELETE FROM alert_rules WHERE name = $1")
        .bind(name)
        .execute(pool)
        .await
        .map(|r| r.rows_affected()))?;
    if done == 0 {
        return Err(ServiceError::NotFound(format!(
            "no alert rule is named {name}"
        )));
    }
    Ok(())
}

/// Records what an evaluation changed on `run`: a fired alert is a new row, a resolved one
/// closes the open row of its rule and subject.
pub async fn record(store: &Store, run: i64, changes: &[AlertChange]) -> Result<()> {
    for change in changes {
        match change {
            AlertChange::Fired(a) => {
                on_pool!(store, pool => sqlx::query(
                    "INSERT INTO alerts (run_id, rule, severity, subject, text, since_ms, fired_ms, fired_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(run)
                .bind(&a.rule)
                .bind(a.severity.as_str())
                .bind(&a.subject)
                .bind(&a.text)
                .bind(to_i64(a.since_ms))
                .bind(to_i64(a.fired_ms))
                .bind(now_text())
                .execute(pool)
                .await
                .map(|_| ()))?;
            }
            AlertChange::Resolved {
                alert,
                at_ms,
                reason,
            } => {
                on_pool!(store, pool => sqlx::query(
                    "UPDATE alerts SET resolved_ms = $1, resolved_at = $2, resolved_reason = $3 \
                     WHERE run_id = $4 AND rule = $5 AND subject = $6 AND resolved_ms IS NULL",
                )
                .bind(to_i64(*at_ms))
                .bind(now_text())
                .bind(reason)
                .bind(run)
                .bind(&alert.rule)
                .bind(&alert.subject)
                .execute(pool)
                .await
                .map(|_| ()))?;
            }
        }
    }
    Ok(())
}

/// The alerts of `run` firing now, most serious first, then oldest first.
pub async fn firing(store: &Store, run: i64) -> Result<Vec<AlertRow>> {
    let sql = format!(
        "SELECT {ALERT_COLUMNS} FROM alerts WHERE run_id = $1 AND resolved_ms IS NULL ORDER BY \
         CASE severity WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, id"
    );
    Ok(on_pool!(store, pool => sqlx::query_as::<_, AlertRow>(&sql)
        .bind(run)
        .fetch_all(pool)
        .await)?)
}

/// Firing alerts of `run` per severity.
pub async fn counts(store: &Store, run: i64) -> Result<AlertCounts> {
    Ok(AlertCounts::of(
        firing(store, run)
            .await?
            .iter()
            .filter_map(AlertRow::active)
            .collect::<Vec<_>>()
            .iter(),
    ))
}

/// A page of `run`'s alert history, newest first, and how many alerts it has.
pub async fn history(
    store: &Store,
    run: i64,
    offset: i64,
    limit: i64,
) -> Result<(Vec<AlertRow>, i64)> {
    let sql = format!(
        "SELECT {ALERT_COLUMNS} FROM alerts WHERE run_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3"
    );
    let rows = on_pool!(store, pool => sqlx::query_as::<_, AlertRow>(&sql)
        .bind(run)
        .bind(limit)
        .bind(offset)
        .fetch_all(pool)
        .await)?;
    let total = on_pool!(store, pool => sqlx::query_scalar("SELECT COUNT(*) FROM alerts WHERE run_id = $1")
        .bind(run)
        .fetch_one(pool)
        .await)?;
    Ok((rows, total))
}

/// Acknowledges alert `id` of `run` as `actor`. An alert is acknowledged once: a second
/// acknowledgement is a conflict naming who came first; an unknown id is not found.
pub async fn acknowledge(store: &Store, run: i64, id: i64, actor: &str) -> Result<AlertRow> {
    let done = on_pool!(store, pool => sqlx::query(
        "UPDATE alerts SET acked_by = $1, acked_at = $2 WHERE id = $3 AND run_id = $4 AND acked_by IS NULL",
    )
    .bind(actor)
    .bind(now_text())
    .bind(id)
    .bind(run)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?;
    let sql = format!("SELECT {ALERT_COLUMNS} FROM alerts WHERE id = $1 AND run_id = $2");
    let row = on_pool!(store, pool => sqlx::query_as::<_, AlertRow>(&sql)
        .bind(id)
        .bind(run)
        .fetch_optional(pool)
        .await)?;
    match row {
        None => Err(ServiceError::NotFound(format!(
            "no alert {id} in the current run"
        ))),
        Some(row) if done == 0 => Err(ServiceError::Conflict(format!(
            "alert {id} was acknowledged already, by {} at {}",
            row.acked_by.as_deref().unwrap_or("?"),
            row.acked_at.as_deref().unwrap_or("?")
        ))),
        Some(row) => Ok(row),
    }
}
