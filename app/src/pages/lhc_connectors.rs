//! Cloud Connectors: every connector of every resource location with its power, cloud link,
//! HA state, election rank and the registrations its secondary broker holds, searched,
//! filtered, sorted and paged on the server. Each row links to its resource location's page,
//! where the connector is acted on.

use engine::lhc::{ConnectorView, HaState, Power};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::lhc::lhc_connectors;
use crate::components::filter_form::{choice, ChoiceFilter, FilterForm, KeptSort};
use crate::components::list_url::{matching_summary, ListUrl};
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::erase::Erase;
use crate::format::sim_time;
use crate::model::connector_list::{
    ConnectorPage, CONNECTOR_PAGE_SIZE, CONNECTOR_SORTS, POWER_KEYS, ROLE_KEYS,
};
use crate::pages::lhc::{HaBadge, LhcNav};
use crate::pages::Loaded;
use crate::time_travel::{use_as_of, AsOf};

/// The filters a sort or a page keeps.
const FILTERS: [&str; 4] = ["q", "state", "power", "role"];

/// The Cloud Connectors page.
#[component]
pub fn LhcConnectorsPage() -> impl IntoView {
    let as_of = use_as_of();
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (
            (q.get("q"), q.get("state"), q.get("power"), q.get("role")),
            q.get("sort"),
            q.get("desc").map(|d| d == "1"),
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
        )
    });
    let connectors = answer(
        move || (params.get(), as_of.get()),
        |(((q, state, power, role), sort, desc, page), as_of)| {
            lhc_connectors(q, state, power, role, sort, desc, page, as_of.at, as_of.run)
        },
    );
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <Title text="Cloud Connectors"/>
        <LiveRefresh engine="lhc"/>
        <h1>"Cloud Connectors"</h1>
        <PageHelp text="Every Cloud Connector of every resource location. A connector that StoreFront lists as a Delivery Controller watches the cloud and moves through the HA states; in each resource location the connectors are ranked and the first is elected secondary broker, which registers the VDAs during an outage. Find the connectors that are down, in Extended HA or elected, or sort by the registrations they hold; the resource location's page acts on them."/>
        <LhcNav current="/lhc/connectors"/>
        <section class="card">
            <FilterForm class="form filters" id="connector-filters">
                <label>"Search " <input type="search" name="q" size="20" maxlength="100" placeholder="FQDN or resource location" value=move || current("q")/></label>
                <ChoiceFilter label="HA state" name="state" choices=HaState::ALL.into_iter().map(|s| choice(s.as_str(), s.label())).chain([choice("no_detection", "no HA detection")]).collect()/>
                <ChoiceFilter label="Power" name="power" choices=POWER_KEYS.into_iter().map(|(key, _)| choice(key, key)).collect()/>
                <ChoiceFilter label="Election" name="role" choices=ROLE_KEYS.into_iter().map(|(key, _, label)| choice(key, label)).collect()/>
                <KeptSort/>
                <button type="submit">"Filter"</button>
            </FilterForm>
            <Loaded of=connectors show=|page| view! { <ConnectorsTable page/> }/>
        </section>
    }
}

/// A connector's power in words.
fn power_text(power: Power) -> String {
    match power {
        Power::Up => "up".to_owned(),
        Power::Restarting { until_ms } => format!("restarting until {}", sim_time(until_ms)),
        Power::Down => "down".to_owned(),
    }
}

/// The link to the cloud in words.
fn cloud_link_text(c: &ConnectorView) -> &'static str {
    if !c.cloud_link_up {
        "cut"
    } else if c.cloud_lost {
        "lost"
    } else {
        "up"
    }
}

/// One row per connector.
fn rows(connectors: Vec<ConnectorView>, as_of: &AsOf) -> impl IntoView {
    connectors
        .into_iter()
        .map(|c| {
            let rl_page = as_of.link(&format!("/lhc/{}", c.resource_location));
            let rank = c.election_rank.map_or_else(|| "—".to_owned(), |r| r.to_string());
            view! {
                <tr data-connector=c.fqdn.clone() class:elected=c.elected>
                    <td class="mono">{c.fqdn.clone()}{c.elected.then_some(" ★")}</td>
                    <td><a href=rl_page>{c.resource_location.clone()}</a></td>
                    <td data-col="power">{power_text(c.power)}</td>
                    <td data-col="state">
                        {c.ha_state.map(|s| view! { <HaBadge state=s/> }.erase()).unwrap_or_else(|| view! { <span class="muted">"no HA detection"</span> }.erase())}
                        {(!c.failed_checks.is_empty()).then(|| view! { <div class="muted small">{c.failed_checks.join(", ")}</div> })}
                    </td>
                    <td class="num" data-col="rank">
                        {rank}{c.elected.then_some(" (elected)")}
                        {c.excluded_because.clone().map(|w| view! { <div class="muted small">{w}</div> })}
                    </td>
                    <td class="num" data-col="registrations">{c.registrations}</td>
                    <td>{cloud_link_text(&c)}{c.forced_outage.then_some(", outage forced")}</td>
                </tr>
            }
        })
        .collect_view()
}

/// The table of one page, its sortable headings and the pager.
#[component]
fn ConnectorsTable(page: ConnectorPage) -> impl IntoView {
    let as_of = use_as_of().get_untracked();
    let url = ListUrl::current("/lhc/connectors", &FILTERS);
    view! {
        <p class="muted" id="connector-matching" data-matching=page.matching.to_string() data-total=page.total.to_string()>
            {matching_summary(page.matching, page.total, "Cloud Connectors")}
        </p>
        <table tabindex="0" id="connectors-table">
            <thead><tr>
                {CONNECTOR_SORTS.into_iter().map(|(key, _, label)| {
                    // The most registrations first; the others from the start (HA state and
                    // power: the worst first).
                    url.header(key, label, key == "registrations")
                }).collect_view()}
                <th>"Cloud link"</th>
            </tr></thead>
            <tbody>{rows(page.rows, &as_of)}</tbody>
        </table>
        {(page.matching == 0).then(|| view! { <p class="muted" id="connector-none">"No Cloud Connector matches: clear the search or pick other filters."</p> })}
        <Pager page=page.page total=u64::from(page.matching) per_page=CONNECTOR_PAGE_SIZE href=url.page_href()/>
    }
}
