//! The audit log (admin): every mutating action with who, when and the outcome, filtered by
//! user, action and outcome, sorted by any column but the arguments and paged on the
//! server.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::admin::{audit_entries, AUDIT_OUTCOMES};
use crate::components::event_words::arguments_in_words;
use crate::components::filter_form::{choice, kept_filters, ChoiceFilter, FilterForm};
use crate::components::list_url::matching_summary;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::raw_json::{JsonSource, RawJson};
use crate::components::sort_header::{sort_header, SortedBy};
use crate::model::AuditPage as LogPage;
use crate::pages::Loaded;

/// The filters a page of the log keeps.
const FILTERS: [&str; 5] = ["user", "action", "outcome", "sort", "order"];

/// The audit page.
#[component]
pub fn AuditPage() -> impl IntoView {
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
            (q.get("user"), q.get("action")),
            (q.get("outcome"), q.get("sort"), q.get("order")),
        )
    });
    let page = answer(
        move || params.get(),
        |(page, (user, action), (outcome, sort, order))| {
            audit_entries(page, user, action, outcome, sort, order)
        },
    );
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <Title text="Audit"/>
        <h1>"Audit log"</h1>
        <PageHelp text="Every action a person took in the console, newest first (click a column's name to sort by it): who, when (wall-clock time), what and with which values, and whether it was accepted. Clock changes, forced outages, evaluator edits, topology imports, alert acknowledgements and account changes are all here; filter by user, by the start of the action's name (lhc. for the resource locations' actions) or by outcome, or read it oldest first."/>
        <section class="card">
            <FilterForm class="form filters" id="audit-filters">
                <label>"User " <input type="search" name="user" size="12" maxlength="100" placeholder="user name" value=move || current("user")/></label>
                <label>"Action starts with " <input type="search" name="action" size="16" maxlength="100" placeholder="lhc. or clock.set_speed" value=move || current("action")/></label>
                <ChoiceFilter label="Outcome" name="outcome" choices=AUDIT_OUTCOMES.into_iter().map(|(key, _)| choice(key, if key == "ok" { "accepted" } else { "refused" })).collect()/>
                <input type="hidden" name="sort" value=move || current("sort")/>
                <ChoiceFilter label="Order" name="order" any="newest first" choices=vec![choice("oldest", "oldest first")]/>
                <button type="submit">"Filter"</button>
            </FilterForm>
            <Loaded of=page show=|p| view! { <AuditTable page=p/> }/>
        </section>
    }
}

/// One page of the log and its pager (which keeps the filters).
#[component]
fn AuditTable(page: LogPage) -> impl IntoView {
    let query = use_query_map();
    let filters = kept_filters(&query.read_untracked(), &FILTERS);
    let href = move |n: u32| format!("/audit?page={n}{filters}");
    let head = {
        let q = query.read_untracked();
        let sort = q.get("sort").unwrap_or_default();
        let now = SortedBy {
            key: if sort.is_empty() { "time" } else { &sort },
            desc: q.get("order").as_deref() != Some("oldest"),
        };
        // A new order keeps the filters and starts at the first page.
        let filters = kept_filters(&q, &["user", "action", "outcome"]);
        let header = |key: &'static str, label: &'static str| {
            sort_header(key, label, now, key == "time", |key, desc| {
                let order = if desc { "newest" } else { "oldest" };
                format!("/audit?sort={key}&order={order}{filters}")
            })
        };
        view! {
            {header("time", "When (UTC)")}
            {header("actor", "Who")}
            {header("action", "Action")}
            <th>"Arguments"</th>
            {header("outcome", "Outcome")}
        }
    };
    let matching = u32::try_from(page.matching).unwrap_or(u32::MAX);
    let total = u32::try_from(page.total).unwrap_or(u32::MAX);
    view! {
        <p class="muted" id="audit-matching" data-matching=page.matching.to_string() data-total=page.total.to_string()>
            {matching_summary(matching, total, "actions")}
        </p>
        <table tabindex="0" class="audit" id="audit-table">
            <thead><tr>{head}</tr></thead>
            <tbody>
                {page.rows.into_iter().map(|r| {
                    let refused = r.outcome != "ok";
                    view! {
                        <tr>
                            <td class="mono">{r.at}</td>
                            <td data-col="actor">{r.actor}</td>
                            <td data-col="action">{r.action}</td>
                            <td class="details" data-col="arguments">
                                <span class="why">{arguments_in_words(&r.arguments)}</span>
                                <RawJson source=JsonSource::Audit(r.id)/>
                            </td>
                            <td class:refused=refused data-col="outcome">{r.outcome}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        {(page.matching == 0).then(|| view! { <p class="muted" id="audit-none">"No action matches: clear a filter."</p> })}
        <Pager page=page.page total=page.matching per_page=page.per_page href/>
    }
}
