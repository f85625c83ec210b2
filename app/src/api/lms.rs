//! Load management: the farm, its servers and sessions, the dynamic store, the evaluator
//! editor with its what-if preview, the operator actions and the black-hole A/B.

// A list's filters, sort, page and instant are each one argument (one URL parameter of its
// page); the server macro's generated functions carry them all.
#![allow(clippy::too_many_arguments)]

use engine::lms::views::{AbReport, EvaluatorPreview, SessionPage};
use leptos::prelude::*;

use crate::error::AppError;
use crate::model::evaluators::EvaluatorsPage;
use crate::model::lms::{DynamicStore, FarmPage, ServerDetail, ServerTable};

/// Server rows per page of the farm page.
pub const SERVER_PAGE_SIZE: u32 = 25;
/// Session rows per page.
pub const SESSION_PAGE_SIZE: u32 = 25;
/// Launches simulated by the evaluator preview.
pub const PREVIEW_LAUNCHES: u32 = 100;

/// Validates a 1-based page number.
#[cfg(feature = "ssr")]
fn page_offset(page: Option<u32>, per_page: u32) -> Result<u32, AppError> {
    crate::form::page_number(page).map(|p| (p - 1).saturating_mul(per_page))
}

/// Servers of a zone's election ranking the farm page names; the rest are counted.
pub const RANKING_SHOWN: usize = 5;

/// The farm: settings, zones and their data collectors, applications, totals. Each zone's
/// election ranking names its first [`RANKING_SHOWN`] servers and counts the others
/// (`ranking_more`): a zone of a hundred servers stays one line.
#[server(endpoint = "lms_farm", input = crate::api::codec::Form)]
pub async fn lms_farm(at: Option<String>, run: Option<i64>) -> Result<FarmPage, AppError> {
    use crate::auth::read_only;
    read_only("lms.farm", engine::Role::Viewer, |services, _| async move {
        let estate = crate::time_travel::estate(&services, at, run).await?;
        let mut page = estate
            .query(|sim| FarmPage {
                farm: sim.lms().farm(),
                ranking_more: Vec::new(),
                now_ms: sim.now().as_millis(),
            })
            .await?;
        page.ranking_more = page
            .farm
            .zones
            .iter_mut()
            .map(|zone| {
                let rest = zone.ranking.len().saturating_sub(RANKING_SHOWN);
                zone.ranking.truncate(RANKING_SHOWN);
                rest
            })
            .collect();
        Ok(page)
    })
    .await
}

/// One page of the servers table: hosts containing `q`, of `zone`, in load `band` (`not_up`,
/// `band_0` … `band_4`, the overview's tiles). `sort` is host_id, host, zone, load, dc_load,
/// sessions or evaluator; `page` from 1.
#[server(endpoint = "lms_servers", input = crate::api::codec::Form)]
pub async fn lms_servers(
    q: Option<String>,
    zone: Option<String>,
    band: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<ServerTable, AppError> {
    use crate::auth::read_only;
    use crate::form::optional;
    use engine::lms::views::{ServerBand, ServerQuery, ServerSort};
    read_only(
        "lms.servers",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let sort = match optional(&sort) {
                None => ServerSort::HostId,
                Some(s) => serde_json::from_value(serde_json::Value::String(s.to_owned()))
                    .map_err(|_| {
                        AppError::invalid(
                            "sort",
                            "must be host_id, host, zone, load, dc_load, sessions or evaluator",
                        )
                    })?,
            };
            let band = optional(&band)
                .map(|b| {
                    ServerBand::parse(b).ok_or_else(|| {
                        AppError::invalid("band", "must be not_up or band_0 to band_4")
                    })
                })
                .transpose()?;
            let query = ServerQuery {
                zone: optional(&zone).map(str::to_owned),
                search: crate::form::search(&q)?,
                band,
                sort,
                descending: desc.unwrap_or(false),
                offset: page_offset(page, SERVER_PAGE_SIZE)?,
                limit: SERVER_PAGE_SIZE,
            };
            Ok(estate
                .query(move |sim| ServerTable {
                    page: sim.lms().servers(&query),
                    now_ms: sim.now().as_millis(),
                })
                .await?)
        },
    )
    .await
}

