//! Autoscale, the groups page: every group with its mode, whether the application is
//! deployed, each availability zone's cluster (nodes, state, breach streak) and the last
//! decision with its reason. Also the badges that the overview card and the other autoscale
//! pages share.

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{ClusterState, ClusterView, DecisionView, GroupView};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::autoscale::autoscale_groups;
use crate::components::autoscale_charts::{minute_label, state_key};
use crate::components::live::use_live_refresh;
use crate::components::page_help::PageHelp;
use crate::format::sim_time;
use crate::model::autoscale::GroupsPage;
use crate::pages::LoadError;
use crate::time_travel::{use_as_of, AsOf};

/// A cluster state badge, with the minute it lasts until.
#[component]
pub fn StateBadge(state: ClusterState, until: Option<u64>) -> impl IntoView {
    let title = until
        .map(|m| format!("until {}", minute_label(m)))
        .unwrap_or_default();
    view! {
        <span class=format!("badge as-badge as-{}", state_key(state)) data-state=state_key(state) title=title>
            {state.label()}
            {until.map(|m| view! { <span class="small">{format!(" → {}", minute_label(m))}</span> })}
        </span>
    }
}

/// `DNS` or `NLB`.
pub fn mode_label(mode: DistributionMode) -> &'static str {
    match mode {
        DistributionMode::Dns => "DNS",
        DistributionMode::Nlb => "NLB",
    }
}

/// `scale_out` as `scale-out`.
pub fn decision_label(kind: &str) -> String {
    match kind {
        "scale_out" => "scale-out".to_owned(),
        "scale_in" => "scale-in".to_owned(),
        "at_limit" => "at the node limit".to_owned(),
        other => other.replace('_', " "),
    }
}

/// A decision in one line: when, where, what and why.
#[component]
pub fn Decision(decision: Option<DecisionView>) -> impl IntoView {
    match decision {
        None => view! { <span class="muted">"none yet"</span> }.into_any(),
        Some(d) => view! {
            <span class="as-decision" data-kind=d.kind.clone()>
                <strong>{decision_label(&d.kind)}</strong>
                {format!(" in {} at {}", d.zone, sim_time(d.at_ms))}
                <span class="muted small as-reason">{d.reason}</span>
            </span>
        }
        .into_any(),
    }
}

fn zone_cell(z: &ClusterView) -> impl IntoView {
    let total = z.nodes.len();
    view! {
        <div class="as-zone" data-zone=z.zone.clone()>
            <span class="mono">{z.zone.clone()}</span>" "
            <StateBadge state=z.state until=z.state_until_minute/>
            <span class="num" data-col="nodes">{format!(" {} in service", z.nodes_in_service)}</span>
            {(total != z.nodes_in_service as usize).then(|| view! { <span class="muted small">{format!(" ({total} exist)")}</span> })}
            {z.streak.as_ref().map(|s| view! {
                <div class="muted small">{format!("streak {} {}: {}/{} min", s.parameter, s.direction.replace('_', " "), s.minutes, s.needed)}</div>
            })}
        </div>
    }
}

fn group_row(g: GroupView, as_of: &AsOf) -> impl IntoView {
    let href = as_of.link(&format!("/autoscale/{}", g.name));
    let p = &g.params;
    let limits = format!("{}–{} nodes", p.min_nodes, p.max_nodes);
    view! {
        <tr data-group=g.name.clone()>
            <td><a href=href>{g.name.clone()}</a><div class="muted small mono">{g.domain.clone()}</div></td>
            <td><span class="tag">{mode_label(g.mode)}</span></td>
            <td data-col="deployed">{if g.deployed { "deployed" } else { "not deployed" }}</td>
            <td data-col="limits">{limits}</td>
            <td>{g.zones.iter().map(zone_cell).collect_view()}</td>
            <td><Decision decision=g.last_decision.clone()/></td>
        </tr>
    }
    .into_any()
}

/// The groups page.
#[component]
pub fn AutoscalePage() -> impl IntoView {
    let tick = use_live_refresh("autoscale");
    let as_of = use_as_of();
    let groups = Resource::new(
        move || (tick.get(), as_of.get()),
        |(_, as_of)| autoscale_groups(as_of.at, as_of.run),
    );
    view! {
        <Title text="Autoscale"/>
        <h1>"Autoscale"</h1>
        <PageHelp text="Each autoscale group of ADC clusters, one row per group with its zones: how many nodes each zone's cluster runs, against its minimum and maximum, and where the decision cycle stands (evaluating, cooldown, draining, waiting for DNS TTL). Open a group for its timeline and the reason of every scale event."/>
        <p class="muted">
            "Autoscale groups of ADC clusters, one cluster per availability zone, decided per cluster. Statistics every minute: scale out when any threshold stays above its maximum for the watch time, scale in when all stay below their minimum; cooldown after a scale-out, drain (and the DNS TTL in DNS mode) after a scale-in."
        </p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match groups.await {
                    Err(e) => view! { <LoadError error=e/> }.into_any(),
                    Ok(GroupsPage { groups, now_ms }) => {
                        let shown = as_of.get_untracked();
                        view! {
                        <section class="card">
                            <table tabindex="0" id="group-table">
                                <thead><tr><th>"Group"</th><th>"Mode"</th><th>"Application"</th><th>"Limits"</th><th>"Clusters (zone, state, nodes)"</th><th>"Last decision"</th></tr></thead>
                                <tbody>
                                    {groups.is_empty().then(|| view! { <tr><td colspan="6" class="empty">"No autoscale group in this scenario."</td></tr> })}
                                    {groups.into_iter().map(|g| group_row(g, &shown)).collect_view()}
                                </tbody>
                            </table>
                            <p class="muted small">{format!("Simulated time {}", sim_time(now_ms))}</p>
                        </section>
                        }.into_any()
                    }
                }
            })}
        </Transition>
    }
}
