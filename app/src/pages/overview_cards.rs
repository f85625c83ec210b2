//! The overview's engine cards: a few lines per engine with its sparkline, each linking to the
//! engine's pages. Every card reads the one [`Overview`] answer the overview page holds
//! ([`OverviewAnswer`]), each under its own boundary.

use engine::EngineId;
use leptos::prelude::*;

use crate::components::sparkline::Sparkline;
use crate::components::topology::{status_class, status_label};
use crate::error::AppError;
use crate::format::sim_time;
use crate::model::overview::Overview;
use crate::pages::autoscale::{decision_label, mode_label, StateBadge};
use crate::pages::lhc::HaBadge;
use crate::pages::LoadError;

/// The overview page's answer, shared by its cards (and its attention list).
pub type OverviewAnswer = Resource<Result<Overview, AppError>>;

/// A card: its title linking to `href`, the engine's sparkline, and `body` drawn from the
/// answer.
#[component]
fn EngineCard(
    overview: OverviewAnswer,
    engine: EngineId,
    href: &'static str,
    title: &'static str,
    body: fn(Overview) -> AnyView,
) -> impl IntoView {
    let head = move |overview: Option<&Overview>| {
        let activity = overview.and_then(|o| o.activity_of(engine.as_str()));
        view! {
            <h2 class="tile-head">
                <a href=href>{title}</a> " "
                {activity.map(|activity| view! { <Sparkline activity/> })}
            </h2>
        }
    };
    view! {
        <section class="card">
            <Transition fallback=move || view! { {head(None)} <p class="muted">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match overview.await {
                        Err(e) => view! { {head(None)} <LoadError error=e/> }.into_any(),
                        Ok(o) => view! { {head(Some(&o))} {body(o)} }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// Resource locations: the HA states present, then one line per location.
#[component]
pub fn LhcCard(overview: OverviewAnswer) -> impl IntoView {
    let body = |o: Overview| {
        view! {
            <p id="lhc-card-summary">{o.lhc.state_counts()}</p>
            <ul class="rl-card" id="lhc-card">
                {o.lhc.locations.into_iter().map(|rl| view! {
                    <li data-rl=rl.id.clone()>
                        <a href=format!("/lhc/{}", rl.id)>{rl.name}</a>
                        " " <HaBadge state=rl.ha_state/>
                        <span class="muted small">{format!(" {} cloud · {} secondary · {} unregistered", rl.on_cloud, rl.on_secondary, rl.unregistered)}</span>
                    </li>
                }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! { <EngineCard overview engine=EngineId::Lhc href="/lhc" title="Resource locations" body/> }
}

/// Load management: servers, sessions and placements, each zone's data collector.
#[component]
pub fn LmsCard(overview: OverviewAnswer) -> impl IntoView {
    let body = |o: Overview| {
        let f = o.lms;
        view! {
            <div id="lms-card">
                <p>{format!("{} of {} servers up · {} connected, {} disconnected sessions · {} placed, {} refused",
                    f.servers_up, f.servers_total, f.sessions_connected, f.sessions_disconnected, f.placements, f.rejected)}</p>
                <ul>
                    {f.zones.into_iter().map(|(zone, collector)| view! {
                        <li>{zone} ": data collector " <span class="mono">{collector.unwrap_or_else(|| "none".into())}</span></li>
                    }).collect_view()}
                </ul>
                <p class="muted small">{if f.black_hole_fix { "Black-hole fix on" } else { "Black-hole fix OFF" }}</p>
            </div>
        }
        .into_any()
    };
    view! { <EngineCard overview engine=EngineId::Lms href="/lms" title="Load management" body/> }
}

/// GSLB: parents and children, then one line per parent site.
#[component]
pub fn GslbCard(overview: OverviewAnswer) -> impl IntoView {
    let body = |o: Overview| {
        let t = o.gslb;
        view! {
            <div id="gslb-card">
                <p>{format!("{} of {} parents up · {} children, {} adopted, {} orphaned · {} DNS answers",
                    t.parents_up, t.parents_total, t.children_total, t.children_adopted, t.children_orphaned, t.dns_answered)}</p>
                <ul>
                    {t.parents.into_iter().map(|s| view! {
                        <li>{s.name} ": " <span class=format!("badge {}", status_class(s.mep_status))>{status_label(s.mep_status)}</span>
                            {format!(" · {} children", s.children)}</li>
                    }).collect_view()}
                </ul>
            </div>
        }
        .into_any()
    };
    view! { <EngineCard overview engine=EngineId::Gslb href="/gslb" title="GSLB" body/> }
}

/// Autoscale: clusters by state, one line per group, and the latest decision with its reason.
#[component]
pub fn AutoscaleCard(overview: OverviewAnswer) -> impl IntoView {
    let body = |o: Overview| {
        let summary = o.autoscale;
        let line = summary.line();
        view! {
            <div id="autoscale-card">
                <p data-col="summary">{line}</p>
                <ul class="rl-card">
                    {summary.groups.iter().map(|g| view! {
                        <li data-group=g.name.clone()>
                            <a href=format!("/autoscale/{}", g.name)>{g.name.clone()}</a>
                            " " <span class="tag">{mode_label(g.mode)}</span> " "
                            {g.zones.iter().map(|z| view! { <StateBadge state=z.state until=None/>" " }).collect_view()}
                            <span class="muted small">{format!(" {} node(s) in service", g.nodes_in_service())}</span>
                        </li>
                    }).collect_view()}
                </ul>
                <p class="small">"Last decision: "
                    {match summary.last_decision {
                        None => view! { <span class="muted">"none yet"</span> }.into_any(),
                        Some((name, d)) => view! {
                            <span data-col="last-decision">{format!("{} {} in {} at {}", name, decision_label(&d.kind), d.zone, sim_time(d.at_ms))}</span>
                            <span class="muted">{format!(" — {}", d.reason)}</span>
                        }.into_any(),
                    }}
                </p>
            </div>
        }
        .into_any()
    };
    view! { <EngineCard overview engine=EngineId::Autoscale href="/autoscale" title="Autoscale" body/> }
}