/// The session tables' search (`user`: a part of the user name) and order (`sort`: `user`,
/// `server`, `app`, `client` or `since`), checked; `field` names the sort's URL parameter.
#[cfg(feature = "ssr")]
fn session_order(
    user: &Option<String>,
    sort: &Option<String>,
    field: &str,
) -> Result<(Option<String>, engine::lms::views::SessionSort), AppError> {
    use engine::lms::views::SessionSort;
    let search = crate::form::search(user)?;
    let sort = match crate::form::optional(sort) {
        None => SessionSort::default(),
        Some(key) => SessionSort::parse(key).ok_or_else(|| {
            let keys = SessionSort::ALL.map(|(key, _)| key).join(", ");
            AppError::invalid(field, format!("must be one of {keys}"))
        })?,
    };
    Ok((search, sort))
}

/// One page of sessions, of one server and/or in one state (`connected` or `disconnected`),
/// whose user name contains `q`, ordered by `sort` (`user`, `server`, `app`, `client`,
/// `since`).
#[server(endpoint = "lms_sessions", input = crate::api::codec::Form)]
pub async fn lms_sessions(
    server: Option<String>,
    state: Option<String>,
    q: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<SessionPage, AppError> {
    use crate::auth::read_only;
    use crate::form::optional;
    use engine::lms::views::SessionQuery;
    read_only(
        "lms.sessions",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let state = optional(&state)
                .map(|s| {
                    serde_json::from_value(serde_json::Value::String(s.to_owned())).map_err(|_| {
                        AppError::invalid("state", "must be connected or disconnected")
                    })
                })
                .transpose()?;
            let (search, sort) = session_order(&q, &sort, "sort")?;
            let query = SessionQuery {
                server: optional(&server).map(str::to_owned),
                state,
                search,
                sort,
                desc: desc.unwrap_or(false),
                offset: page_offset(page, SESSION_PAGE_SIZE)?,
                limit: SESSION_PAGE_SIZE,
            };
            Ok(estate.query(move |sim| sim.lms().sessions(&query)).await?)
        },
    )
    .await
}

/// Most load samples a server's chart receives: one per two pixels of its width.
pub const CHART_SAMPLES: usize = 450;

/// One server: now, its load samples in the chart's time range (`range`, or `from` and `to`,
/// as the page's URL has them; at most [`CHART_SAMPLES`], each the peak of its slice of the
/// range), the placements that chose or skipped it, its sessions and events.
#[server(endpoint = "lms_server", input = crate::api::codec::Form)]
pub async fn lms_server(
    host: String,
    range: Option<String>,
    from: Option<String>,
    to: Option<String>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<ServerDetail, AppError> {
    use crate::auth::read_only;
    use crate::components::time_range::TimeRange;
    use crate::model::step_series::{in_window, thin_to_peaks};
    use engine::lms::views::SessionQuery;
    read_only(
        "lms.server",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let wanted = host.clone();
            let now = estate
                .query(move |sim| {
                    let lms = sim.lms();
                    lms.server(&wanted).map(|server| {
                        let sessions = lms.sessions(&SessionQuery {
                            server: Some(server.host.clone()),
                            limit: SESSION_PAGE_SIZE,
                            ..SessionQuery::default()
                        });
                        let indexes = lms.formula_indexes(&server.host);
                        let formula = lms.farm().formula;
                        (server, sessions, formula, indexes, sim.now().as_millis())
                    })
                })
                .await?;
            let Some((server, sessions, formula, indexes, now_ms)) = now else {
                return Err(AppError::NotFound(format!("no server `{host}`")));
            };
            let (from_ms, to_ms) =
                TimeRange::from_query(range.as_deref(), from.as_deref(), to.as_deref())
                    .window(now_ms);
            let window = estate.window();
            let h = services::charts::lms::server_history(
                &services.store,
                window,
                &server.host,
                &server.zone,
                (from_ms, to_ms),
            )
            .await?;
            Ok(ServerDetail {
                server,
                formula,
                indexes,
                now_ms,
                samples: thin_to_peaks(
                    in_window(&h.samples, |s| s.t_ms, |s, t| s.t_ms = t, from_ms, to_ms),
                    |s| s.t_ms,
                    |s| u64::from(s.load.max(s.dc_load.unwrap_or(0))),
                    from_ms,
                    to_ms,
                    CHART_SAMPLES,
                ),
                placements: h.placements,
                sessions,
                events: h
                    .events
                    .into_iter()
                    .map(crate::model::EventRow::from)
                    .collect(),
            })
        },
    )
    .await
}

