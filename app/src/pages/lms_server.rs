//! One server of the farm: its load index over time stacked by rule contribution, rule loads
//! and counters now, the data collector's view and its age, sessions, the placements that
//! chose or skipped it (and why), its events, and the operator actions on it.

use engine::lms::config::LoadFormula;
use engine::lms::views::{AuditRow, ServerView};
use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::answer::answer;
use crate::api::lms::{lms_server, LmsAct, LmsActInput};
use crate::components::act::{Act, ActForm};
use crate::components::confirm::ConfirmButton;
use crate::components::event_table::EventTable;
use crate::components::layout::user_allows;
use crate::components::live::LiveRefresh;
use crate::components::lms_charts::{rule_label, StackedLoadChart};
use crate::components::page_help::PageHelp;
use crate::components::time_range::{use_time_range, RangePicker, TimeRange};
use crate::erase::Erase;
use crate::format::Instant;
use crate::model::lms::ServerDetail;
use crate::pages::lms::{age, power_label, LmsNav};
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The server detail page.
#[component]
pub fn LmsServerPage() -> impl IntoView {
    let params = use_params_map();
    let host = Memo::new(move |_| params.read().get("host").unwrap_or_default());
    let as_of = use_as_of();
    let range = use_time_range();
    // The chart's range, as the URL names it: the server sends only the samples it shows.
    let query = use_query_map();
    let range_params = Memo::new(move |_| {
        let q = query.read();
        (q.get("range"), q.get("from"), q.get("to"))
    });
    let detail = answer(
        move || (host.get(), range_params.get(), as_of.get()),
        |(host, (range, from, to), as_of)| lms_server(host, range, from, to, as_of.at, as_of.run),
    );
    view! {
        <Title text="Server"/>
        <LiveRefresh engine="lms"/>
        <LmsNav current=""/>
        <p><a href=move || as_of.get().link("/lms")>"← Farm"</a></p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || {
                // Read here so that picking a range re-draws the chart at once.
                let range = range.get();
                Suspend::new(async move {
                    let can_act = user_allows(Role::Operator).await;
                    match detail.await {
                        Err(e) => view! { <LoadError error=e/> }.erase(),
                        Ok(d) => view! { <Detail detail=d can_act range/> }.erase(),
                    }
                })
            }}
        </Transition>
    }
}

