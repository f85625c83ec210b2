//! One resource location: its connectors (health, StoreFront flag, forced outage, LocalDB,
//! election rank), the HA-state band and registrations charts, the event log with reasons,
//! the VDA table (paged on the server), and the operator actions.

use engine::lhc::{ConnectorView, Power, VdaPage};
use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::answer::answer;
use crate::api::lhc::{lhc_location, lhc_vdas, LhcAct, VDA_PAGE_SIZE};
use crate::components::act::{Act, ActButton, ActForm};
use crate::components::charts::{RegistrationChart, StateBand};
use crate::components::confirm::ConfirmButton;
use crate::components::event_table::EventTable;
use crate::components::filter_form::{choice, ChoiceFilter, FilterForm, KeptSort};
use crate::components::layout::user_allows;
use crate::components::list_url::ListUrl;
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::time_range::{use_time_range, RangePicker, TimeRange};
use crate::erase::Erase;
use crate::error::AppError;
use crate::format::sim_time;
use crate::model::lhc::RlDetail;
use crate::pages::lhc::HaBadge;
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The detail page.
#[component]
pub fn LhcDetailPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.read().get("id").unwrap_or_default());
    let as_of = use_as_of();
    let range = use_time_range();
    let detail = answer(
        move || (id.get(), as_of.get()),
        |(id, as_of)| lhc_location(id, as_of.at, as_of.run),
    );
    view! {
        <Title text="Resource location"/>
        <LiveRefresh engine="lhc"/>
        <p><a href=move || as_of.get().link("/lhc")>"← Resource locations"</a></p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || {
                // Read here so that picking a range re-draws the charts at once.
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
        <Vdas id/>
    }
}

