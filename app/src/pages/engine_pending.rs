//! The section of an engine that is not simulated yet: says so plainly, and shows the estate
//! the loaded scenario configures for it (read and validated, not yet running).

use engine::EngineId;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::estate::configured_estate;
use crate::model::{EstateView, TableView};
use crate::pages::LoadError;

fn describe(engine: EngineId) -> (&'static str, &'static str) {
    match engine {
        EngineId::Lhc => (
            "Resource locations",
            "Local Host Cache / HA mode of Cloud Connectors: HA state per resource location, the elected secondary broker, VDA registrations and forced outages.",
        ),
        EngineId::Lms => (
            "Load management",
            "Zones and zone data collectors, load evaluators and rules, the load index, least-loaded placement, load throttling and the black-hole effect.",
        ),
        EngineId::Gslb => (
            "GSLB",
            "Parent-child GSLB topology over MEP: sites, links, backup parents and adoption of children.",
        ),
        EngineId::Autoscale => (
            "Autoscale",
            "Autoscale groups of ADC clusters per availability zone: thresholds, watch time, cooldown, drain and TTL.",
        ),
        EngineId::Core => ("Core", "The clock and the heartbeat engine."),
    }
}

/// The notice and the configured estate of an engine section whose engine is not running yet.
#[component]
pub fn EnginePending(engine: EngineId) -> impl IntoView {
    let (title, what) = describe(engine);
    let estate = Resource::new(move || engine, configured_estate);
    view! {
        <Title text=title/>
        <h1>{title}</h1>
        <section class="card">
            <p>{what}</p>
            <p class="muted">
                "This engine is not simulated yet: the scenario's "
                <code>{format!("[{}]", engine.as_str())}</code>
                " section is read and validated, but no "
                <code>{engine.as_str()}</code>
                " events are produced yet. Below is the estate the scenario configures."
            </p>
        </section>
        <Suspense fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match estate.await {
                    Ok(view) => view! { <Estate view/> }.into_any(),
                    Err(e) => view! { <LoadError error=e/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Estate(view: EstateView) -> impl IntoView {
    let EstateView {
        facts,
        tables,
        warnings,
    } = view;
    view! {
        {(!warnings.is_empty()).then(|| view! {
            <section class="card warnings">
                <h2>"Configuration warnings"</h2>
                <ul>{warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
            </section>
        })}
        {(!facts.is_empty()).then(|| view! { <Facts facts/> })}
        {tables.into_iter().map(|t| view! { <Table table=t/> }).collect_view()}
    }
}

/// Settings as label / value rows (values say whether a default is documented or assumed).
#[component]
pub fn Facts(facts: Vec<(String, String)>) -> impl IntoView {
    view! {
        <section class="card">
            <h2>"Settings"</h2>
            <table class="facts">
                <tbody>
                    {facts.into_iter().map(|(k, v)| view! { <tr><th>{k}</th><td>{v}</td></tr> }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

#[component]
fn Table(table: TableView) -> impl IntoView {
    let empty = table.rows.is_empty();
    let width = table.columns.len().to_string();
    view! {
        <section class="card">
            <h2>{table.title}</h2>
            <table>
                <thead><tr>{table.columns.into_iter().map(|c| view! { <th>{c}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {empty.then(|| view! { <tr><td colspan=width class="empty">"None configured."</td></tr> })}
                    {table.rows.into_iter().map(|r| view! {
                        <tr>{r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}