#[component]
fn Detail(detail: ServerDetail, can_act: bool, range: TimeRange) -> impl IntoView {
    let as_of = use_as_of().get_untracked();
    let ServerDetail {
        server,
        formula,
        indexes,
        now_ms,
        samples,
        placements,
        sessions,
        events,
    } = detail;
    let (from_ms, to_ms) = range.window(now_ms);
    let host = server.host.clone();
    view! {
        <h1 class="mono">{server.host.clone()} {server.collector.then_some(" — data collector")}</h1>
        <PageHelp text="One server of load management: its load index now and each rule's share of it, its sessions, where the last launches were placed and why (the load indexes compared), and its events. An operator can reboot it."/>
        <p class="muted">{format!("host id {} · zone {} · evaluator {} · {} · publishes {}",
            server.host_id, server.zone, server.evaluator, power_label(server.power), server.apps.join(", "))}</p>
        {can_act.then(|| view! { <Actions host=host.clone()/> })}
        <div class="grid">
            <section class="card">
                <h2>"Load index over simulated time, by rule"</h2>
                <RangePicker/>
                <StackedLoadChart samples formula from_ms to_ms/>
            </section>
            <Now server=server.clone() now_ms indexes formula/>
        </div>
        <section class="card">
            <h2>"Placements that chose or skipped it"</h2>
            <table tabindex="0" id="placement-table">
                <thead><tr><th>"Time"</th><th>"User"</th><th>"Application"</th><th>"Chosen"</th><th>"Why"</th><th>"Candidates (data collector's view)"</th></tr></thead>
                <tbody>
                    {placements.is_empty().then(|| view! { <tr><td colspan="6" class="empty">"None yet."</td></tr> })}
                    {placements.into_iter().map(|p| view! {
                        <tr class:chosen=p.chose_this data-mode=p.mode.clone()>
                            <td class="mono"><Instant t_ms=p.t_ms/></td>
                            <td>{p.user}</td>
                            <td>{p.app}</td>
                            <td class="mono">{p.chosen}</td>
                            <td>{p.why}</td>
                            <td class="mono small">{p.candidates.join(" · ")}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </section>
        <section class="card">
            <h2>{format!("Sessions ({})", sessions.total)}</h2>
            <table tabindex="0" id="session-table">
                <thead><tr><th>"User"</th><th>"Application"</th><th>"Client"</th><th>"State"</th><th>"Since"</th></tr></thead>
                <tbody>
                    {sessions.rows.into_iter().map(|s| view! {
                        <tr><td>{s.user}</td><td>{s.app}</td><td class="mono">{s.client_ip}</td>
                            <td>{serde_json::to_value(s.state).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()}</td>
                            <td class="mono"><Instant t_ms=s.since_ms/></td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            {(sessions.total > 25).then(|| view! { <p class="muted small"><a href=as_of.link("/lms/store")>"All sessions in the dynamic store view"</a></p> })}
        </section>
        <section class="card">
            <h2>"Events"</h2>
            <EventTable rows=events id="server-events"/>
        </section>
    }
}

#[component]
fn Now(
    server: ServerView,
    now_ms: u64,
    indexes: Option<AuditRow>,
    formula: LoadFormula,
) -> impl IntoView {
    let c = server.counters;
    let in_force = |f: LoadFormula| if f == formula { " (in force)" } else { "" };
    view! {
        <section class="card">
            <h2>"Now"</h2>
            <table tabindex="0" class="counts" id="server-now">
                <tbody>
                    <tr><th>"Load index (true)"</th><td class="num" data-col="load">{format!("{} · {:.2} % · 0x{:x}", server.load, f64::from(server.load) / 100.0, server.load)}</td></tr>
                    <tr><th>"Data collector's view"</th><td class="num" data-col="dc_load">{server.dc_load.map(|l| l.to_string()).unwrap_or_else(|| "—".into())}</td></tr>
                    <tr><th>"View updated"</th><td>{age(now_ms, server.dc_updated_ms)}</td></tr>
                    <tr><th>"Last contact (push, ping, request)"</th><td>{age(now_ms, server.dc_contact_ms)}</td></tr>
                    <tr><th>"LoadBias (view − true)"</th><td class="num">{server.load_bias}</td></tr>
                    <tr><th>"Sessions connected / disconnected"</th><td class="num" data-col="sessions">{format!("{} / {}", server.connected, server.disconnected)}</td></tr>
                    <tr><th>"Logons in progress (LTMultiplier)"</th><td class="num">{server.lt_multiplier}</td></tr>
                    <tr><th>"LTLoad (per logon)"</th><td class="num">{format!("{} (0x{:x})", server.lt_load, server.lt_load)}</td></tr>
                    {server.started_ms.map(|t| view! { <tr><th>"Last start"</th><td class="mono"><Instant t_ms=t/></td></tr> })}
                    {indexes.map(|r| view! {
                        <tr><th>{format!("Index, seed formula: max + 5 % of the sum{}", in_force(LoadFormula::Sum))}</th><td class="num" data-col="index_sum">{r.sum}</td></tr>
                        <tr><th>{format!("Index, 7.x formula: max + 5 % of the average{}", in_force(LoadFormula::Average))}</th><td class="num" data-col="index_average">{r.average}</td></tr>
                    })}
                </tbody>
            </table>
            <h2 class="spaced">"Rule loads"</h2>
            <table tabindex="0" class="counts" id="rule-loads">
                <tbody>
                    {server.rule_loads.into_iter().map(|r| view! {
                        <tr data-rule=r.code.to_string()><th>{format!("{} ({})", rule_label(r.code), r.code)}</th><td class="num">{format!("{:.2}", r.load)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            <h2 class="spaced">"Performance counters"</h2>
            <table tabindex="0" class="counts">
                <tbody>
                    <tr><th>"CPU"</th><td class="num">{format!("{:.1} %", c.cpu)}</td></tr>
                    <tr><th>"Memory"</th><td class="num">{format!("{:.1} %", c.memory)}</td></tr>
                    <tr><th>"Page swaps /s"</th><td class="num">{format!("{:.0}", c.page_swaps)}</td></tr>
                    <tr><th>"Page faults /s"</th><td class="num">{format!("{:.0}", c.page_faults)}</td></tr>
                    <tr><th>"Context switches /s"</th><td class="num">{format!("{:.0}", c.context_switches)}</td></tr>
                    <tr><th>"Disk data I/O KB/s"</th><td class="num">{format!("{:.0}", c.disk_data_io)}</td></tr>
                    <tr><th>"Disk operations /s"</th><td class="num">{format!("{:.0}", c.disk_operations)}</td></tr>
                </tbody>
            </table>
        </section>
    }
}

#[component]
fn Actions(host: String) -> impl IntoView {
    let reboot = Act::of(&LmsAct {
        input: LmsActInput {
            op: "reboot".into(),
            server: host.clone(),
            ..LmsActInput::default()
        },
    });
    let consequence = format!("Reboot {host}: every session on it ends, it is down for the reboot time (60 s by default) then starting (3 m), and takes no launches until it is up; if it is its zone's data collector, the zone elects another.");
    let (aria, confirm, spiked) = (
        format!("Reboot {host}"),
        format!("Reboot {host}"),
        host.clone(),
    );
    view! {
        <section class="card" id="server-actions">
            <h2>"Operator actions"</h2>
            <div class="controls">
                <ConfirmButton
                    id="reboot"
                    label="Reboot"
                    aria_label=aria
                    confirm=confirm
                    consequence=consequence
                    act=reboot
                />
            </div>
            <ActForm path=LmsAct::PATH class="controls" id="spike-form" error_id="action-error">
                <input type="hidden" name="input[op]" value="spike"/>
                <input type="hidden" name="input[server]" value=spiked/>
                <label>" Spike "
                    <select name="input[counter]">
                        <option value="cpu">"CPU"</option>
                        <option value="memory">"memory"</option>
                    </select>
                </label>
                <label>" at " <input type="number" min="0" max="100" size="4" name="input[percent]" value="95"/> " %"</label>
                <label>" for " <input type="text" size="5" name="input[over]" value="10m"/></label>
                <button type="submit" id="spike">"Spike"</button>
            </ActForm>
            <ActForm path=LmsAct::PATH class="controls" id="session-form">
                <input type="hidden" name="input[server]" value=host/>
                <label><input type="number" min="1" size="5" name="input[count]" value="5"/> " sessions: "</label>
                <button type="submit" name="input[op]" value="disconnect">"Disconnect"</button>
                <button type="submit" name="input[op]" value="logoff">"Log off"</button>
            </ActForm>
        </section>
    }
}
