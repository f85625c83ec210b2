//! Autoscale, the nodes page: every node of every group's clusters with its lifecycle state,
//! since when, and its addresses, searched by id, IP or group, filtered by state and traffic
//! distribution, sorted and paged on the server. Each row links to its group's page.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::autoscale::autoscale_nodes;
use crate::components::filter_form::{choice, ChoiceFilter, FilterForm, KeptSort};
use crate::components::list_url::{matching_summary, ListUrl};
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::format::sim_time;
use crate::model::autoscale_groups::MODE_KEYS;
use crate::model::node_list::{
    node_state_label, NodePage, NodeRow, NODE_PAGE_SIZE, NODE_SORTS, NODE_STATES,
};
use crate::pages::autoscale::{mode_label, AutoscaleNav};
use crate::pages::Loaded;
use crate::time_travel::{use_as_of, AsOf};

/// The filters a sort or a page keeps.
const FILTERS: [&str; 3] = ["q", "state", "mode"];

/// The nodes page.
#[component]
pub fn AutoscaleNodesPage() -> impl IntoView {
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
    let nodes = answer(
        move || (params.get(), as_of.get()),
        |(((q, state, mode), sort, desc, page), as_of)| {
            autoscale_nodes(q, state, mode, sort, desc, page, as_of.at, as_of.run)
        },
    );
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <Title text="Autoscale nodes"/>
        <LiveRefresh engine="autoscale"/>
        <h1>"Autoscale: nodes"</h1>
        <PageHelp text="Every ADC node of every autoscale group's clusters. A node is provisioning until it is attached, synced and registered, then in service (its IP is in DNS or behind the NLB); a scale-in drains it, and in DNS mode it then waits for the records' TTL before it is removed. Find the nodes draining or waiting, search an IP, or sort by when each entered its state; the group's page has the reason of every scale event."/>
        <AutoscaleNav current="/autoscale/nodes"/>
        <section class="card">
            <FilterForm class="form filters" id="node-filters">
                <label>"Search " <input type="search" name="q" size="20" maxlength="100" placeholder="node, IP or group" value=move || current("q")/></label>
                <ChoiceFilter label="State" name="state" choices=NODE_STATES.into_iter().map(|(key, _, label)| choice(key, label)).collect()/>
                <ChoiceFilter label="Distribution" name="mode" choices=MODE_KEYS.into_iter().map(|(key, mode)| choice(key, mode_label(mode))).collect()/>
                <KeptSort/>
                <button type="submit">"Filter"</button>
            </FilterForm>
            <Loaded of=nodes show=|page| view! { <NodesTable page/> }/>
        </section>
    }
}

/// One row per node.
fn rows(nodes: Vec<NodeRow>, as_of: &AsOf) -> impl IntoView {
    nodes
        .into_iter()
        .map(|r| {
            let group_page = as_of.link(&format!("/autoscale/{}", r.group));
            view! {
                <tr data-node=r.node.id.clone()>
                    <td class="mono">{r.node.id.clone()}</td>
                    <td><a href=group_page>{r.group.clone()}</a>" "<span class="muted small">{mode_label(r.mode)}</span></td>
                    <td class="mono">{r.zone.clone()}</td>
                    <td data-col="state"><span class=format!("badge node-{}", node_state_label(r.node.state).replace(' ', "-"))>{node_state_label(r.node.state)}</span></td>
                    <td data-col="since">{sim_time(r.node.since_ms)}</td>
                    <td class="mono small">{r.node.ip.clone()}{r.node.public_ip.clone().map(|p| format!(" / {p}"))}</td>
                </tr>
            }
        })
        .collect_view()
}

/// The table of one page, its sortable headings and the pager.
#[component]
fn NodesTable(page: NodePage) -> impl IntoView {
    let as_of = use_as_of().get_untracked();
    let url = ListUrl::current("/autoscale/nodes", &FILTERS);
    view! {
        <p class="muted" id="node-matching" data-matching=page.matching.to_string() data-total=page.total.to_string()>
            {matching_summary(page.matching, page.total, "nodes")}
        </p>
        <table tabindex="0" id="nodes-table">
            <thead><tr>
                {NODE_SORTS.into_iter().map(|(key, _, label)| {
                    // The latest change first; the others from the start.
                    url.header(key, label, key == "since")
                }).collect_view()}
                <th>"IP / public IP"</th>
            </tr></thead>
            <tbody>{rows(page.rows, &as_of)}</tbody>
        </table>
        {(page.matching == 0).then(|| view! { <p class="muted" id="node-none">"No node matches: clear the search or pick another state or distribution."</p> })}
        <Pager page=page.page total=u64::from(page.matching) per_page=NODE_PAGE_SIZE href=url.page_href()/>
    }
}