#[component]
fn Detail(detail: RlDetail, can_act: bool, range: TimeRange) -> impl IntoView {
    let RlDetail {
        rl,
        connectors,
        storefront,
        resources,
        now_ms,
        states,
        registrations,
        events,
    } = detail;
    let (from_ms, to_ms) = range.window(now_ms);
    let rl_id = rl.id.clone();
    let forced = connectors.iter().filter(|c| c.forced_outage).count();
    // An action on the whole resource location, as the islands post it.
    let on_rl = |op: &str| {
        Act::of(&LhcAct {
            op: op.to_owned(),
            resource_location: Some(rl_id.clone()),
            connector: None,
            component: None,
            resource: None,
        })
    };
    let with_state_machine = connectors
        .iter()
        .filter(|c| c.storefront_configured)
        .count();
    let outage_consequence = format!(
        "Force outage on {}: OutageModeForced = 1 on its {} Cloud Connector(s). The {} that \
         run the HA state machine (StoreFront configured) enter Pending HA at the next health \
         check (10 s grid), then HA Initial when the Pending HA time of the scenario elapses; \
         VDAs then register with the elected secondary broker ({}) until the outage is cleared.",
        rl.name,
        connectors.len(),
        with_state_machine,
        rl.elected
            .clone()
            .unwrap_or_else(|| "elected when HA begins".into()),
    );
    let outage_not_now = (!connectors.is_empty() && forced == connectors.len()).then(|| {
        "The outage is already forced on every Cloud Connector: clear it first.".to_owned()
    });
    view! {
        <h1>{rl.name.clone()} " " <HaBadge state=rl.ha_state/></h1>
        <PageHelp text="One resource location: its HA state and since when, the secondary broker elected and the order of the candidates, its Cloud Connectors with their health and local database, and its VDAs and where they are registered. An operator can force an outage here (the connectors lose the cloud, one of them is elected secondary broker and VDAs re-register with it) and clear it again; the charts show the states and registrations over the chosen time range."/>
        <p class="muted">
            {format!("{} · in this state since {} · elected secondary broker: {} · candidates: {}",
                rl.id, sim_time(rl.ha_state_since_ms), rl.elected.clone().unwrap_or_else(|| "none".into()),
                if rl.candidates.is_empty() { "none".to_owned() } else { rl.candidates.join(" > ") })}
        </p>
        {(!rl.warnings.is_empty()).then(|| view! {
            <section class="card warnings" id="rl-warnings">
                <ul>{rl.warnings.iter().map(|w| view! { <li>{w.message.clone()}</li> }).collect_view()}</ul>
            </section>
        })}
        {can_act.then(|| view! {
            <section class="card" id="rl-actions">
                <h2>"Operator actions"</h2>
                <div class="controls">
                    <ConfirmButton
                        id="force-outage"
                        label="Force outage on this resource location"
                        confirm="Force outage"
                        consequence=outage_consequence
                        not_now=outage_not_now
                        act=on_rl("force_outage")
                    />
                    <ActButton id="clear-outage" label="Clear forced outage" act=on_rl("clear_outage").filter(|_| forced > 0)/>
                    <ActButton label="Cut cloud link" act=on_rl("cut_cloud_link")/>
                    <ActButton label="Restore cloud link" act=on_rl("restore_cloud_link")/>
                </div>
                <p class="muted small">
                    "Forcing the outage sets OutageModeForced = 1 on every Cloud Connector of the resource location, which is how the product tests it. Forcing it on a single connector (below) does not test the resource location: the others keep brokering through the cloud."
                </p>
                <LaunchForm resources/>
            </section>
        })}
        <div class="grid">
            <section class="card">
                <h2>"HA state over simulated time"</h2>
                <RangePicker/>
                <StateBand points=states from_ms to_ms/>
                <h2 class="spaced">"VDA registrations"</h2>
                <RegistrationChart points=registrations from_ms to_ms/>
            </section>
            <section class="card">
                <h2>"Now"</h2>
                <table tabindex="0" class="counts" id="rl-counts">
                    <tbody>
                        <tr><th>"VDAs"</th><td class="num">{rl.vdas_total}</td></tr>
                        <tr><th>"on cloud"</th><td class="num" data-col="cloud">{rl.on_cloud}</td></tr>
                        {rl.secondary.iter().map(|(fqdn, n)| view! { <tr><th class="mono">{format!("on {fqdn}")}</th><td class="num">{*n}</td></tr> }).collect_view()}
                        <tr><th>"unregistered"</th><td class="num" data-col="unregistered">{rl.unregistered}</td></tr>
                        <tr><th>"next broker"</th><td class="mono">{rl.next_broker.clone()}</td></tr>
                        <tr><th>"still to re-register"</th><td class="num">{rl.reregistering}</td></tr>
                        <tr><th>"ADC VIP (CITRIX-XD-DDC)"</th><td>{if rl.adc_vip_up { "UP" } else { "DOWN" }}</td></tr>
                        <tr><th>"StoreFront AdvancedHealthCheck"</th><td>{if storefront.advanced_health_check { "on" } else { "off" }}</td></tr>
                    </tbody>
                </table>
            </section>
        </div>
        <Connectors connectors can_act rl=rl.id.clone()/>
        <section class="card">
            <h2>"Events (with reasons)"</h2>
            <EventTable rows=events id="rl-events"/>
        </section>
    }
}

#[component]
fn LaunchForm(resources: Vec<String>) -> impl IntoView {
    view! {
        <ActForm path=LhcAct::PATH class="controls" id="launch-form">
            <input type="hidden" name="op" value="test_launch"/>
            <label>"Test launch of "
                <select name="resource">
                    {resources.iter().map(|r| view! { <option value=r.clone()>{r.clone()}</option> }).collect_view()}
                </select>
            </label>
            <button type="submit">"Launch"</button>
        </ActForm>
    }
}

fn health(ok: bool) -> &'static str {
    if ok {
        "✔"
    } else {
        "✘"
    }
}

