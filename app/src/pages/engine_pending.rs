//! The section of an engine that is not simulated yet: says so plainly, and what it will show.

use engine::EngineId;
use leptos::prelude::*;
use leptos_meta::Title;

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

/// Placeholder-free notice for an engine section whose engine is not running yet.
#[component]
pub fn EnginePending(engine: EngineId) -> impl IntoView {
    let (title, what) = describe(engine);
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
                " events are produced, so there is nothing to show here."
            </p>
        </section>
    }
}
