//! The dynamic store as the data collectors hold it, in the product's own notation: the load
//! table (`LMS_ServerLoadTable`: hex `Load`, `RuleLoads`, `LTLoad`, `LoadBias`), the
//! connected and disconnected session tables, and a `qfarm /load`-style list. The load table
//! is searched by host, filtered by zone, sorted by any column and paged on the server.

use engine::lms::views::SessionPage;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::lms::{lms_store, LOAD_TABLE_PAGE_SIZE, SESSION_PAGE_SIZE};
use crate::components::filter_form::{kept_filters, FilterForm};
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::sort_header::{sort_header, SortedBy};
use crate::erase::Erase;
use crate::format::sim_time;
use crate::model::lms::DynamicStore;
use crate::model::load_table::LoadTableSort;
use crate::pages::lms::LmsNav;
use crate::pages::lms_formula_audit::FormulaAuditCard;
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The dynamic store page.
#[component]
pub fn LmsStorePage() -> impl IntoView {
    let query = use_query_map();
    let pages = Memo::new(move |_| {
        let q = query.read();
        let n = |k: &str| q.get(k).and_then(|p| p.parse::<u32>().ok());
        (n("cpage"), n("dpage"), n("page"))
    });
    let search = Memo::new(move |_| {
        let q = query.read();
        (
            q.get("q"),
            q.get("zone"),
            q.get("lsort"),
            q.get("ldesc").map(|d| d == "1"),
        )
    });
    let sessions = Memo::new(move |_| {
        let q = query.read();
        (
            q.get("user"),
            q.get("ssort"),
            q.get("sdesc").map(|d| d == "1"),
        )
    });
    let as_of = use_as_of();
    let store = answer(
        move || (pages.get(), search.get(), sessions.get(), as_of.get()),
        |((c, d, page), (q, zone, lsort, ldesc), (user, ssort, sdesc), as_of)| {
            lms_store(
                c, d, user, ssort, sdesc, q, zone, lsort, ldesc, page, as_of.at, as_of.run,
            )
        },
    );
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <Title text="Dynamic store"/>
        <LiveRefresh engine="lms"/>
        <h1>"Dynamic store"</h1>
        <PageHelp text="The dynamic store as the zone data collectors hold it: per server, the load index the farm uses to place sessions, and, side by side, the same index under the older and newer load formulas with the placements each would make."/>
        <LmsNav current="/lms/store"/>
        <p class="muted">"In-memory tables of the zone data collectors (never written to the data store). Load values are the collectors' view, in hexadecimal as the product shows them; RuleLoads gives each rule's load / 100 in hex, rounded (the engine keeps full precision)."</p>
        <FilterForm class="form filters" id="load-table-filters">
            <label>"Server " <input type="search" name="q" size="16" maxlength="100" placeholder="host name contains" value=move || current("q")/></label>
            <label>"Zone " <input type="text" name="zone" size="8" placeholder="zone id" value=move || current("zone")/></label>
            // The load table's order and the session tables' view stay.
            {["lsort", "ldesc"].map(|k| view! { <input type="hidden" name=k value=move || current(k)/> })}
            {SESSION_KEYS.map(|k| view! { <input type="hidden" name=k value=move || current(k)/> })}
            <button type="submit">"Filter"</button>
        </FilterForm>
        // Each part is a boundary of its own on the one answer: a live refresh (at most once
        // a second while the farm changes) builds the tables again, never the session search
        // the viewer may be typing in, nor the formula audit card.
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match store.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(s) => view! { <LoadTable store=s page=pages.get_untracked().2/> }.erase(),
                }
            })}
        </Transition>
        <div class="grid">
            <section class="card">
                <h2>"qfarm /load"</h2>
                <Transition fallback=|| ()>
                    {move || Suspend::new(async move {
                        store.await.ok().map(|s| view! { <pre id="qfarm">{qfarm_text(&s.qfarm)}</pre> })
                    })}
                </Transition>
            </section>
            <section class="card" id="session-tables">
                <SessionFilters/>
                <Transition fallback=|| ()>
                    {move || Suspend::new(async move {
                        store.await.ok().map(|s| {
                            let (cpage, dpage, _) = pages.get_untracked();
                            view! { <SessionTables connected=s.connected disconnected=s.disconnected cpage dpage/> }
                        })
                    })}
                </Transition>
            </section>
        </div>
        <FormulaAuditCard/>
    }
}