/// Load-table rows per page of the dynamic store.
pub const LOAD_TABLE_PAGE_SIZE: u32 = 50;

/// The dynamic store: a page of the load table (hosts containing `q`, of `zone`, ordered by
/// column `lsort`, largest first when `ldesc`) and of each session table (users containing `user`, ordered by `ssort`), in the product's
/// notation, and the `qfarm /load` list of the load table's page.
#[server(endpoint = "lms_store", input = crate::api::codec::Form)]
pub async fn lms_store(
    connected_page: Option<u32>,
    disconnected_page: Option<u32>,
    user: Option<String>,
    ssort: Option<String>,
    sdesc: Option<bool>,
    q: Option<String>,
    zone: Option<String>,
    lsort: Option<String>,
    ldesc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<DynamicStore, AppError> {
    use crate::auth::read_only;
    use crate::form::optional;
    use crate::model::load_table::{sort_rows, LoadTableSort};
    use engine::lms::views::{SessionQuery, SessionState};
    read_only(
        "lms.store",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let (search, sort) = session_order(&user, &ssort, "ssort")?;
            let query = |state, page| -> Result<SessionQuery, AppError> {
                Ok(SessionQuery {
                    server: None,
                    state: Some(state),
                    search: search.clone(),
                    sort,
                    desc: sdesc.unwrap_or(false),
                    offset: page_offset(page, SESSION_PAGE_SIZE)?,
                    limit: SESSION_PAGE_SIZE,
                })
            };
            let connected = query(SessionState::Connected, connected_page)?;
            let disconnected = query(SessionState::Disconnected, disconnected_page)?;
            let offset = page_offset(page, LOAD_TABLE_PAGE_SIZE)? as usize;
            let needle = crate::form::search(&q)?.map(|q| q.to_lowercase());
            let zone = optional(&zone).map(str::to_owned);
            let sort =
                crate::model::listing::keyed("lsort", &LoadTableSort::by_key(), optional(&lsort))?
                    .unwrap_or_default();
            let desc = ldesc.unwrap_or(false);
            Ok(estate
                .query(move |sim| {
                    let lms = sim.lms();
                    // Only the rows of the servers kept are built.
                    let mut matching = lms.load_table_where(|host, row_zone| {
                        zone.as_deref().is_none_or(|z| row_zone == z)
                            && needle
                                .as_deref()
                                .is_none_or(|n| host.to_lowercase().contains(n))
                    });
                    sort_rows(&mut matching, sort, desc);
                    let load_table_matching = u32::try_from(matching.len()).unwrap_or(u32::MAX);
                    let load_table: Vec<_> = matching
                        .into_iter()
                        .skip(offset)
                        .take(LOAD_TABLE_PAGE_SIZE as usize)
                        .collect();
                    let qfarm = load_table
                        .iter()
                        .map(|row| (row.host.clone(), u32::from_str_radix(&row.load, 16).ok()))
                        .collect();
                    DynamicStore {
                        load_table,
                        load_table_matching,
                        connected: lms.sessions(&connected),
                        disconnected: lms.sessions(&disconnected),
                        qfarm,
                        now_ms: sim.now().as_millis(),
                    }
                })
                .await?)
        },
    )
    .await
}

