//! The alerts page: what the admin's rules find firing on the live run, with an operator's
//! acknowledgement, and the run's alert history (fired, acknowledged by whom, resolved).

use engine::Role;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::alerts::{alerts, AcknowledgeAlert};
use crate::components::act::{Act, ActButton};
use crate::components::layout::user_allows;
use crate::components::live::{LiveRefresh, ALERTS};
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::erase::Erase;
use crate::format::sim_time;
use crate::model::alerts::AlertView;
use crate::pages::LoadError;

/// The alerts page.
#[component]
pub fn AlertsPage() -> impl IntoView {
    let query = use_query_map();
    let page_no = Memo::new(move |_| {
        query
            .read()
            .get("page")
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(1)
    });
    let page = answer(move || page_no.get(), |page| alerts(Some(page)));
    view! {
        <Title text="Alerts"/>
        // Read again when an alert fires or resolves (the counts of the live status).
        <LiveRefresh engine=ALERTS/>
        <h1>"Alerts"</h1>
        <PageHelp text="What the rules caught. Firing alerts are listed first, with the condition that fired them and since when (simulated time); an operator acknowledges one to say someone is on it, which is recorded with their name. Below, the history of every alert of the run: when it fired, who acknowledged it and when it resolved, and why."/>
        <p class="muted">
            "The leading console evaluates the alert rules on the live run as its clock moves (every quarter of a second of wall time at most) and after every operator action. "
            <a href="/alerts/rules" id="alert-rules-link">"Alert rules"</a>
        </p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let can_ack = user_allows(Role::Operator).await;
                match page.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(p) => view! {
                        <section class="card">
                            <h2>"Firing now"</h2>
                            {if p.firing.is_empty() {
                                view! { <p class="muted" id="alerts-none">"No alert is firing."</p> }.erase()
                            } else {
                                view! { <AlertTable id="alerts-firing" rows=p.firing can_ack/> }.erase()
                            }}
                        </section>
                        <section class="card">
                            <h2>"History"</h2>
                            <p class="muted small">{format!("{} alerts in run {}, newest first.", p.total, p.run_id)}</p>
                            <AlertTable id="alerts-history" rows=p.history can_ack=false/>
                            <Pager page=p.page total=p.total per_page=p.per_page href=|n| format!("/alerts?page={n}")/>
                        </section>
                    }.erase(),
                }
            })}
        </Transition>
    }
}

/// A table of alerts; with `ack`, an unacknowledged row has its button.
#[component]
fn AlertTable(id: &'static str, rows: Vec<AlertView>, can_ack: bool) -> impl IntoView {
    view! {
                    <table tabindex="0" id=id class="alerts">
                <thead><tr>
                    <th>"Severity"</th><th>"Rule"</th><th>"Subject"</th><th>"Why"</th>
                    <th>"Fired (simulated)"</th><th>"Acknowledged"</th><th>"Resolved (simulated)"</th>
                </tr></thead>
                <tbody>
                    {rows.into_iter().map(|a| {
                        let ack_label = format!("Acknowledge {} on {}", a.rule, a.subject);
                        let acked = match (&a.acked_by, &a.acked_at) {
                            (Some(who), Some(at)) => view! {
                                <span class="acked">{format!("by {who} at {at}")}</span>
                            }.erase(),
                            _ if can_ack => view! {
                                <ActButton label="Acknowledge" aria_label=ack_label act=Act::of(&AcknowledgeAlert { id: a.id.to_string() })/>
                            }.erase(),
                            _ => view! { <span class="muted">"no"</span> }.erase(),
                        };
                        let resolved = match a.resolved_ms {
                            Some(ms) => format!("{} ({})", sim_time(ms), a.resolved_reason.clone().unwrap_or_default()),
                            None => "firing".to_owned(),
                        };
                        view! {
                            <tr data-alert=a.id.to_string() data-rule=a.rule.clone() data-subject=a.subject.clone()
                                data-acked-by=a.acked_by.clone().unwrap_or_default()>
                                <td><span class=format!("sev sev-{}", a.severity)>{a.severity.clone()}</span></td>
                                <td>{a.rule.clone()}</td>
                                <td>{a.subject.clone()}</td>
                                <td>{a.text.clone()}</td>
                                <td class="mono" title=format!("condition held since {}; fired at {} UTC", sim_time(a.since_ms), a.fired_at)>{sim_time(a.fired_ms)}</td>
                                <td>{acked}</td>
                                <td class="mono">{resolved}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
    }
}
