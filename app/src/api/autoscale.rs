//! Autoscale: the groups, one group's clusters with their timelines, nodes, records and
//! decisions; the operator actions (load, application, distribution); the administrator's
//! parameter editor with its what-if replay of recorded demand.

// A list's filters, sort, page and instant are each one argument (one URL parameter of its
// page); the server macro's generated functions carry them all.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::autoscale::{GroupDetail, GroupListPage, GroupsPage, WhatIfResult};
use crate::model::node_list::NodePage;
use crate::model::EventRow;

/// Minutes of timeline shown when the page does not say.
pub const DEFAULT_WINDOW_MIN: u32 = 180;
/// Shortest and longest window accepted, in minutes.
pub const WINDOW_RANGE: (u32, u32) = (10, 10_080);
/// Hours replayed by a what-if when the editor does not say.
pub const DEFAULT_WHAT_IF_HOURS: u32 = 24;
/// Longest what-if replay, in hours (the history the engine keeps).
pub const MAX_WHAT_IF_HOURS: u32 = engine::autoscale::MAX_WHAT_IF_HOURS;

/// Every group now, or only group `only` (none when it is unknown): a group's pages ask for
/// theirs alone (a full-scale estate's 50 groups are 200 KB).
#[server(endpoint = "autoscale_groups", input = crate::api::codec::Form)]
pub async fn autoscale_groups(
    only: Option<String>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<GroupsPage, AppError> {
    use crate::auth::read_only;
    read_only(
        "autoscale.groups",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            Ok(estate
                .query(move |sim| GroupsPage {
                    groups: match only.as_deref() {
                        None => sim.autoscale().groups(),
                        Some(name) => sim.autoscale().group(name).into_iter().collect(),
                    },
                    now_ms: sim.now().as_millis(),
                })
                .await?)
        },
    )
    .await
}

/// One page of the groups table: `q` searches names and domains (case-insensitive), `state`
/// keeps groups with a cluster in that state (`evaluating`, `scaling`, `cooldown`,
/// `draining`, `ttl_wait`, `idle`), `mode` is `dns` or `nlb`, `sort` one of `name`, `mode`,
/// `nodes`, `decision`; `page` from 1. A bad value is refused naming its field.
#[server(endpoint = "autoscale_list", input = crate::api::codec::Form)]
pub async fn autoscale_list(
    q: Option<String>,
    state: Option<String>,
    mode: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<GroupListPage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, page_number, search};
    use crate::model::autoscale_groups::{select_groups, GroupQuery};
    read_only(
        "autoscale.list",
        engine::Role::Viewer,
        |services, _| async move {
            let query = GroupQuery::parse(
                search(&q)?,
                optional(&state),
                optional(&mode),
                optional(&sort),
                desc.unwrap_or(false),
                page_number(page)?,
            )?;
            let estate = crate::time_travel::estate(&services, at, run).await?;
            Ok(estate
                .query(move |sim| GroupListPage {
                    groups: select_groups(sim.autoscale().groups(), &query),
                    now_ms: sim.now().as_millis(),
                })
                .await?)
        },
    )
    .await
}

/// One page of the nodes list: every node of every group's clusters, `q` in its id, IPs or
/// group, `state` provisioning, in_service, draining or ttl_wait, `mode` dns or nlb, sorted
/// by `sort` (node, group, zone, state or since; by group by default).
#[server(endpoint = "autoscale_nodes", input = crate::api::codec::Form)]
pub async fn autoscale_nodes(
    q: Option<String>,
    state: Option<String>,
    mode: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<NodePage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, page_number, search};
    use crate::model::node_list::{node_rows, select_nodes, NodeQuery};
    read_only(
        "autoscale.nodes",
        engine::Role::Viewer,
        |services, _| async move {
            let query = NodeQuery::parse(
                search(&q)?,
                optional(&state),
                optional(&mode),
                optional(&sort),
                desc.unwrap_or(false),
                page_number(page)?,
            )?;
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let groups = estate.query(|sim| sim.autoscale().groups()).await?;
            Ok(select_nodes(node_rows(groups), &query))
        },
    )
    .await
}

