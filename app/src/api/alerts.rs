//! Alerts: the rules an admin defines, the run's alert history (JSON at `/api/alerts` for
//! scripts), and the operator's acknowledgement.

// A rule's form has a field per value of every kind; the client half the `server` macro
// writes takes them all as arguments.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::alerts::{AlertRuleView, AlertView, AlertsPage};

/// Alerts per history page.
pub const ALERTS_PAGE_SIZE: u32 = 50;

#[cfg(feature = "ssr")]
impl From<services::alerts::AlertRow> for AlertView {
    fn from(r: services::alerts::AlertRow) -> Self {
        let ms = |v: i64| u64::try_from(v).unwrap_or_default();
        AlertView {
            id: r.id,
            rule: r.rule,
            severity: r.severity,
            subject: r.subject,
            text: r.text,
            since_ms: ms(r.since_ms),
            fired_ms: ms(r.fired_ms),
            fired_at: r.fired_at,
            acked_by: r.acked_by,
            acked_at: r.acked_at,
            resolved_ms: r.resolved_ms.map(ms),
            resolved_at: r.resolved_at,
            resolved_reason: r.resolved_reason,
        }
    }
}

#[cfg(feature = "ssr")]
impl From<services::alerts::StoredRule> for AlertRuleView {
    fn from(r: services::alerts::StoredRule) -> Self {
        let fields = match serde_json::to_value(&r.rule.condition) {
            Ok(serde_json::Value::Object(map)) => map
                .into_iter()
                .filter(|(k, _)| k != "kind")
                .map(|(k, v)| {
                    let text = match v {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (k, text)
                })
                .collect(),
            _ => Vec::new(),
        };
        AlertRuleView {
            kind: r.rule.condition.kind().to_owned(),
            condition: r.rule.condition.describe(),
            severity: r.rule.severity.as_str().to_owned(),
            name: r.rule.name,
            fields,
            saved_by: r.saved_by,
            saved_at: r.saved_at,
        }
    }
}

/// The alerts firing on the live run and a page of its history, newest first (viewer).
#[server(endpoint = "alerts", input = crate::api::codec::Form)]
pub async fn alerts(page: Option<u32>) -> Result<AlertsPage, AppError> {
    use crate::auth::read_only;
    read_only(
        "alerts.list",
        engine::Role::Viewer,
        |services, _| async move {
            let page = page.unwrap_or(1);
            if page == 0 {
                return Err(AppError::invalid("page", "must be 1 or more"));
            }
            let run_id = services.runtime.run().id;
            let per_page = i64::from(ALERTS_PAGE_SIZE);
            let firing = services::alerts::firing(&services.store, run_id).await?;
            let (history, total) = services::alerts::history(
                &services.store,
                run_id,
                i64::from(page - 1) * per_page,
                per_page,
            )
            .await?;
            Ok(AlertsPage {
                run_id,
                firing: firing.into_iter().map(AlertView::from).collect(),
                history: history.into_iter().map(AlertView::from).collect(),
                total: u64::try_from(total).unwrap_or_default(),
                page,
                per_page: ALERTS_PAGE_SIZE,
            })
        },
    )
    .await
}

/// Acknowledges an alert of the live run (operator; audited as `alerts.acknowledge`). An
/// alert is acknowledged once: a second acknowledgement is refused and names who came first.
#[server(endpoint = "acknowledge_alert")]
pub async fn acknowledge_alert(id: String) -> Result<AlertView, AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "id": id });
    audited(
        "alerts.acknowledge",
        engine::Role::Operator,
        args,
        |services, user| async move {
            let id: i64 = id
                .trim()
                .parse()
                .map_err(|_| AppError::invalid("id", "must be an alert's id (a whole number)"))?;
            let run_id = services.runtime.run().id;
            let row =
                services::alerts::acknowledge(&services.store, run_id, id, &user.username).await?;
            Ok(AlertView::from(row))
        },
    )
    .await
}

/// Every alert rule, by name (viewer: everyone may see what is watched).
#[server(endpoint = "alert_rules", input = crate::api::codec::Form)]
pub async fn alert_rules() -> Result<Vec<AlertRuleView>, AppError> {
    use crate::auth::read_only;
    read_only(
        "alerts.rules",
        engine::Role::Viewer,
        |services, _| async move {
            Ok(services::alerts::rules(&services.store)
                .await?
                .into_iter()
                .map(AlertRuleView::from)
                .collect())
        },
    )
    .await
}

/// Adds a rule, or replaces the rule of the same name (admin; audited as
/// `alerts.save_rule`). Only the fields of the rule's kind may be given; a field of another
/// kind, a value out of range or an unknown kind is refused naming the field, and nothing is
/// saved. The live run evaluates the new rules before this answers.
#[server(endpoint = "save_alert_rule")]
pub async fn save_alert_rule(
    name: String,
    severity: String,
    kind: String,
    state: Option<String>,
    for_min: Option<String>,
    pct: Option<String>,
    load: Option<String>,
    samples: Option<String>,
    engine: Option<String>,
) -> Result<AlertRuleView, AppError> {
    use crate::auth::audited;
    let given: Vec<(&'static str, String)> = [
        ("state", state),
        ("for_min", for_min),
        ("pct", pct),
        ("load", load),
        ("samples", samples),
        ("engine", engine),
    ]
    .into_iter()
    .filter_map(|(field, value)| {
        value
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
            .map(|v| (field, v))
    })
    .collect();
    let mut args = serde_json::json!({ "name": name, "severity": severity, "kind": kind });
    for (field, value) in &given {
        args[*field] = serde_json::Value::String(value.clone());
    }
    audited(
        "alerts.save_rule",
        engine::Role::Admin,
        args,
        |services, user| async move {
            let rule = rule_from_form(&name, &severity, &kind, &given)?;
            services::alerts::save_rule(&services.store, &rule, &user.username).await?;
            let rules = services::alerts::rules(&services.store).await?;
            services
                .runtime
                .alert_rules_changed(rules.iter().map(|r| r.rule.clone()).collect())
                .await?;
            rules
                .into_iter()
                .find(|r| r.rule.name == rule.name)
                .map(AlertRuleView::from)
                .ok_or_else(|| {
                    AppError::NotFound(format!("rule {} was removed meanwhile", rule.name))
                })
        },
    )
    .await
}