/// The evaluators with their assignments (each naming its first servers and counting the
/// rest), and the servers and applications to assign: every application, and the farm's
/// first servers as suggestions with its server count.
#[server(endpoint = "lms_evaluators", input = crate::api::codec::Form)]
pub async fn lms_evaluators() -> Result<EvaluatorsPage, AppError> {
    use crate::auth::read_only;
    use crate::model::evaluators::{EvaluatorRow, SERVER_SUGGESTIONS};
    read_only(
        "lms.evaluators",
        engine::Role::Viewer,
        |services, _| async move {
            // Servers and applications come from the scenario (the engine never adds or
            // removes them); the servers view is paged and would cut a large farm short.
            let lms = &services.scenario.lms;
            let servers = lms
                .servers
                .iter()
                .take(SERVER_SUGGESTIONS)
                .map(|s| s.host.clone())
                .collect();
            let applications = lms.applications.iter().map(|a| a.name.clone()).collect();
            let evaluators = services
                .runtime
                .query(|sim| {
                    sim.lms()
                        .evaluators()
                        .into_iter()
                        .map(EvaluatorRow::from)
                        .collect()
                })
                .await?;
            Ok(EvaluatorsPage {
                evaluators,
                servers,
                server_count: lms.servers.len(),
                applications,
            })
        },
    )
    .await
}

/// Parses the editor's rules (a JSON list of [`RuleDraft`](crate::model::lms::RuleDraft)).
#[cfg(feature = "ssr")]
fn parse_rules(rules: &str) -> Result<Vec<engine::lms::config::rules::Rule>, AppError> {
    let drafts: Vec<crate::model::lms::RuleDraft> = serde_json::from_str(rules)
        .map_err(|e| AppError::invalid("rules", format!("is not a list of rules: {e}")))?;
    if drafts.is_empty() {
        return Err(AppError::invalid(
            "rules",
            "an evaluator needs at least one rule",
        ));
    }
    drafts
        .iter()
        .enumerate()
        .map(|(i, d)| d.to_rule(i))
        .collect()
}

/// What-if of an evaluator edit: every affected server's load index now and with the edit,
/// and where the next launches of `app` would go on each side. Changes nothing.
#[server(endpoint = "lms_evaluator_preview", input = crate::api::codec::Form)]
pub async fn lms_evaluator_preview(
    replaces: Option<String>,
    name: String,
    rules: String,
    app: Option<String>,
) -> Result<EvaluatorPreview, AppError> {
    use crate::auth::read_only;
    use crate::form::optional;
    read_only(
        "lms.evaluator_preview",
        engine::Role::Viewer,
        |services, _| async move {
            let rules = parse_rules(&rules)?;
            let replaces = optional(&replaces).map(str::to_owned);
            let app = optional(&app).map(str::to_owned);
            let preview = services
                .runtime
                .query(move |sim| {
                    sim.lms().preview_evaluator(
                        replaces.as_deref(),
                        name.trim(),
                        &rules,
                        app.as_deref(),
                        PREVIEW_LAUNCHES,
                    )
                })
                .await?;
            Ok(preview?)
        },
    )
    .await
}