/// One group now, `minutes` of each zone's timeline (default [`DEFAULT_WINDOW_MIN`], within
/// [`WINDOW_RANGE`]) ending with minute `until_minute` (default: the last one) and its
/// recent decisions.
#[server(endpoint = "autoscale_group", input = crate::api::codec::Form)]
pub async fn autoscale_group(
    group: String,
    minutes: Option<u32>,
    until_minute: Option<u64>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<GroupDetail, AppError> {
    use crate::auth::read_only;
    use engine::autoscale::chart::Timeline;
    read_only(
        "autoscale.group",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let minutes = minutes.unwrap_or(DEFAULT_WINDOW_MIN);
            let (lo, hi) = WINDOW_RANGE;
            if !(lo..=hi).contains(&minutes) {
                return Err(AppError::invalid(
                    "minutes",
                    format!("must be between {lo} and {hi}; got {minutes}"),
                ));
            }
            let name = group.trim().to_owned();
            let found = estate
                .query(move |sim| {
                    let engine = sim.autoscale();
                    engine.group(&name).map(|g| {
                        let lines: Vec<(String, Vec<_>)> = g
                            .zones
                            .iter()
                            .map(|z| {
                                let line = engine
                                    .timeline_until(
                                        &g.name,
                                        &z.zone,
                                        minutes,
                                        until_minute.unwrap_or(u64::MAX),
                                    )
                                    .unwrap_or_default();
                                (z.zone.clone(), line)
                            })
                            .collect();
                        (g, lines, sim.now().as_millis())
                    })
                })
                .await?;
            let Some((group, lines, now_ms)) = found else {
                return Err(AppError::NotFound(format!(
                    "no autoscale group `{}`",
                    group.trim()
                )));
            };
            let timelines = lines
                .iter()
                .map(|(zone, line)| Timeline::build(zone, line, &group.params))
                .collect();
            let window = estate.window();
            let decisions =
                services::charts::autoscale::decisions(&services.store, window, &group.name)
                    .await?
                    .into_iter()
                    .map(crate::model::EventRow::from)
                    .collect();
            Ok(GroupDetail {
                group,
                timelines,
                decisions,
                minutes,
                now_ms,
            })
        },
    )
    .await
}

/// The fields of an operator action, as typed (checked on the server).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AutoscaleActInput {
    /// `load_inject`, `load_release`, `app_deploy`, `app_remove` or `distribution_switch`.
    pub op: String,
    /// Group name.
    #[serde(default)]
    pub group: String,
    /// Load (inject or release): one availability zone; all of them when empty.
    #[serde(default)]
    pub zone: String,
    /// Load: demand in percent of the capacity of `min_nodes` nodes.
    #[serde(default)]
    pub level: String,
    /// Load: length of a spike in minutes; empty = a lasting step.
    #[serde(default)]
    pub duration_min: String,
    /// Load: `step` makes it a lasting step whatever `duration_min` says (the form's choice);
    /// `spike` or empty leaves it to `duration_min`.
    #[serde(default)]
    pub shape: String,
    /// Switch: `dns` or `nlb`.
    #[serde(default)]
    pub mode: String,
}

/// Highest load level an operator may inject, percent.
pub const MAX_LEVEL: f64 = engine::autoscale::config::MAX_INJECT_LEVEL;
/// Longest spike, minutes.
pub const MAX_SPIKE_MIN: u32 = engine::autoscale::config::MAX_INJECT_MIN;

/// An operator action on a group; answers the events it produced (what changed). Operator
/// role; audited.
#[server(endpoint = "autoscale_act", input = crate::api::codec::Form)]
pub async fn autoscale_act(input: AutoscaleActInput) -> Result<Vec<EventRow>, AppError> {
    use crate::auth::audited;
    let action_name = format!("autoscale.{}", input.op.trim());
    let args = serde_json::to_value(&input).unwrap_or_default();
    audited(
        &action_name,
        engine::Role::Operator,
        args,
        |services, user| async move {
            let action = act::to_action(&input)?;
            let events = services.runtime.apply(action, &user.username).await?;
            Ok(events.iter().map(EventRow::from).collect())
        },
    )
    .await
}

#[cfg(feature = "ssr")]
mod act {
    use engine::autoscale::config::DistributionMode;
    use engine::AutoscaleAction;

    use super::{AutoscaleActInput, MAX_LEVEL, MAX_SPIKE_MIN};
    use crate::error::AppError;
    use crate::form::{need, ranged, text};