/// The load table's card: its page of rows, sorted by the column the URL names.
#[component]
fn LoadTable(store: DynamicStore, page: Option<u32>) -> impl IntoView {
    let query = use_query_map();
    let DynamicStore {
        load_table,
        load_table_matching,
        now_ms,
        ..
    } = store;
    let page = page.unwrap_or(1).max(1);
    let filters = kept_filters(&query.read_untracked(), &["q", "zone"]);
    let order = kept_filters(&query.read_untracked(), &["lsort", "ldesc"]);
    let sessions_kept = kept_filters(&query.read_untracked(), &SESSION_KEYS);
    let href = {
        let (filters, sessions_kept) = (filters.clone(), sessions_kept.clone());
        move |n: u32| format!("/lms/store?page={n}{filters}{order}{sessions_kept}")
    };
    let header = {
        let q = query.read_untracked();
        let sort = q.get("lsort").unwrap_or_default();
        let now = SortedBy {
            key: if sort.is_empty() { "name" } else { &sort },
            desc: q.get("ldesc").as_deref() == Some("1"),
        };
        // A new order starts the table at its first page.
        LoadTableSort::ALL
            .map(|(column, key, label)| {
                sort_header(key, label, now, column.desc_first(), |key, desc| {
                    format!(
                        "/lms/store?lsort={key}&ldesc={}{filters}{sessions_kept}",
                        u8::from(desc)
                    )
                })
            })
            .collect_view()
    };
    view! {
        <section class="card">
            <h2>{format!("LMS_ServerLoadTable at {}", sim_time(now_ms))}</h2>
            <p class="muted" id="load-table-matching" data-matching=load_table_matching.to_string()>{format!("{load_table_matching} server(s)")}</p>
            <table tabindex="0" id="load-table" class="mono">
                <thead><tr>{header}</tr></thead>
                <tbody>
                    {load_table.into_iter().map(|r| view! {
                        <tr data-server=r.host.clone()>
                            <td>{r.name}</td><td>{r.host.clone()}</td><td>{r.zone}</td><td data-col="load">{r.load}</td>
                            <td>{r.real_time_rules}</td><td>{r.load_bias}</td><td>{r.lt_load}</td><td>{r.lt_multiplier}</td>
                            <td data-col="rule_loads">{r.rule_loads}</td><td>{r.protocol_mask}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <Pager page total=u64::from(load_table_matching) per_page=LOAD_TABLE_PAGE_SIZE href/>
        </section>
    }
}

/// The `qfarm /load` text of the load table's page.
fn qfarm_text(qfarm: &[(String, Option<u32>)]) -> String {
    let mut text = format!(
        "{:<24}{}\n{:<24}{}\n",
        "Server Name",
        "Server Load",
        "-".repeat(22),
        "-".repeat(11)
    );
    for (host, load) in qfarm {
        let load = load.map_or_else(|| "unknown".to_owned(), |l| l.to_string());
        text.push_str(&format!("{host:<24}{load}\n"));
    }
    text
}

/// The connected and disconnected session tables, each at its page.
#[component]
fn SessionTables(
    connected: SessionPage,
    disconnected: SessionPage,
    cpage: Option<u32>,
    dpage: Option<u32>,
) -> impl IntoView {
    let (cpage, dpage) = (cpage.unwrap_or(1).max(1), dpage.unwrap_or(1).max(1));
    view! {
        <h2>{format!("Connected sessions ({})", connected.total)}</h2>
        <Sessions page=connected number=cpage param="cpage" id="connected-sessions"/>
        <h2 class="spaced">{format!("Disconnected sessions ({})", disconnected.total)}</h2>
        <Sessions page=disconnected number=dpage param="dpage" id="disconnected-sessions"/>
    }
}

/// The session tables' search, order and pages in the URL (`user`, `ssort`, `sdesc`, and each
/// table's page); the load table's filters keep them.
const SESSION_KEYS: [&str; 5] = ["user", "ssort", "sdesc", "cpage", "dpage"];

/// The session tables' search by user (the order is kept).
#[component]
fn SessionFilters() -> impl IntoView {
    let query = use_query_map();
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <FilterForm class="form filters" id="session-filters">
            <label>"User " <input type="search" name="user" size="14" maxlength="100" placeholder="user name contains" value=move || current("user")/></label>
            {["ssort", "sdesc", "q", "zone", "lsort", "ldesc", "page"].map(|k| view! { <input type="hidden" name=k value=move || current(k)/> })}
            <button type="submit">"Find"</button>
        </FilterForm>
    }
}

#[component]
fn Sessions(
    page: SessionPage,
    number: u32,
    param: &'static str,
    id: &'static str,
) -> impl IntoView {
    let query = use_query_map();
    let q = query.read_untracked();
    let sort = q.get("ssort").unwrap_or_default();
    let desc = q.get("sdesc").as_deref() == Some("1");
    // Everything but this table's page and the order, which the links set.
    let others: Vec<&str> = [
        "user", "cpage", "dpage", "q", "zone", "lsort", "ldesc", "page",
    ]
    .into_iter()
    .filter(|k| *k != param)
    .collect();
    let kept = kept_filters(&q, &others);
    let order = kept_filters(&q, &["ssort", "sdesc"]);
    // A new order applies to both session tables, so it starts both at their first page.
    let unpaged = kept_filters(&q, &["user", "q", "zone", "lsort", "ldesc", "page"]);
    let href = {
        let kept = kept.clone();
        move |n: u32| format!("/lms/store?{param}={n}{kept}{order}")
    };
    let header = move |key: &'static str, label: &'static str| {
        let now = SortedBy {
            key: if sort.is_empty() { "user" } else { &sort },
            desc,
        };
        sort_header(key, label, now, false, |key, desc| {
            format!("/lms/store?ssort={key}&sdesc={}{unpaged}", u8::from(desc))
        })
    };
    view! {
        <table tabindex="0" class="mono" id=id>
            <thead><tr>
                {header("user", "User")}{header("server", "Server")}{header("app", "Application")}{header("client", "Client")}{header("since", "Since")}
            </tr></thead>
            <tbody>
                {page.rows.into_iter().map(|s| view! {
                    <tr data-user=s.user.clone()><td>{s.user.clone()}</td><td>{s.server}</td><td>{s.app}</td><td>{s.client_ip}</td><td data-col="since" data-t-ms=s.since_ms.to_string()>{sim_time(s.since_ms)}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
        <Pager page=number total=u64::from(page.total) per_page=SESSION_PAGE_SIZE href/>
    }
}