/// Creates an evaluator (`replaces` empty) or replaces one. Admin only; audited.
#[server(endpoint = "lms_evaluator_save", input = crate::api::codec::Form)]
pub async fn lms_evaluator_save(
    replaces: Option<String>,
    name: String,
    rules: String,
) -> Result<(), AppError> {
    use crate::auth::audited;
    use crate::form::optional;
    let args = serde_json::json!({ "name": name, "replaces": replaces, "rules": rules });
    audited(
        "lms.evaluator_save",
        engine::Role::Admin,
        args,
        |services, user| async move {
            let rules = parse_rules(&rules)?;
            let action = engine::LmsAction::EvaluatorSave {
                name: name.trim().to_owned(),
                rules,
                replaces: optional(&replaces).map(str::to_owned),
            };
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}

/// Deletes a custom evaluator nothing uses. Admin only; audited.
#[server(endpoint = "lms_evaluator_delete", input = crate::api::codec::Form)]
pub async fn lms_evaluator_delete(name: String) -> Result<(), AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "name": name });
    audited(
        "lms.evaluator_delete",
        engine::Role::Admin,
        args,
        |services, user| async move {
            let action = engine::LmsAction::EvaluatorDelete { name };
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}

/// Assigns an evaluator to servers and applications (comma-separated; a server may be named
/// by a `*` pattern, `XA-042-*`), or removes an application's own evaluator (`evaluator`
/// empty, one application). Admin only; audited.
#[server(endpoint = "lms_evaluator_assign", input = crate::api::codec::Form)]
pub async fn lms_evaluator_assign(
    evaluator: String,
    servers: Option<String>,
    applications: Option<String>,
) -> Result<(), AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "evaluator": evaluator, "servers": servers, "applications": applications });
    audited("lms.evaluator_assign", engine::Role::Admin, args, |services, user| async move {
            let list = |v: &Option<String>| -> Vec<String> {
                v.as_deref()
                    .unwrap_or_default()
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            };
            let servers = crate::model::evaluators::expand_hosts(
                servers.as_deref().unwrap_or_default(),
                services.scenario.lms.servers.iter().map(|s| s.host.as_str()),
            )
            .map_err(|e| AppError::invalid("servers", e))?;
            let applications = list(&applications);
            {
                let action = if evaluator.trim().is_empty() {
                    match (servers.is_empty(), applications.as_slice()) {
                        (true, [application]) => engine::LmsAction::EvaluatorUnassign {
                            application: application.clone(),
                        },
                        _ => {
                            return Err(AppError::invalid(
                                "evaluator",
                                "choose an evaluator (or leave it empty with exactly one application to remove its evaluator)",
                            ))
                        }
                    }
                } else {
                    if servers.is_empty() && applications.is_empty() {
                        return Err(AppError::invalid("servers", "choose at least one server or application"));
                    }
                    engine::LmsAction::EvaluatorAssign {
                        evaluator: evaluator.trim().to_owned(),
                        servers,
                        applications,
                    }
                };
                services.runtime.apply(action, &user.username).await?;
                Ok(())
            }
        })
.await
}

/// Farm settings: the black-hole fix (`on` / `off`) and the formula (`sum` / `average`).
/// Admin only; audited.
#[server(endpoint = "lms_settings", input = crate::api::codec::Form)]
pub async fn lms_settings(
    black_hole_fix: Option<String>,
    formula: Option<String>,
) -> Result<(), AppError> {
    use crate::auth::audited;
    use crate::form::optional;
    let args = serde_json::json!({ "black_hole_fix": black_hole_fix, "formula": formula });
    audited(
        "lms.farm_settings",
        engine::Role::Admin,
        args,
        |services, user| async move {
            {
                let fix = match optional(&black_hole_fix) {
                    None => None,
                    Some("on") => Some(true),
                    Some("off") => Some(false),
                    Some(_) => {
                        return Err(AppError::invalid("black_hole_fix", "must be on or off"))
                    }
                };
                let formula = optional(&formula)
                    .map(|f| {
                        serde_json::from_value(serde_json::Value::String(f.to_owned()))
                            .map_err(|_| AppError::invalid("formula", "must be sum or average"))
                    })
                    .transpose()?;
                let action = engine::LmsAction::FarmSettings {
                    black_hole_fix: fix,
                    formula,
                };
                services.runtime.apply(action, &user.username).await?;
                Ok(())
            }
        },
    )
    .await
}

/// The fields an operator action may use, all as typed (checked on the server).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LmsActInput {
    /// `logon_storm`, `app_launch`, `reboot`, `kill_collector`, `spike`, `disconnect`,
    /// `logoff`.
    pub op: String,
    /// Server host.
    #[serde(default)]
    pub server: String,
    /// Zone id.
    #[serde(default)]
    pub zone: String,
    /// Users of a storm, or sessions to disconnect / log off.
    #[serde(default)]
    pub count: String,
    /// Storm spread or spike length (`5m`).
    #[serde(default)]
    pub over: String,
    /// Application.
    #[serde(default)]
    pub app: String,
    /// Spike counter: `cpu` or `memory`.
    #[serde(default)]
    pub counter: String,
    /// Spike value, percent.
    #[serde(default)]
    pub percent: String,
    /// User.
    #[serde(default)]
    pub user: String,
}

