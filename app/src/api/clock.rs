//! The simulated clock: status, speed, single step, operator notes, and the latest events.

use engine::Speed;
use leptos::prelude::*;

use crate::error::AppError;
use crate::model::{ClockView, EventRow};

/// Longest operator note accepted.
pub const MAX_NOTE_LEN: usize = 500;
/// Most events the dashboard asks for at once.
pub const MAX_RECENT: u32 = 200;

#[cfg(feature = "ssr")]
impl From<services::runtime::ClockStatus> for ClockView {
    fn from(s: services::runtime::ClockStatus) -> Self {
        ClockView {
            run_id: s.run_id,
            scenario: s.scenario,
            t_ms: s.t_ms,
            speed: s.speed,
            events_total: s.events_total,
            events_persisted: s.events_persisted,
            per_engine: s.per_engine,
            lag_ms: s.lag_ms,
            next_due_ms: s.next_due_ms,
            replica: s.role.as_str().to_owned(),
            follower_lag_ms: s.follower_lag_ms,
            alerts: crate::model::alerts::AlertCountsView {
                critical: s.alerts.critical,
                warning: s.alerts.warning,
                info: s.alerts.info,
            },
        }
    }
}

#[cfg(feature = "ssr")]
impl From<services::history::StoredEvent> for EventRow {
    fn from(e: services::history::StoredEvent) -> Self {
        EventRow {
            id: Some(e.id),
            t_ms: u64::try_from(e.t_ms).unwrap_or_default(),
            engine: e.engine,
            subject: e.subject,
            kind: e.kind,
            details: e.details,
            actor: e.actor,
        }
    }
}

/// The clock and counters now.
#[server(endpoint = "clock_status", input = crate::api::codec::Form)]
pub async fn clock_status() -> Result<ClockView, AppError> {
    use crate::auth::read_only;
    read_only(
        "clock.status",
        engine::Role::Viewer,
        |services, _| async move { Ok(services.runtime.status().into()) },
    )
    .await
}

/// Changes the clock speed (operator).
#[server(endpoint = "set_speed", input = crate::api::codec::Form)]
pub async fn set_speed(speed: Speed) -> Result<ClockView, AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "speed": speed });
    audited(
        "clock.set_speed",
        engine::Role::Operator,
        args,
        |services, user| async move {
            let status = services.runtime.set_speed(speed, &user.username).await?;
            Ok(ClockView::from(status))
        },
    )
    .await
}

/// Advances the clock to the next instant at which anything is due (operator).
#[server(endpoint = "step_clock", input = crate::api::codec::Form)]
pub async fn step_clock() -> Result<ClockView, AppError> {
    use crate::auth::{audited, services};
    let from_ms = services()
        .map(|s| s.runtime.status().t_ms)
        .unwrap_or_default();
    let args = serde_json::json!({ "from_ms": from_ms });
    audited(
        "clock.step",
        engine::Role::Operator,
        args,
        |services, user| async move {
            Ok(ClockView::from(
                services.runtime.step(&user.username).await?,
            ))
        },
    )
    .await
}

/// Writes an operator note on the timeline at the current simulated time (operator).
#[server(endpoint = "add_note")]
pub async fn add_note(text: String) -> Result<(), AppError> {
    use crate::auth::audited;
    let text = text.trim().to_owned();
    let args = serde_json::json!({ "text": text });
    audited(
        "timeline.note",
        engine::Role::Operator,
        args,
        |services, user| async move {
            if text.is_empty() || text.chars().count() > MAX_NOTE_LEN {
                return Err(AppError::invalid(
                    "text",
                    format!("must be 1 to {MAX_NOTE_LEN} characters long"),
                ));
            }
            let action = engine::CoreAction::Note { text };
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}

/// The newest `limit` events of the current run, newest first, among its newest
/// [`MAX_RECENT`]: of one engine if `engine` names one (empty or absent: every engine), and
/// without heartbeats if `heartbeats` is false (absent: with them). The overview's feed asks
/// for the rows it shows, so that its page carries no more.
#[server(endpoint = "recent_events", input = crate::api::codec::Form)]
pub async fn recent_events(
    limit: u32,
    engine: Option<String>,
    heartbeats: Option<bool>,
) -> Result<Vec<EventRow>, AppError> {
    use crate::auth::read_only;
    use crate::components::live::is_heartbeat;
    use crate::form::{engine_name, optional};
    read_only(
        "events.recent",
        engine::Role::Viewer,
        |services, _| async move {
            if !(1..=MAX_RECENT).contains(&limit) {
                return Err(AppError::invalid(
                    "limit",
                    format!("must be 1 to {MAX_RECENT}"),
                ));
            }
            let engine = optional(&engine)
                .map(|name| engine_name(name, "engine"))
                .transpose()?;
            let heartbeats = heartbeats.unwrap_or(true);
            let run_id = services.runtime.run().id;
            let persisted = services.runtime.status().events_persisted;
            let rows = services
                .recent
                .newest(&services.store, run_id, persisted, i64::from(MAX_RECENT))
                .await?;
            Ok(rows
                .iter()
                .filter(|e| engine.is_none_or(|id| e.engine == id.as_str()))
                .filter(|e| heartbeats || !is_heartbeat(&e.kind))
                .take(limit as usize)
                .cloned()
                .map(EventRow::from)
                .collect())
        },
    )
    .await
}
