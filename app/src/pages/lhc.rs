//! Resource locations: one row per RL with its HA state, elected secondary broker, connectors
//! and VDA registrations; the HA badge the overview card shares.

use engine::lhc::{HaState, RlView};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::estate::configured_estate;
use crate::api::lhc::lhc_overview;
use crate::components::charts::state_class;
use crate::components::facts::Facts;
use crate::components::live::use_live_refresh;
use crate::components::page_help::PageHelp;
use crate::pages::LoadError;
use crate::time_travel::{use_as_of, AsOf};

/// A state badge.
#[component]
pub fn HaBadge(state: HaState) -> impl IntoView {
    view! { <span class=format!("badge ha {}", state_class(state)) data-state=state.as_str()>{state.label()}</span> }
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

/// The resource locations page.
#[component]
pub fn LhcPage() -> impl IntoView {
    let tick = use_live_refresh("lhc");
    let as_of = use_as_of();
    let rls = Resource::new(
        move || (tick.get(), as_of.get()),
        |(_, as_of)| lhc_overview(as_of.at, as_of.run),
    );
    let settings = Resource::new(|| (), |_| configured_estate(engine::EngineId::Lhc));
    view! {
        <Title text="Resource locations"/>
        <h1>"Resource locations"</h1>
        <PageHelp text="Every resource location with its Local Host Cache / HA state: Working Normally while the Cloud Connectors reach the cloud, then Pending HA, HA Initial and Extended HA during an outage, and Pending Recovery on the way back. The columns show the elected secondary broker and where the VDAs are registered (cloud, secondary broker, unregistered). A warning means the location is not ready for an outage."/>
        <p class="muted">
            "Local Host Cache / HA mode of Cloud Connectors. The vendor does not publish the durations of Pending HA, HA Initial and Pending Recovery: those defaults are assumed, the others documented (see Settings below)."
        </p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match rls.await {
                    Err(e) => view! { <LoadError error=e/> }.into_any(),
                    Ok(list) => view! {
                        <section class="card">
                            <table tabindex="0" id="rl-table">
                                <thead><tr>
                                    <th>"Resource location"</th><th>"HA state"</th><th>"Elected secondary broker"</th>
                                    <th>"Connectors up"</th><th>"VDAs on cloud"</th><th>"on secondary"</th><th>"unregistered"</th><th>"Warnings"</th>
                                </tr></thead>
                                <tbody>{rows(list, &as_of.get_untracked())}</tbody>
                            </table>
                        </section>
                    }.into_any(),
                }
            })}
        </Transition>
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                settings.await.ok().map(|estate| view! { <Facts facts=estate.facts/> })
            })}
        </Suspense>
    }
}
