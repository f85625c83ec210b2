//! Autoscale, the groups page: every group with its mode, whether the application is
//! deployed, each availability zone's cluster (nodes, state, breach streak) and the last
//! decision with its reason. Also the badges that the overview card and the other autoscale
//! pages share.

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{ClusterState, ClusterView, DecisionView, GroupView};
use leptos::prelude::*;
use leptos_meta::Title;

use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::autoscale::autoscale_list;
use crate::components::autoscale_charts::{minute_label, state_key};
use crate::components::filter_form::{choice, ChoiceFilter, FilterForm, KeptSort};
use crate::components::list_url::{matching_summary, ListUrl};
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::section_tabs::SectionTabs;
use crate::erase::Erase;
use crate::format::sim_time;
use crate::model::autoscale::GroupListPage;
use crate::model::autoscale_groups::{
    GroupPage, GroupSort, GROUP_PAGE_SIZE, GROUP_SORTS, MODE_KEYS, STATE_KEYS,
};
use crate::pages::Loaded;
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

/// The section's tabs.
#[component]
pub fn AutoscaleNav(current: &'static str) -> impl IntoView {
    const TABS: &[(&str, &str)] = &[("/autoscale", "Groups"), ("/autoscale/nodes", "Nodes")];
    view! { <SectionTabs tabs=TABS current/> }
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
        None => view! { <span class="muted">"none yet"</span> }.erase(),
        Some(d) => view! {
            <span class="as-decision" data-kind=d.kind.clone()>
                <strong>{decision_label(&d.kind)}</strong>
                {format!(" in {} at {}", d.zone, sim_time(d.at_ms))}
                <span class="muted small as-reason">{d.reason}</span>
            </span>
        }
        .erase(),
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
    .erase()
}

/// The groups page.
#[component]
pub fn AutoscalePage() -> impl IntoView {
    let as_of = use_as_of();
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (
            (q.get("q"), q.get("state"), q.get("mode")),
            q.get("sort"),
            q.get("desc").map(|d| d == "1"),
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
        )
    });
    let groups = answer(
        move || (params.get(), as_of.get()),
        |(((search, state, mode), sort, desc, page), as_of)| {
            autoscale_list(search, state, mode, sort, desc, page, as_of.at, as_of.run)
        },
    );
    view! {
        <Title text="Autoscale"/>
        <LiveRefresh engine="autoscale"/>
        <h1>"Autoscale"</h1>
        <PageHelp text="Each autoscale group of ADC clusters, one row per group with its zones: how many nodes each zone's cluster runs, against its minimum and maximum, and where the decision cycle stands (evaluating, cooldown, draining, waiting for DNS TTL). Search by name or domain, keep the groups with a cluster in one state, or sort by a column: the address keeps the view, to share it. Open a group for its timeline and the reason of every scale event."/>
        <AutoscaleNav current="/autoscale"/>
        <p class="muted">
            "Autoscale groups of ADC clusters, one cluster per availability zone, decided per cluster. Statistics every minute: scale out when any threshold stays above its maximum for the watch time, scale in when all stay below their minimum; cooldown after a scale-out, drain (and the DNS TTL in DNS mode) after a scale-in."
        </p>
        <section class="card">
            <GroupFilters/>
            <Loaded of=groups show=|GroupListPage { groups, now_ms }| view! { <GroupTable page=groups now_ms/> }/>
        </section>
    }
}

/// The groups table's search and filters (the sort is kept).
#[component]
fn GroupFilters() -> impl IntoView {
    let query = use_query_map();
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <FilterForm class="form filters" id="group-filters">
            <label>"Search " <input type="search" name="q" size="16" maxlength="100" placeholder="group or domain" value=move || current("q")/></label>
            <ChoiceFilter label="A cluster" name="state" any="in any state" choices=STATE_KEYS.into_iter().map(|(key, state)| choice(key, state.label())).collect()/>
            <ChoiceFilter label="Mode" name="mode" choices=MODE_KEYS.into_iter().map(|(key, mode)| choice(key, mode_label(mode))).collect()/>
            <KeptSort/>
            <button type="submit">"Filter"</button>
        </FilterForm>
    }
}

#[component]
fn GroupTable(page: GroupPage, now_ms: u64) -> impl IntoView {
    let as_of = use_as_of().get_untracked();
    let url = ListUrl::current("/autoscale", &["q", "state", "mode"]).sorted_by_default("name");
    let summary = matching_summary(page.matching, page.total, "groups");
    let header =
        |(key, _, label): (&'static str, GroupSort, &'static str)| url.header(key, label, false);
    let [name, mode, nodes, decision] = GROUP_SORTS;
    view! {
        <p class="muted" id="group-matching" data-matching=page.matching.to_string()>{summary}</p>
        <table tabindex="0" id="group-table">
            <thead><tr>
                {header(name)}{header(mode)}<th>"Application"</th><th>"Limits"</th>
                {header((nodes.0, nodes.1, "Clusters (zone, state, nodes in service)"))}{header(decision)}
            </tr></thead>
            <tbody>
                {(page.total == 0).then(|| view! { <tr><td colspan="6" class="empty">"No autoscale group in this scenario."</td></tr> })}
                {(page.total > 0 && page.matching == 0).then(|| view! { <tr><td colspan="6" class="empty">"No group matches: clear the search or pick another state or mode."</td></tr> })}
                {page.rows.into_iter().map(|g| group_row(g, &as_of)).collect_view()}
            </tbody>
        </table>
        <Pager page=page.page total=u64::from(page.matching) per_page=GROUP_PAGE_SIZE href=url.page_href()/>
        <p class="muted small">{format!("Simulated time {}", sim_time(now_ms))}</p>
    }
}