#[component]
fn Connectors(connectors: Vec<ConnectorView>, can_act: bool, rl: String) -> impl IntoView {
    view! {
        <section class="card">
            <h2>"Cloud Connectors"</h2>
            <table tabindex="0" id="connector-table">
                <thead><tr>
                    <th>"Rank"</th><th>"FQDN"</th><th>"Power"</th><th>"CSS"</th><th>"HA service"</th><th>"RBP"</th>
                    <th>"StoreFront"</th><th>"Forced outage"</th><th>"Cloud link"</th><th>"HA state"</th>
                    <th>"LocalDB (last sync)"</th><th>"Registrations"</th>
                    {can_act.then(|| view! { <th>"Actions"</th> })}
                </tr></thead>
                <tbody>
                    {connectors.into_iter().map(|c| {
                        let power = match c.power { Power::Up => "up".to_owned(), Power::Restarting { until_ms } => format!("restarting until {}", sim_time(until_ms)), _ => "down".to_owned() };
                        let forced = c.forced_outage;
                        let fqdn = c.fqdn.clone();
                        let rl = rl.clone();
                        view! {
                            <tr data-connector=c.fqdn.clone() class:elected=c.elected>
                                <td class="num">{c.election_rank.map(|r| r.to_string()).unwrap_or_else(|| "—".into())}</td>
                                <td class="mono">{c.fqdn.clone()} {c.elected.then_some(" ★")}
                                    {c.excluded_because.clone().map(|w| view! { <div class="muted small">{w}</div> })}
                                </td>
                                <td>{power}</td>
                                <td>{health(c.components.css)}</td>
                                <td>{health(c.components.ha_service)}</td>
                                <td>{health(c.components.rbp)}</td>
                                <td>{if c.storefront_configured { "configured" } else { "not configured" }}</td>
                                <td>{if forced { "forced" } else { "—" }}</td>
                                <td>{if !c.cloud_link_up { "cut" } else if c.cloud_lost { "lost" } else { "up" }}</td>
                                <td>{c.ha_state.map(|s| view! { <HaBadge state=s/> }.erase()).unwrap_or_else(|| view! { <span class="muted">"no HA detection"</span> }.erase())}
                                    {(!c.failed_checks.is_empty()).then(|| view! { <div class="muted small">{c.failed_checks.join(", ")}</div> })}
                                </td>
                                <td class="mono">{format!("gen {} ({})", c.localdb.generation, sim_time(c.localdb.last_sync_ms))}</td>
                                <td class="num">{c.registrations}</td>
                                {can_act.then(move || view! {
                                    <td>
                                        <ActForm path=LhcAct::PATH class="row-actions" aria_label=format!("Actions on {}", fqdn)>
                                            <input type="hidden" name="resource_location" value=rl/>
                                            <input type="hidden" name="connector" value=fqdn.clone()/>
                                            <button type="submit" name="op" value=if forced { "clear_outage" } else { "force_outage" } aria-label=format!("{} on {}", if forced { "Clear outage" } else { "Force outage" }, fqdn)>
                                                {if forced { "Clear outage" } else { "Force outage" }}
                                            </button>
                                            <button type="submit" name="op" value="restart" aria-label=format!("Restart {}", fqdn)>"Restart"</button>
                                            <select name="component" title="What to fail or recover" aria-label=format!("What to fail or recover on {}", fqdn)>
                                                <option value="">"whole connector"</option>
                                                <option value="css">"CSS"</option>
                                                <option value="ha_service">"HA service"</option>
                                                <option value="rbp">"RBP"</option>
                                            </select>
                                            <button type="submit" name="op" value="fail" aria-label=format!("Fail {}", fqdn)>"Fail"</button>
                                            <button type="submit" name="op" value="recover" aria-label=format!("Recover {}", fqdn)>"Recover"</button>
                                        </ActForm>
                                    </td>
                                })}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

#[component]
fn Vdas(id: Memo<String>) -> impl IntoView {
    let query = use_query_map();
    let filters = Memo::new(move |_| {
        let q = query.read();
        (
            q.get("q"),
            q.get("broker"),
            q.get("maintenance"),
            q.get("kind"),
            (q.get("sort"), q.get("desc").map(|d| d == "1")),
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
        )
    });
    let as_of = use_as_of();
    let page = answer(
        move || (id.get(), filters.get(), as_of.get()),
        |(id, (name, broker, maintenance, kind, (sort, desc), page), as_of)| {
            lhc_vdas(
                id,
                name,
                broker,
                maintenance,
                kind,
                sort,
                desc,
                page,
                as_of.at,
                as_of.run,
            )
        },
    );
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    // An unknown resource location has no VDAs to filter: the section is left out (the page
    // above says it is unknown).
    let filters_form = move || {
        view! {
            <FilterForm class="form filters" id="vda-filters">
                <label>"Search " <input type="search" name="q" size="14" maxlength="100" placeholder="name starts with" value=move || current("q")/></label>
                <label>"Broker " <input type="text" name="broker" size="24" placeholder="cloud, secondary, unregistered" value=move || current("broker")/></label>
                <ChoiceFilter label="Maintenance" name="maintenance" choices=vec![choice("yes", "yes"), choice("no", "no")]/>
                <label>"Kind " <select name="kind">
                    <option value="">"any"</option>
                    {["multi_session", "pooled_vdi", "static"].into_iter().map(|k| view! { <option value=k selected=move || current("kind") == k>{k}</option> }).collect_view()}
                </select></label>
                <KeptSort/>
                <button type="submit">"Filter"</button>
            </FilterForm>
        }
    };
    view! {
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Err(AppError::NotFound(_)) => ().erase(),
                    Err(e) => view! {
                        <section class="card"><h2>"VDAs"</h2>{filters_form()}<LoadError error=e/></section>
                    }.erase(),
                    Ok(p) => view! {
                        <section class="card"><h2>"VDAs"</h2>{filters_form()}<VdaTable page=p id=id.get_untracked()/></section>
                    }.erase(),
                }
            })}
        </Transition>
    }
}

#[component]
fn VdaTable(page: VdaPage, id: String) -> impl IntoView {
    let number = u32::try_from(page.offset / VDA_PAGE_SIZE as usize).unwrap_or(0) + 1;
    // The charts' range is kept too.
    let url = ListUrl::current(
        format!("/lhc/{id}"),
        &["q", "broker", "maintenance", "kind", "range", "from", "to"],
    );
    let header = |key, label, desc_first| url.header(key, label, desc_first);
    view! {
        <p class="muted" id="vda-total" data-total=page.total.to_string()>{format!("{} VDAs match", page.total)}</p>
        <table tabindex="0" id="vda-table">
            <thead><tr>
                {header("name", "Name", false)}{header("kind", "Kind", false)}{header("group", "Delivery group", false)}
                // Not registered first; the most sessions first; those in maintenance first.
                {header("broker", "Broker", false)}{header("sessions", "Sessions", true)}
                {header("maintenance", "Maintenance", true)}{header("phase", "Heartbeat phase", false)}
            </tr></thead>
            <tbody>
                {page.rows.into_iter().map(|v| {
                    let broker = match &v.broker {
                        engine::lhc::Broker::Cloud => "cloud".to_owned(),
                        engine::lhc::Broker::Secondary { fqdn } => fqdn.clone(),
                        engine::lhc::Broker::Unregistered => "unregistered".to_owned(),
                    };
                    view! {
                        <tr>
                            <td class="mono">{v.name}</td>
                            <td>{v.kind.as_str()}</td>
                            <td>{v.delivery_group}</td>
                            <td class="mono">{broker}{v.moves_at_next_heartbeat.then_some(" →")}</td>
                            <td class="num">{format!("{}/{}", v.sessions, v.max_sessions)}</td>
                            <td>{if v.maintenance { "yes" } else { "" }}</td>
                            <td class="num">{format!("{} s", v.heartbeat_phase_ms / 1000)}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <Pager page=number total=page.total as u64 per_page=VDA_PAGE_SIZE href=url.page_href()/>
    }
}