/// An operator action on the farm. Operator role; audited.
#[server(endpoint = "lms_act", input = crate::api::codec::Form)]
pub async fn lms_act(input: LmsActInput) -> Result<(), AppError> {
    use crate::auth::audited;
    let action_name = format!("lms.{}", input.op);
    let args = serde_json::to_value(&input).unwrap_or_default();
    audited(
        &action_name,
        engine::Role::Operator,
        args,
        |services, user| async move {
            let action = act::to_action(&input, &user.username)?;
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}

#[cfg(feature = "ssr")]
mod act {
    use engine::LmsAction;

    use super::LmsActInput;
    use crate::error::AppError;
    use crate::form::{choice, duration, need, text, whole};

    /// The engine action an operator's form asks for.
    pub fn to_action(i: &LmsActInput, username: &str) -> Result<LmsAction, AppError> {
        Ok(match i.op.as_str() {
            "logon_storm" => LmsAction::LogonStorm {
                users: whole(&i.count, "count", 1, 100_000)?,
                over: duration(&i.over, "over")?,
                app: text(&i.app),
            },
            "app_launch" => LmsAction::AppLaunch {
                user: text(&i.user).unwrap_or_else(|| username.to_owned()),
                app: need(&i.app, "app")?,
                client_ip: None,
            },
            "reboot" => LmsAction::ServerReboot { server: need(&i.server, "server")? },
            "kill_collector" => LmsAction::KillCollector { zone: need(&i.zone, "zone")? },
            "spike" => LmsAction::CounterSpike {
                server: need(&i.server, "server")?,
                counter: choice(&i.counter, "counter", "cpu or memory")?,
                percent: u8::try_from(whole(&i.percent, "percent", 0, 100)?).unwrap_or(100),
                duration: duration(&i.over, "over")?,
            },
            "disconnect" | "logoff" => {
                let (user, server) = (text(&i.user), text(&i.server));
                if user.is_some() == server.is_some() {
                    return Err(AppError::invalid("server", "name either a server or a user"));
                }
                let count = if server.is_some() { whole(&i.count, "count", 1, 100_000)? } else { 1 };
                if i.op == "disconnect" {
                    LmsAction::DisconnectSessions { user, server, count }
                } else {
                    LmsAction::LogoffSessions { user, server, count }
                }
            }
            _ => {
                return Err(AppError::invalid(
                    "op",
                    "must be logon_storm, app_launch, reboot, kill_collector, spike, disconnect or logoff",
                ))
            }
        })
    }
}

/// The black-hole A/B: the same seeded logon storm right after `server` reboots, with the
/// fix on and off, on copies of the scenario's farm (the live run is not touched).
#[server(endpoint = "lms_black_hole_ab", input = crate::api::codec::Form)]
pub async fn lms_black_hole_ab(
    server: String,
    users: String,
    over: String,
    app: Option<String>,
) -> Result<AbReport, AppError> {
    use crate::auth::read_only;
    use crate::form::optional;
    read_only(
        "lms.black_hole_ab",
        engine::Role::Operator,
        |services, _| async move {
            let users = users
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=5_000).contains(n))
                .ok_or_else(|| {
                    AppError::invalid(
                        "users",
                        format!(
                            "must be a whole number between 1 and 5000; got \"{}\"",
                            users.trim()
                        ),
                    )
                })?;
            let over = engine::parse_duration(over.trim())
                .map_err(|e| AppError::invalid("over", format!("{e} (e.g. 2m)")))?;
            if over > engine::SimDuration::from_secs(3_600) {
                return Err(AppError::invalid("over", "must be at most 1h"));
            }
            let app = optional(&app).map(str::to_owned);
            let scenario = services.scenario.clone();
            let seed = u64::try_from(services.runtime.run().seed).unwrap_or_default();
            let report = tokio::task::spawn_blocking(move || {
                engine::lms::black_hole_ab(
                    &scenario,
                    seed,
                    server.trim(),
                    users,
                    over,
                    app.as_deref(),
                )
            })
            .await
            .map_err(|_| AppError::Internal)?;
            Ok(report?)
        },
    )
    .await
}