    /// The engine action an operator's form asks for.
    pub fn to_action(i: &AutoscaleActInput) -> Result<AutoscaleAction, AppError> {
        let group = need(&i.group, "group")?;
        Ok(match i.op.trim() {
            "load_inject" => {
                let level = ranged(
                    &i.level,
                    "level",
                    "a number",
                    (0.0, MAX_LEVEL),
                    " (percent of the capacity of min_nodes nodes)",
                )?;
                let lasting = match i.shape.trim() {
                    "" | "spike" => false,
                    "step" => true,
                    other => {
                        return Err(AppError::invalid(
                            "shape",
                            format!("must be spike or step; got \"{other}\""),
                        ))
                    }
                };
                let duration_min = match text(&i.duration_min).filter(|_| !lasting) {
                    None => None,
                    Some(d) => Some(ranged(
                        &d,
                        "duration_min",
                        "a whole number of minutes",
                        (1, MAX_SPIKE_MIN),
                        ", or empty for a lasting step",
                    )?),
                };
                AutoscaleAction::LoadInject {
                    group,
                    zone: text(&i.zone),
                    level,
                    duration_min,
                }
            }
            "load_release" => AutoscaleAction::LoadRelease {
                group,
                zone: text(&i.zone),
            },
            "app_deploy" => AutoscaleAction::AppDeploy { group },
            "app_remove" => AutoscaleAction::AppRemove { group },
            "distribution_switch" => AutoscaleAction::DistributionSwitch {
                group,
                mode: match i.mode.trim() {
                    "dns" => DistributionMode::Dns,
                    "nlb" => DistributionMode::Nlb,
                    other => {
                        return Err(AppError::invalid(
                            "mode",
                            format!("must be dns or nlb; got \"{other}\""),
                        ))
                    }
                },
            },
            other => {
                return Err(AppError::invalid(
                    "op",
                    format!("must be load_inject, load_release, app_deploy, app_remove or distribution_switch; got \"{other}\""),
                ))
            }
        })
    }
}

/// Parses the editor's parameters (JSON of a
/// [`ParamsDraft`](crate::model::autoscale::ParamsDraft)) and checks them.
#[cfg(feature = "ssr")]
fn parse_params(params: &str) -> Result<engine::autoscale::config::GroupParams, AppError> {
    let draft: crate::model::autoscale::ParamsDraft = serde_json::from_str(params)
        .map_err(|e| AppError::invalid("params", format!("is not a parameter set: {e}")))?;
    draft.to_params()
}

/// Replays the last `hours` simulated hours of `group`'s recorded demand (default
/// [`DEFAULT_WHAT_IF_HOURS`], 1 to [`MAX_WHAT_IF_HOURS`]) against the edited `params`,
/// beside what really happened. Changes nothing. Admin only (a refusal is audited).
#[server(endpoint = "autoscale_what_if", input = crate::api::codec::Form)]
pub async fn autoscale_what_if(
    group: String,
    params: String,
    hours: Option<String>,
) -> Result<WhatIfResult, AppError> {
    use crate::auth::read_only;
    use crate::form::optional;
    use crate::model::autoscale::WhatIfZoneCharts;
    use engine::autoscale::chart::Timeline;
    read_only("autoscale.what_if", engine::Role::Admin, |services, _| async move {
            let hours = match optional(&hours) {
                None => DEFAULT_WHAT_IF_HOURS,
                Some(h) => h
                    .parse::<u32>()
                    .ok()
                    .filter(|h| (1..=MAX_WHAT_IF_HOURS).contains(h))
                    .ok_or_else(|| {
                        AppError::invalid(
                            "hours",
                            format!("must be a whole number between 1 and {MAX_WHAT_IF_HOURS}; got \"{h}\""),
                        )
                    })?,
            };
            let params = parse_params(&params)?;
            let name = group.trim().to_owned();
            let (answer, server_us) = services
                .runtime
                .query(move |sim| {
                    let started = std::time::Instant::now();
                    let answer = sim.autoscale().what_if(&name, &params, hours);
                    let us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
                    (answer, us)
                })
                .await?;
            let view = answer?;
            let zones = view
                .zones
                .iter()
                .map(|z| WhatIfZoneCharts {
                    zone: z.zone.clone(),
                    real: Timeline::build(&z.zone, &z.real, &view.real_params),
                    edited: Timeline::build(&z.zone, &z.edited, &view.edited_params),
                    real_summary: z.real_summary.clone(),
                    edited_summary: z.edited_summary.clone(),
                })
                .collect();
            Ok(WhatIfResult {
                group: view.group.clone(),
                hours,
                from_minute: view.from_minute,
                to_minute: view.to_minute,
                zones,
                server_us,
            })
        })
.await
}

/// Replaces a group's parameters (the `group_settings` action). Admin only; audited. An
/// invalid value is refused with its field and nothing changes.
#[server(endpoint = "autoscale_save", input = crate::api::codec::Form)]
pub async fn autoscale_save(group: String, params: String) -> Result<(), AppError> {
    use crate::auth::audited;
    let parsed = serde_json::from_str::<serde_json::Value>(&params)
        .unwrap_or_else(|_| serde_json::Value::String(params.clone()));
    let args = serde_json::json!({ "group": group, "params": parsed });
    audited(
        "autoscale.group_settings",
        engine::Role::Admin,
        args,
        |services, user| async move {
            let settings = parse_params(&params)?;
            let action = engine::AutoscaleAction::GroupSettings {
                group: group.trim().to_owned(),
                settings,
            };
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}