/// Deletes a rule (admin; audited as `alerts.delete_rule`); its firing alerts resolve.
#[server(endpoint = "delete_alert_rule")]
pub async fn delete_alert_rule(name: String) -> Result<(), AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "name": name });
    audited(
        "alerts.delete_rule",
        engine::Role::Admin,
        args,
        |services, _| async move {
            services::alerts::delete_rule(&services.store, &name).await?;
            let rules = services::alerts::rule_set(&services.store).await?;
            services.runtime.alert_rules_changed(rules).await?;
            Ok(())
        },
    )
    .await
}

/// The rule a form describes: the fields given must be those of `kind` (each named in its
/// refusal), numbers must be numbers, and the rule must validate.
#[cfg(feature = "ssr")]
fn rule_from_form(
    name: &str,
    severity: &str,
    kind: &str,
    given: &[(&'static str, String)],
) -> Result<engine::alerts::AlertRule, AppError> {
    use crate::model::alerts::{rule_kind, RULE_KINDS};
    let Some(spec) = rule_kind(kind) else {
        let kinds: Vec<_> = RULE_KINDS.iter().map(|k| k.kind).collect();
        return Err(AppError::invalid(
            "kind",
            format!("must be one of {}; got {kind:?}", kinds.join(", ")),
        ));
    };
    let mut condition = serde_json::Map::new();
    condition.insert("kind".to_owned(), kind.into());
    for (field, value) in given {
        if !spec.fields.iter().any(|(f, _)| f == field) {
            let fields: Vec<_> = spec.fields.iter().map(|(f, _)| *f).collect();
            return Err(AppError::invalid(
                *field,
                if fields.is_empty() {
                    format!("not a field of a {kind} rule (it has none)")
                } else {
                    format!(
                        "not a field of a {kind} rule (its fields: {})",
                        fields.join(", ")
                    )
                },
            ));
        }
        let json = match *field {
            "for_min" | "load" | "samples" => value
                .parse::<u64>()
                .map(serde_json::Value::from)
                .map_err(|_| {
                    AppError::invalid(*field, format!("must be a whole number; got {value:?}"))
                })?,
            "pct" => value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(serde_json::Value::from)
                .ok_or_else(|| {
                    AppError::invalid(*field, format!("must be a number; got {value:?}"))
                })?,
            // Checked here, so that a refusal names the field (inside the tagged condition,
            // the decoder could only name `condition`).
            "state" => serde_json::from_value::<engine::lhc::HaState>(value.as_str().into())
                .map(|_| serde_json::Value::String(value.clone()))
                .map_err(|e| AppError::invalid("state", e.to_string()))?,
            "engine" => value
                .parse::<engine::EngineId>()
                .map(|_| serde_json::Value::String(value.clone()))
                .map_err(|_| {
                    AppError::invalid(
                        "engine",
                        format!("must be lhc, lms, gslb or autoscale (empty: any); got {value:?}"),
                    )
                })?,
            _ => serde_json::Value::String(value.clone()),
        };
        condition.insert((*field).to_owned(), json);
    }
    for (field, _) in spec.fields {
        if *field != "engine" && !condition.contains_key(*field) {
            return Err(AppError::invalid(
                *field,
                format!("is needed by a {kind} rule"),
            ));
        }
    }
    let rule = serde_json::json!({ "name": name, "severity": severity, "condition": condition });
    let rule: engine::alerts::AlertRule = serde_path_to_error::deserialize(rule).map_err(|e| {
        let message = e.inner().to_string();
        let field = e.path().to_string();
        let field = field.rsplit('.').next().unwrap_or("rule").to_owned();
        AppError::invalid(
            if field.is_empty() {
                "rule".to_owned()
            } else {
                field
            },
            message,
        )
    })?;
    rule.validate().map_err(|e| {
        AppError::invalid(
            e.field.trim_start_matches("condition.").to_owned(),
            e.message,
        )
    })?;
    Ok(rule)
}

/// The needs-attention items of the alerts firing on the live run (none for a past instant:
/// the history is the run's, not the instant's).
#[cfg(feature = "ssr")]
pub async fn attention_items(
    services: &services::Services,
    estate: &services::time_travel::Estate,
) -> Result<Vec<crate::model::attention::AttentionItem>, AppError> {
    if !matches!(estate, services::time_travel::Estate::Live { .. }) {
        return Ok(Vec::new());
    }
    // The runtime counts what fires (the header's badge): with none, the store is not asked.
    if services.runtime.status().alerts.total() == 0 {
        return Ok(Vec::new());
    }
    let firing: Vec<AlertView> =
        services::alerts::firing(&services.store, services.runtime.run().id)
            .await?
            .into_iter()
            .map(AlertView::from)
            .collect();
    Ok(crate::model::attention::alerts(&firing))
}
