//! One autoscale group: per availability zone the timeline (metrics and limits, breaches,
//! decisions, cooldown / drain / TTL, nodes), the nodes with their lifecycle state and what
//! the distributor holds; the parameters (documented or assumed); the recent decisions with
//! their reasons; and for operators the load, application and distribution actions.

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{ClusterView, GroupView, InjectionView, RecordsView};
use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::api::autoscale::{
    autoscale_group, autoscale_groups, AutoscaleAct, AutoscaleActInput, WINDOW_RANGE,
};
use crate::components::act::{Act, ActButton, ActForm};
use crate::components::autoscale_charts::TimelineChart;
use crate::components::confirm::ConfirmButton;
use crate::components::page_help::PageHelp;
use crate::components::time_range::{use_time_range, RangePicker, TimeRange};
use engine::autoscale::chart::Timeline;

use crate::answer::answer;
use crate::components::event_words::describe;
use crate::components::layout::user_allows;
use crate::components::live::LiveRefresh;
use crate::erase::Erase;
use crate::format::{sim_time, Instant};
use crate::model::autoscale::{metric_name, metric_unit, switch_consequences, GroupDetail};
use crate::model::node_list::node_state_label;
use crate::model::EventRow;
use crate::pages::autoscale::{decision_label, mode_label, Decision, StateBadge};
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The group page.
#[component]
pub fn AutoscaleGroupPage() -> impl IntoView {
    let params = use_params_map();
    let group = Memo::new(move |_| params.read().get("group").unwrap_or_default());
    let query = use_query_map();
    // The shared time range, or an explicit `?minutes=` (links of earlier versions).
    let range = use_time_range();
    let window = Memo::new(move |_| {
        let explicit = query
            .read()
            .get("minutes")
            .and_then(|m| m.parse::<u32>().ok());
        match explicit {
            Some(m) => (Some(m), None),
            None => autoscale_window(range.get()),
        }
    });
    let as_of = use_as_of();
    let detail = answer(
        move || (group.get(), window.get(), as_of.get()),
        |(group, (minutes, until), as_of)| {
            autoscale_group(group, minutes, until, as_of.at, as_of.run)
        },
    );
    let forms = answer(
        move || group.get(),
        |name| autoscale_groups(Some(name), None, None),
    );
    view! {
        <Title text="Autoscale group"/>
        <LiveRefresh engine="autoscale"/>
        <p><a href=move || as_of.get().link("/autoscale")>"← Autoscale groups"</a></p>
        <h1>"Autoscale group " <span class="mono">{move || group.get()}</span></h1>
        <PageHelp text="One autoscale group over time: per zone, the metric against its scale-out and scale-in thresholds, the node count with its limits, and the spans of cooldown, drain and DNS TTL wait. Every scale decision below names the breach streak that caused it; pick a time range above the charts to zoom."/>
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                let can_act = user_allows(Role::Operator).await;
                let name = group.get_untracked();
                let found = forms.await.ok().and_then(|p| p.groups.into_iter().find(|g| g.name == name));
                match (can_act, found) {
                    (true, Some(g)) => view! { <Actions group=g/> }.erase(),
                    _ => ().erase(),
                }
            })}
        </Transition>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let is_admin = user_allows(Role::Admin).await;
                match detail.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(d) => view! { <Detail detail=d is_admin/> }.erase(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Detail(detail: GroupDetail, is_admin: bool) -> impl IntoView {
    let GroupDetail {
        group,
        timelines,
        decisions,
        minutes: _,
        now_ms,
    } = detail;
    let dns = group.mode == DistributionMode::Dns;
    let name = group.name.clone();
    let header = view! {
        <section class="card" id="group-summary">
            <p>
                <span class="tag" id="group-mode">{mode_label(group.mode)}</span>" "
                <span class="mono">{group.domain.clone()}</span>" · "
                <span id="group-deployed">{if group.deployed { "application deployed" } else { "application not deployed" }}</span>
                {format!(" · simulated time {}", sim_time(now_ms))}
            </p>
            <p>"Last decision: " <Decision decision=group.last_decision.clone()/></p>
            <RangePicker/>
            {is_admin.then(|| view! { <p><a href=format!("/autoscale/{name}/edit") id="edit-link">"Edit thresholds and limits (with what-if) →"</a></p> })}
        </section>
    }
    .erase();
    let zones = group
        .zones
        .iter()
        .cloned()
        .map(|cluster| {
            let timeline = timelines.iter().find(|t| t.zone == cluster.zone).cloned();
            view! { <Zone cluster timeline dns/> }.erase()
        })
        .collect_view();
    view! {
        {header}
        {zones}
        <Params group/>
        <Decisions rows=decisions/>
    }
}

#[component]
fn Zone(cluster: ClusterView, timeline: Option<Timeline>, dns: bool) -> impl IntoView {
    let zone = cluster.zone.clone();
    let metrics = cluster
        .metrics
        .iter()
        .map(|(m, v)| format!("{} {v:.1} {}", metric_name(*m), metric_unit(*m)))
        .collect::<Vec<_>>()
        .join(" · ");
    let chart = match timeline {
        Some(t) => view! { <TimelineChart timeline=t dns id=format!("timeline-{zone}")/> }.erase(),
        None => view! { <p class="muted">"No timeline."</p> }.erase(),
    };
    let nodes = view! { <Nodes cluster=cluster.clone()/> }.erase();
    let records = view! { <Records records=cluster.records.clone()/> }.erase();
    view! {
        <section class="card as-zone-card" data-zone=zone.clone() id=format!("zone-{zone}")>
            <h2>
                <span class="mono">{zone.clone()}</span>" "
                <StateBadge state=cluster.state until=cluster.state_until_minute/>
                <span class="muted small" data-col="in-service">{format!(" {} node(s) in service", cluster.nodes_in_service)}</span>
            </h2>
            <p class="small">
                {if metrics.is_empty() { "No statistics yet.".to_owned() } else { format!("Now: {metrics}") }}
                {cluster.streak.as_ref().map(|s| format!(" · streak {} {}: {}/{} min", s.parameter, s.direction.replace('_', " "), s.minutes, s.needed))}
            </p>
            {cluster.injected.as_ref().map(|i| view! {
                <p class="small as-injected" data-col="injected">{format!("Injected load: {}.", injection_text(i))}</p>
            })}
            <p class="small">"Last decision here: " <Decision decision=cluster.last_decision.clone()/></p>
            {chart}
            <div class="as-two">{nodes}{records}</div>
        </section>
    }
}

#[component]
fn Nodes(cluster: ClusterView) -> impl IntoView {
    let empty = cluster.nodes.is_empty();
    view! {
        <div>
            <h3>"Nodes"</h3>
            <table tabindex="0" id=format!("nodes-{}", cluster.zone) class="as-nodes-table">
                <thead><tr><th>"Node"</th><th>"Private IP"</th><th>"Public IP"</th><th>"State"</th><th>"Since"</th></tr></thead>
                <tbody>
                    {empty.then(|| view! { <tr><td colspan="5" class="empty">"No node."</td></tr> })}
                    {cluster.nodes.into_iter().map(|n| view! {
                        <tr data-node=n.id.clone() data-state=node_state_label(n.state)>
                            <td class="mono">{n.id.clone()}</td>
                            <td class="mono">{n.ip}</td>
                            <td class="mono">{n.public_ip.unwrap_or_else(|| "—".into())}</td>
                            <td>{node_state_label(n.state)}</td>
                            <td class="mono"><Instant t_ms=n.since_ms/></td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn Records(records: RecordsView) -> impl IntoView {
    let RecordsView {
        mode,
        ipset,
        dns,
        nlb,
    } = records;
    view! {
        <div class="as-records" data-mode=mode_label(mode)>
            <h3>{format!("Distributor ({})", mode_label(mode))}</h3>
            <table tabindex="0" class="counts">
                <tbody>
                    <tr><th>"IPSet on the cluster"</th><td class="mono" data-col="ipset">{ipset.unwrap_or_else(|| "none".into())}</td></tr>
                    {dns.map(|(name, ips, ttl)| view! {
                        <tr><th>{format!("DNS A records (TTL {ttl} s)")}</th><td class="mono" data-col="dns">{format!("{name} → {}", if ips.is_empty() { "(none)".to_owned() } else { ips.join(", ") })}</td></tr>
                    })}
                    {nlb.map(|(ip, targets)| view! {
                        <tr><th>"NLB public IP → targets"</th><td class="mono" data-col="nlb">{format!("{ip} → {}", if targets.is_empty() { "(none)".to_owned() } else { targets.join(", ") })}</td></tr>
                    })}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn Params(group: GroupView) -> impl IntoView {
    let p = group.params;
    let thresholds = p
        .thresholds
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let unit = metric_unit(t.parameter);
            view! {
                <tr data-threshold=i.to_string()><th>{format!("Threshold: {}", metric_name(t.parameter))}</th>
                <td class="num" data-col=format!("threshold-{}", metric_name(t.parameter))>{format!("min {} / max {} {unit}", t.min, t.max)}</td></tr>
            }
        })
        .collect_view();
    view! {
        <section class="card">
            <h2>"Parameters"</h2>
            <div class="as-two">
                <table tabindex="0" class="counts" id="group-params">
                    <tbody>
                        <tr><th>"Minimum nodes per cluster"</th><td class="num" data-col="min_nodes">{p.min_nodes}</td></tr>
                        <tr><th>"Maximum nodes per cluster"</th><td class="num" data-col="max_nodes">{p.max_nodes}</td></tr>
                        <tr><th>"Watch time"</th><td class="num" data-col="watch_time_min">{format!("{} min", p.watch_time_min)}</td></tr>
                        <tr><th>"Cooldown"</th><td class="num" data-col="cooldown_min">{format!("{} min", p.cooldown_min)}</td></tr>
                        <tr><th>"Drain connection timeout"</th><td class="num" data-col="drain_timeout_min">{format!("{} min", p.drain_timeout_min)}</td></tr>
                        <tr><th>"DNS TTL"</th><td class="num" data-col="ttl_s">{format!("{} s", p.ttl_s)}</td></tr>
                        {thresholds}
                    </tbody>
                </table>
                <table tabindex="0" class="facts" id="group-settings">
                    <tbody>
                        {group.settings.into_iter().map(|s| view! {
                            <tr data-setting=s.key.clone()><th>{s.label}</th><td>{format!("{} ({})", s.value, s.source)}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// The zone of an event (`all` when it has none) and why, in words (its reason, message or
/// template: [`describe`]).
fn zone_and_reason(row: &EventRow) -> (String, String) {
    let zone = serde_json::from_str::<serde_json::Value>(&row.details)
        .ok()
        .and_then(|d| d.get("zone")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| "all".to_owned());
    (zone, describe(&row.kind, &row.details))
}

/// An injected load in words.
fn injection_text(i: &InjectionView) -> String {
    match i.until_minute {
        Some(u) => format!(
            "spike of {} % from minute {} to {u}, replacing the workload model",
            i.level, i.from_minute
        ),
        None => format!(
            "lasting step of {} % since minute {}, replacing the workload model until released",
            i.level, i.from_minute
        ),
    }
}

#[component]
fn Decisions(rows: Vec<EventRow>) -> impl IntoView {
    let empty = rows.is_empty();
    view! {
        <section class="card">
            <h2>"Decisions and actions"</h2>
            <table tabindex="0" id="decision-table">
                <thead><tr><th>"Sim time"</th><th>"Zone"</th><th>"What"</th><th>"Why / details"</th><th>"Actor"</th></tr></thead>
                <tbody>
                    {empty.then(|| view! { <tr><td colspan="5" class="empty">"None yet."</td></tr> })}
                    {rows.into_iter().map(|r| {
                        let (zone, why) = zone_and_reason(&r);
                        let what = match r.kind.as_str() {
                            "autoscale.scale_out" | "autoscale.scale_in" | "autoscale.at_limit" => decision_label(r.kind.trim_start_matches("autoscale.")),
                            other => other.replace(['.', '_'], " "),
                        };
                        view! {
                            <tr data-kind=r.kind.clone()>
                                <td class="mono"><Instant t_ms=r.t_ms/></td>
                                <td class="mono as-nowrap">{zone}</td>
                                <td>{what}</td>
                                <td class="small">{why}</td>
                                <td>{r.actor.clone().unwrap_or_default()}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

#[component]
fn Actions(group: GroupView) -> impl IntoView {
    let name = group.name.clone();
    let injected: Vec<(String, InjectionView)> = group
        .zones
        .iter()
        .filter_map(|z| z.injected.clone().map(|i| (z.zone.clone(), i)))
        .collect();
    let target = match group.mode {
        DistributionMode::Dns => "nlb",
        DistributionMode::Nlb => "dns",
    };
    let target_label = if target == "nlb" { "NLB" } else { "DNS" };
    let consequences = switch_consequences(&group);
    let deployed = group.deployed;
    let on_group = |input: AutoscaleActInput| {
        Act::of(&AutoscaleAct {
            input: AutoscaleActInput {
                group: name.clone(),
                ..input
            },
        })
    };
    let done = "Done: {n} event(s); the decisions below say what follows.";
    let deploy = on_group(AutoscaleActInput {
        op: "app_deploy".into(),
        ..AutoscaleActInput::default()
    })
    .filter(|_| !deployed);
    let remove = on_group(AutoscaleActInput {
        op: "app_remove".into(),
        ..AutoscaleActInput::default()
    });
    let switch_act = on_group(AutoscaleActInput {
        op: "distribution_switch".into(),
        mode: target.into(),
        ..AutoscaleActInput::default()
    });
    let releases: Vec<(String, InjectionView, Option<Act>)> = injected
        .into_iter()
        .map(|(z, i)| {
            let act = on_group(AutoscaleActInput {
                op: "load_release".into(),
                zone: z.clone(),
                ..AutoscaleActInput::default()
            });
            (z, i, act)
        })
        .collect();
    let remove_consequence = format!("Remove the application from {name}: its DNS records are unregistered and its IPSet deleted in every cluster; the clusters stop evaluating and go idle until it is deployed again.");
    let inject = view! {
        <ActForm path=AutoscaleAct::PATH class="controls" id="inject-form" error_id="action-error" status_id="act-result" done=done>
            <input type="hidden" name="input[op]" value="load_inject"/>
            <input type="hidden" name="input[group]" value=name.clone()/>
            <label>"Load " <input type="text" size="5" name="input[level]" value="200"/> " % of the capacity of the minimum nodes"</label>
            <label>" in "
                <select name="input[zone]">
                    <option value="">"every zone"</option>
                    {group.zones.iter().map(|z| view! { <option value=z.zone.clone()>{z.zone.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>" as "
                <select name="input[shape]">
                    <option value="spike">"a spike of"</option>
                    <option value="step">"a lasting step (the minutes are ignored)"</option>
                </select>
            </label>
            <label><input type="text" size="4" name="input[duration_min]" value="15"/>" min"</label>
            <button type="submit" id="inject">"Inject load"</button>
        </ActForm>
        <ul class="as-injections" id="injections">
            {releases.into_iter().map(|(z, i, act)| {
                view! {
                    <li data-zone=z.clone()>
                        {format!("{z}: {}", injection_text(&i))}
                        " "
                        <ActButton class="release" label="Hand back to the workload model" aria_label=format!("Hand {z} back to the workload model") act/>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .erase();
    let app = view! {
        <div class="controls" id="app-form">
            <span>{if deployed { "The application is deployed." } else { "The application is not deployed." }}</span>
            <ActButton
                id="app-deploy"
                label="Deploy application"
                act=deploy
            />
            <ConfirmButton
                id="app-remove"
                label="Remove application"
                confirm="Remove application"
                consequence=remove_consequence
                not_now=(!deployed).then(|| "The application is not deployed.".to_owned())
                act=remove
            />
        </div>
    }
    .erase();
    let switch = view! {
        <div class="controls" id="switch-form">
            <ConfirmButton
                id="switch-mode"
                panel_id="switch-confirm"
                confirm_id="switch-confirm-yes"
                label=format!("Switch to {target_label}…")
                confirm=format!("Switch to {target_label}")
                consequence=format!("Switch the traffic distribution to {target_label}? This will:")
                details=consequences
                act=switch_act
            />
        </div>
    }
    .erase();
    view! {
        <section class="card" id="autoscale-actions">
            <h2>"Operator actions"</h2>
            {inject}
            {app}
            {switch}
            <p class="muted small">"Injected load replaces the workload's demand while it lasts; decisions follow at the next statistics collections (every simulated minute)."</p>
        </section>
    }
}

/// The minutes of timeline and the last minute a time range asks the server for: a preset is
/// the last minutes (all: the 7 days the engine keeps); a custom range ends at its end.
fn autoscale_window(range: TimeRange) -> (Option<u32>, Option<u64>) {
    let (lo, hi) = WINDOW_RANGE;
    let minutes = |ms: u64| Some(u32::try_from(ms / 60_000).unwrap_or(hi).clamp(lo, hi));
    match range {
        TimeRange::Last { ms, .. } => (minutes(ms), None),
        TimeRange::All => (Some(hi), None),
        TimeRange::Custom { from_ms, to_ms } => (minutes(to_ms - from_ms), Some(to_ms / 60_000)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_range_becomes_minutes_and_an_end() {
        let cases = [
            (
                TimeRange::Last {
                    key: "15m",
                    ms: 900_000,
                },
                (Some(15), None),
            ),
            (
                TimeRange::Last {
                    key: "7d",
                    ms: 604_800_000,
                },
                (Some(10_080), None),
            ),
            (TimeRange::All, (Some(10_080), None)),
            (
                TimeRange::Custom {
                    from_ms: 3_600_000,
                    to_ms: 3_900_000,
                },
                (Some(10), Some(65)),
            ),
            (
                TimeRange::Custom {
                    from_ms: 0,
                    to_ms: 7_200_000,
                },
                (Some(120), Some(120)),
            ),
        ];
        for (range, want) in cases {
            assert_eq!(autoscale_window(range), want, "{range:?}");
        }
    }
}
