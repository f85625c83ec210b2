//! Load management, the farm page: settings (documented or assumed), zones with their data
//! collector, applications, operator actions, and the servers table (sortable, paged on the
//! server). Also the sub-navigation of the section.

use engine::lms::views::{FarmView, ServerBand, ServerPage, ServerPower, ServerView};
use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::lms::{lms_farm, lms_servers, LmsAct, LmsActInput, LmsSettings, SERVER_PAGE_SIZE};
use crate::components::act::{Act, ActForm};
use crate::components::confirm::ConfirmButton;
use crate::components::facts::Facts;
use crate::components::filter_form::{choice, kept_filters, ChoiceFilter, FilterForm, KeptSort};
use crate::components::layout::user_allows;
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::section_tabs::SectionTabs;
use crate::components::sort_header::{sort_header, SortedBy};
use crate::erase::Erase;
use crate::format::sim_time;
use crate::model::lms::FarmPage;
use crate::model::overview::UP_BAND_LABELS;
use crate::pages::{LoadError, Loaded};
use crate::time_travel::use_as_of;

/// The section's tabs.
#[component]
pub fn LmsNav(current: &'static str) -> impl IntoView {
    const TABS: &[(&str, &str)] = &[
        ("/lms", "Farm"),
        ("/lms/store", "Dynamic store"),
        ("/lms/evaluators", "Load evaluators"),
        ("/lms/black-hole", "Black-hole A/B"),
    ];
    view! { <SectionTabs tabs=TABS current/> }
}

/// `12 s`, `3 min`, `2 h` since `then_ms`.
pub fn age(now_ms: u64, then_ms: Option<u64>) -> String {
    match then_ms {
        None => "never".to_owned(),
        Some(t) => {
            let s = now_ms.saturating_sub(t) / 1000;
            match s {
                0..=119 => format!("{s} s ago"),
                120..=7_199 => format!("{} min ago", s / 60),
                _ => format!("{} h ago", s / 3600),
            }
        }
    }
}

/// A power badge.
pub fn power_label(power: ServerPower) -> &'static str {
    match power {
        ServerPower::Up => "up",
        ServerPower::Starting => "starting",
        ServerPower::Down => "down",
    }
}

/// The farm page.
#[component]
pub fn LmsPage() -> impl IntoView {
    let as_of = use_as_of();
    let farm = answer(move || as_of.get(), |as_of| lms_farm(as_of.at, as_of.run));
    view! {
        <Title text="Load management"/>
        <LiveRefresh engine="lms"/>
        <h1>"Load management"</h1>
        <PageHelp text="Load management across zones: each zone's data collector and the order of the next ones, its servers with their load index (0 to 10000, 10000 meaning full), sessions, and the applications published on them. An operator can kill a data collector and watch the zone elect the next one."/>
        <LmsNav current="/lms"/>
        <p class="muted">
            "Zones and zone data collectors, load evaluators, the load index and least-loaded placement. Placement uses the data collectors' view, which lags the servers' true load between pushes."
        </p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let can_act = user_allows(Role::Operator).await;
                let is_admin = user_allows(Role::Admin).await;
                match farm.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(page) => view! { <Farm page can_act is_admin/> }.erase(),
                }
            })}
        </Transition>
        <Servers/>
    }
}

