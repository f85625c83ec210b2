//! Resource locations: one row per RL with its HA state, elected secondary broker, connectors
//! and VDA registrations; the HA badge the overview card shares.

use engine::lhc::{HaState, RlView};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::estate::configured_estate;
use crate::api::lhc::lhc_locations;
use crate::components::charts::state_class;
use crate::components::facts::Facts;
use crate::components::filter_form::{choice, kept_filters, ChoiceFilter, FilterForm, KeptSort};
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::section_tabs::SectionTabs;
use crate::components::sort_header::{sort_header, SortedBy};
use crate::model::rl_list::{RlPage, RL_PAGE_SIZE};
use crate::pages::Loaded;
use crate::time_travel::{use_as_of, AsOf};

/// A state badge.
#[component]
pub fn HaBadge(state: HaState) -> impl IntoView {
    view! { <span class=format!("badge ha {}", state_class(state)) data-state=state.as_str()>{state.label()}</span> }
}

/// The section's tabs.
#[component]
pub fn LhcNav(current: &'static str) -> impl IntoView {
    const TABS: &[(&str, &str)] = &[
        ("/lhc", "Resource locations"),
        ("/lhc/connectors", "Cloud Connectors"),
    ];
    view! { <SectionTabs tabs=TABS current/> }
}

/// One row per resource location; links keep the instant shown (`as_of`).
fn rows(rls: Vec<RlView>, as_of: &AsOf) -> impl IntoView {
    rls.into_iter()
        .map(|rl| {
            let warnings = rl.warnings.iter().map(|w| w.message.clone()).collect::<Vec<_>>();
            view! {
                <tr data-rl=rl.id.clone()>
                    <td><a href=as_of.link(&format!("/lhc/{}", rl.id))>{rl.name.clone()}</a><div class="muted small">{rl.id.clone()}</div></td>
                    <td><HaBadge state=rl.ha_state/></td>
                    <td class="mono">{rl.elected.clone().unwrap_or_else(|| "none".into())}</td>
                    <td class="num">{format!("{}/{}", rl.connectors_up, rl.connectors_total)}</td>
                    <td class="num" data-col="cloud">{rl.on_cloud}</td>
                    <td class="num" data-col="secondary">{rl.on_secondary}</td>
                    <td class="num" data-col="unregistered">{rl.unregistered}</td>
                    <td class="warn-cell">{warnings.into_iter().map(|w| view! { <div>"⚠ " {w}</div> }).collect_view()}</td>
                </tr>
            }
        })
        .collect_view()
}

/// The table's sortable columns: URL key and heading.
const COLUMNS: [(&str, &str); 7] = [
    ("name", "Resource location"),
    ("state", "HA state"),
    ("elected", "Elected secondary broker"),
    ("connectors", "Connectors up"),
    ("cloud", "VDAs on cloud"),
    ("secondary", "on secondary"),
    ("unregistered", "unregistered"),
];

/// The resource locations page.
#[component]
pub fn LhcPage() -> impl IntoView {
    let as_of = use_as_of();
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (
            q.get("q"),
            q.get("state"),
            q.get("sort"),
            q.get("desc").map(|d| d == "1"),
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
        )
    });
    let rls = answer(
        move || (params.get(), as_of.get()),
        |((q, state, sort, desc, page), as_of)| {
            lhc_locations(q, state, sort, desc, page, as_of.at, as_of.run)
        },
    );
    let settings = answer(|| (), |_| configured_estate(engine::EngineId::Lhc));
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <Title text="Resource locations"/>
        <LiveRefresh engine="lhc"/>
        <h1>"Resource locations"</h1>
        <PageHelp text="Every resource location with its Local Host Cache / HA state: Working Normally while the Cloud Connectors reach the cloud, then Pending HA, HA Initial and Extended HA during an outage, and Pending Recovery on the way back. The columns show the elected secondary broker and where the VDAs are registered (cloud, secondary broker, unregistered). A warning means the location is not ready for an outage. Search by name, keep one HA state, or sort by any column: the address keeps the view, to share it."/>
        <LhcNav current="/lhc"/>
        <p class="muted">
            "Local Host Cache / HA mode of Cloud Connectors. The vendor does not publish the durations of Pending HA, HA Initial and Pending Recovery: those defaults are assumed, the others documented (see Settings below)."
        </p>
        <section class="card">
            <FilterForm class="form filters" id="rl-filters">
                <label>"Search " <input type="search" name="q" size="20" maxlength="100" placeholder="name or id" value=move || current("q")/></label>
                <ChoiceFilter label="HA state" name="state" choices=HaState::ALL.into_iter().map(|s| choice(s.as_str(), s.label())).collect()/>
                <KeptSort/>
                <button type="submit">"Filter"</button>
            </FilterForm>
            <Loaded of=rls show=|page| view! { <RlTable page/> }/>
        </section>
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                settings.await.ok().map(|estate| view! { <Facts facts=estate.facts/> })
            })}
        </Suspense>
    }
}

/// The table of one page, its sortable headings and the pager.
#[component]
fn RlTable(page: RlPage) -> impl IntoView {
    let query = use_query_map();
    let as_of = use_as_of().get_untracked();
    let current = move |k: &str| query.read_untracked().get(k).unwrap_or_default();
    let sort = current("sort");
    let desc = current("desc") == "1";
    let filters = kept_filters(&query.read_untracked(), &["q", "state"]) + &as_of.and_params();
    let sort_q = if sort.is_empty() {
        String::new()
    } else {
        format!("&sort={sort}&desc={}", u8::from(desc))
    };
    let pages_q = format!("{sort_q}{filters}");
    let href = move |n: u32| format!("/lhc?page={n}{pages_q}");
    let summary = if page.matching == page.total {
        format!("{} resource locations", page.total)
    } else {
        format!(
            "{} of {} resource locations match",
            page.matching, page.total
        )
    };
    view! {
        <p class="muted" id="rl-matching" data-matching=page.matching.to_string() data-total=page.total.to_string()>{summary}</p>
        <table tabindex="0" id="rl-table">
            <thead><tr>
                {COLUMNS.into_iter().map(|(key, label)| {
                    // The first click sorts the worst or the most first where that is what
                    // an operator looks for.
                    let first_desc = matches!(key, "secondary" | "unregistered");
                    let now = SortedBy { key: &sort, desc };
                    sort_header(key, label, now, first_desc, |key, desc| {
                        format!("/lhc?sort={key}&desc={}{filters}", u8::from(desc))
                    })
                }).collect_view()}
                <th>"Warnings"</th>
            </tr></thead>
            <tbody>{rows(page.rows, &as_of)}</tbody>
        </table>
        {(page.matching == 0).then(|| view! { <p class="muted" id="rl-none">"No resource location matches: clear the search or pick another HA state."</p> })}
        <Pager page=page.page total=u64::from(page.matching) per_page=RL_PAGE_SIZE href/>
    }
}