#[component]
fn Farm(page: FarmPage, can_act: bool, is_admin: bool) -> impl IntoView {
    let FarmPage {
        farm,
        ranking_more,
        now_ms,
    } = page;
    let FarmView {
        formula,
        black_hole_fix,
        settings: facts,
        throttle_levels,
        zones,
        servers_total,
        servers_up,
        servers_starting,
        sessions_connected,
        sessions_disconnected,
        placements,
        rejected,
        storm_pending,
        applications,
    } = farm;
    let apps: Vec<String> = applications.iter().map(|a| a.name.clone()).collect();
    let mut fact_rows: Vec<(String, String)> = facts
        .into_iter()
        .map(|s| (s.label, format!("{} ({})", s.value, s.source)))
        .collect();
    fact_rows.extend(throttle_levels.into_iter().map(|(level, load)| {
        (
            format!(
                "Load throttling, {} (per logon)",
                serde_json::to_value(level)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            ),
            format!("{load} (assumed: the vendor does not publish the numbers)"),
        )
    }));
    let formula_text = serde_json::to_value(formula)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    // Each part is type-erased (`into_any`): one nested view type for the whole farm would be
    // too deep for the compiler's query limit in the crates that build the router.
    let summary = view! {
            <section class="card" id="farm-summary">
                <h2>"Farm"</h2>
                <table tabindex="0" class="counts">
                    <tbody>
                        <tr><th>"Simulated time"</th><td>{sim_time(now_ms)}</td></tr>
                        <tr><th>"Servers up / starting / total"</th><td class="num" id="servers-up">{format!("{servers_up} / {servers_starting} / {servers_total}")}</td></tr>
                        <tr><th>"Sessions connected / disconnected"</th><td class="num" id="farm-sessions">{format!("{sessions_connected} / {sessions_disconnected}")}</td></tr>
                        <tr><th>"Launches placed / refused"</th><td class="num" id="farm-placements">{format!("{placements} / {rejected}")}</td></tr>
                        <tr><th>"Storm logons still to come"</th><td class="num">{storm_pending}</td></tr>
                        <tr><th>"Load-index formula"</th><td id="farm-formula">{if formula_text == "sum" { "max + 5 % × sum of the others (seed 004)" } else { "max + 5 % × average of the others (7.x)" }}</td></tr>
                        <tr><th>"Black-hole fix"</th><td id="farm-fix">{if black_hole_fix { "on: a starting server reports 10000" } else { "off: a starting server reports 0" }}</td></tr>
                    </tbody>
                </table>
                {is_admin.then(|| view! { <SettingsForm fix=black_hole_fix formula=formula_text.clone()/> })}
            </section>
    }
    .erase();
    let zones = view! {
            <section class="card">
                <h2>"Zones and data collectors"</h2>
                <table tabindex="0" id="zone-table">
                    <thead><tr><th>"Zone"</th><th>"Data collector"</th><th>"Election ranking"</th><th>"Servers up"</th><th>"Sessions"</th>{can_act.then(|| view! { <th></th> })}</tr></thead>
                    <tbody>
                        {zones.into_iter().zip(ranking_more.into_iter().chain(std::iter::repeat(0))).map(|(z, more)| {
                            let id = z.id.clone();
                            let has_dc = z.collector.is_some();
                            view! {
                                <tr data-zone=z.id.clone()>
                                    <td>{z.name.clone()}<div class="muted small">{z.id.clone()}</div></td>
                                    <td class="mono" data-col="collector">{z.collector.clone().unwrap_or_else(|| "none".into())}</td>
                                    <td class="small">{z.ranking.join(" > ")}{(more > 0).then(|| view! { <span class="muted">{format!(" > … {more} more")}</span> })}</td>
                                    <td class="num">{format!("{}/{}", z.servers_up, z.servers)}</td>
                                    <td class="num">{z.sessions}</td>
                                    {can_act.then(|| view! {
                                        <td>
                                            <ConfirmButton
                                                label="Kill data collector"
                                                aria_label=format!("Kill data collector of {}", z.name)
                                                confirm="Kill data collector"
                                                consequence=format!(
                                                    "Kill the data collector of {} ({}): that server reboots (every session on it ends; down for the reboot time, 60 s by default, then starting for 3 m) and the zone elects the next server of the ranking at once.",
                                                    z.name, z.collector.clone().unwrap_or_default(),
                                                )
                                                not_now=(!has_dc).then(|| "No data collector is elected in this zone.".to_owned())
                                                act=Act::of(&LmsAct { input: LmsActInput { op: "kill_collector".into(), zone: id.clone(), ..LmsActInput::default() } })
                                            />
                                        </td>
                                    })}
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                <h2 class="spaced">"Published applications"</h2>
                <table tabindex="0" id="app-table">
                    <thead><tr><th>"Application"</th><th>"Evaluator"</th><th>"Servers"</th><th>"Sessions"</th></tr></thead>
                    <tbody>
                        {applications.into_iter().map(|a| view! {
                            <tr><td>{a.name}</td><td>{a.evaluator.unwrap_or_else(|| "—".into())}</td><td class="num">{a.servers}</td><td class="num">{a.sessions}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
    }
    .erase();
    view! {
        <div class="grid">{summary}{zones}</div>
        {can_act.then(|| view! { <StormForm apps/> })}
        <Facts facts=fact_rows/>
    }
}

#[component]
fn SettingsForm(fix: bool, formula: String) -> impl IntoView {
    let sum = formula == "sum";
    view! {
        <ActForm path=LmsSettings::PATH class="controls" id="farm-settings" error_id="settings-error">
            <label>"Black-hole fix "
                <select name="black_hole_fix">
                    <option value="on" selected=fix>"on"</option>
                    <option value="off" selected=!fix>"off"</option>
                </select>
            </label>
            <label>"Formula "
                <select name="formula">
                    <option value="sum" selected=sum>"sum (seed)"</option>
                    <option value="average" selected=!sum>"average (7.x)"</option>
                </select>
            </label>
            <button type="submit">"Apply settings"</button>
        </ActForm>
    }
}

#[component]
fn StormForm(apps: Vec<String>) -> impl IntoView {
    let options = apps.clone();
    view! {
        <section class="card" id="lms-actions">
            <h2>"Operator actions"</h2>
            <ActForm path=LmsAct::PATH class="controls" id="storm-form" error_id="action-error">
                <input type="hidden" name="input[op]" value="logon_storm"/>
                <label>"Logon storm: " <input type="number" min="1" max="100000" size="6" name="input[count]" value="50"/> " users"</label>
                <label>" over " <input type="text" size="5" name="input[over]" value="5m"/></label>
                <label>" launching "
                    <select name="input[app]">
                        <option value="">"any application (drawn per user)"</option>
                        {options.into_iter().map(|a| view! { <option value=a.clone()>{a.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button type="submit" id="storm-start">"Start storm"</button>
            </ActForm>
            <ActForm path=LmsAct::PATH class="controls" id="launch-form">
                <input type="hidden" name="input[op]" value="app_launch"/>
                <label>"Launch as user " <input type="text" size="12" placeholder="(you)" name="input[user]"/></label>
                <label>" application "
                    <select name="input[app]">
                        {apps.into_iter().map(|a| view! { <option value=a.clone()>{a.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button type="submit">"Launch"</button>
            </ActForm>
            <p class="muted small">"A launch reconnects the user to a disconnected session first; otherwise the data collectors pick the least-loaded server that publishes the application, lets the client's address in and is below 10000. Reboots, spikes and disconnections are on each server's page."</p>
        </section>
    }
}

/// The band filter's choices, by URL key (`band=band_4`): the overview's tiles.
fn band_choices() -> Vec<(String, String)> {
    std::iter::once(choice(ServerBand::NotUp.key(), "not up (down or starting)"))
        .chain(
            UP_BAND_LABELS
                .iter()
                .enumerate()
                .map(|(i, label)| choice(ServerBand::Up(i).key(), *label)),
        )
        .collect()
}

const SORTS: [(&str, &str); 7] = [
    ("host_id", "Id"),
    ("host", "Server"),
    ("zone", "Zone"),
    ("load", "Load index"),
    ("dc_load", "DC view"),
    ("sessions", "Sessions"),
    ("evaluator", "Evaluator"),
];

#[component]
fn Servers() -> impl IntoView {
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (
            (q.get("q"), q.get("zone"), q.get("band")),
            q.get("sort"),
            q.get("desc").map(|d| d == "1"),
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
        )
    });
    let as_of = use_as_of();
    let page = answer(
        move || (params.get(), as_of.get()),
        |(((search, zone, band), sort, desc, page), as_of)| {
            lms_servers(search, zone, band, sort, desc, page, as_of.at, as_of.run)
        },
    );
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <section class="card">
            <h2>"Servers"</h2>
            <FilterForm class="form filters" id="server-filters">
                <label>"Search " <input type="search" name="q" size="16" maxlength="100" placeholder="host name" value=move || current("q")/></label>
                <label>"Zone " <input type="text" name="zone" size="10" maxlength="100" placeholder="zone id" value=move || current("zone")/></label>
                <ChoiceFilter label="Load" name="band" choices=band_choices()/>
                <KeptSort/>
                <button type="submit">"Filter"</button>
            </FilterForm>
            <Loaded of=page show=|t| view! { <ServerRows page=t.page now_ms=t.now_ms/> }/>
        </section>
    }
}

/// Rule loads as `code value` pairs (full precision rounded to 0.1 for display).
pub fn rule_loads_text(server: &ServerView) -> String {
    server
        .rule_loads
        .iter()
        .map(|r| format!("{}:{:.1}", r.code, r.load))
        .collect::<Vec<_>>()
        .join(" ")
}

#[component]
fn ServerRows(page: ServerPage, now_ms: u64) -> impl IntoView {
    let query = use_query_map();
    let as_of = use_as_of().get_untracked();
    let keep = as_of.and_params();
    let current = move |k: &str| query.read_untracked().get(k).unwrap_or_default();
    let sort = current("sort");
    let desc = current("desc") == "1";
    let number = current("page").parse::<u32>().unwrap_or(1).max(1);
    let filters = kept_filters(&query.read_untracked(), &["q", "zone", "band"]) + &keep;
    let sort_q = format!(
        "sort={}&desc={}",
        if sort.is_empty() { "host_id" } else { &sort },
        u8::from(desc)
    );
    let page_filters = filters.clone();
    let href = move |n: u32| format!("/lms?{sort_q}{page_filters}&page={n}");
    view! {
        <p class="muted" id="server-total" data-total=page.total.to_string()>{format!("{} servers", page.total)}</p>
        <table tabindex="0" id="server-table">
            <thead><tr>
                {SORTS.into_iter().map(|(key, label)| {
                    let now = SortedBy { key: if sort.is_empty() { "host_id" } else { &sort }, desc };
                    sort_header(key, label, now, false, |key, desc| {
                        format!("/lms?sort={key}&desc={}{filters}", u8::from(desc))
                    })
                }).collect_view()}
                <th>"%"</th><th>"hex"</th><th>"Rule loads"</th><th>"Power"</th><th>"DC view age"</th><th>"LoadBias"</th>
            </tr></thead>
            <tbody>
                {page.rows.into_iter().map(|s| {
                    let rules = rule_loads_text(&s);
                    view! {
                        <tr data-server=s.host.clone() class:collector=s.collector>
                            <td class="num">{s.host_id}</td>
                            <td class="mono"><a href=as_of.link(&format!("/lms/servers/{}", s.host))>{s.host.clone()}</a>{s.collector.then_some(" (DC)")}</td>
                            <td>{s.zone.clone()}</td>
                            <td class="num" data-col="load">{s.load}</td>
                            <td class="num" data-col="dc_load">{s.dc_load.map(|l| l.to_string()).unwrap_or_else(|| "—".into())}</td>
                            <td class="num" data-col="sessions">{format!("{} + {}", s.connected, s.disconnected)}</td>
                            <td>{s.evaluator.clone()}</td>
                            <td class="num">{format!("{:.2} %", f64::from(s.load) / 100.0)}</td>
                            <td class="mono">{format!("{:x}", s.load)}</td>
                            <td class="mono small">{rules}</td>
                            <td>{power_label(s.power)}</td>
                            <td class="small" data-col="dc_age" title=s.dc_updated_ms.map(|t| format!("updated at {}", sim_time(t))).unwrap_or_default()>{age(now_ms, s.dc_updated_ms)}</td>
                            <td class="num">{s.load_bias}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <Pager page=number total=u64::from(page.total) per_page=SERVER_PAGE_SIZE href/>
    }
}
