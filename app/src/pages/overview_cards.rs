//! The overview's engine cards: per engine its counts by state as tiles and its few worst
//! items, with its sparkline, each linking to the engine's pages. The cards read the one
//! [`Overview`] answer the overview page holds ([`OverviewAnswer`]), under one boundary.

use std::sync::Arc;

use engine::gslb::config::SiteRole;
use engine::lms::views::ServerPower;
use engine::EngineId;
use leptos::prelude::*;

use crate::answer::Answer;
use crate::components::built_once::build_view_next;
use crate::components::sparkline::Sparkline;
use crate::components::tiles::Tiles;
use crate::components::topology::{status_class, status_label};
use crate::erase::Erase;
use crate::format::{sim_time, thousands};
use crate::model::activity::ActivityView;
use crate::model::overview::{AutoscaleSummary, GslbSummary, LhcSummary, LmsSummary, Overview};
use crate::pages::autoscale::{decision_label, mode_label, StateBadge};
use crate::pages::lhc::HaBadge;
use crate::pages::LoadError;

/// The overview page's answer, shared by its cards (and its attention list). Shared, not
/// copied: each boundary awaiting it gets the same answer (on the server, once per walk).
pub type OverviewAnswer = Answer<Arc<Overview>>;

/// What a card shows above its body: the engine (for its sparkline), the title and the page its
/// title links to.
struct CardHead {
    engine: EngineId,
    href: &'static str,
    title: &'static str,
}

const LHC: CardHead = CardHead {
    engine: EngineId::Lhc,
    href: "/lhc",
    title: "Resource locations",
};
const LMS: CardHead = CardHead {
    engine: EngineId::Lms,
    href: "/lms",
    title: "Load management",
};
const GSLB: CardHead = CardHead {
    engine: EngineId::Gslb,
    href: "/gslb",
    title: "GSLB",
};
const AUTOSCALE: CardHead = CardHead {
    engine: EngineId::Autoscale,
    href: "/autoscale",
    title: "Autoscale",
};

/// A card: its title linking to its page, the engine's sparkline when the answer has its
/// activity, then `body`.
fn card(head: &CardHead, activity: Option<ActivityView>, body: AnyView) -> impl IntoView {
    view! {
        <section class="card">
            <h2 class="tile-head">
                <a href=head.href>{head.title}</a> " "
                {activity.map(|activity| view! { <Sparkline activity/> })}
            </h2>
            {body}
        </section>
    }
}

/// The four engine cards (resource locations, load management, GSLB, autoscale), drawn from
/// the answer under one boundary: they wait for the same answer and are drawn again together
/// when it is read again.
#[component]
pub fn EngineCards(overview: OverviewAnswer) -> impl IntoView {
    let heads = [&LHC, &LMS, &GSLB, &AUTOSCALE];
    view! {
        <Transition fallback=move || heads
            .map(|head| card(head, None, view! { <p class="muted">"Loading…"</p> }.erase()))
            .collect_view()>
            {move || Suspend::new(async move {
                let answer = overview.await;
                build_view_next().await;
                match answer {
                    Err(e) => heads
                        .map(|head| card(head, None, view! { <LoadError error=e.clone()/> }.erase()))
                        .collect_view()
                        .erase(),
                    Ok(o) => {
                        let [lhc, lms, gslb, autoscale] =
                            heads.map(|head| o.activity_of(head.engine.as_str()));
                        (
                            card(&LHC, lhc, lhc_body(o.lhc.clone())),
                            card(&LMS, lms, lms_body(o.lms.clone())),
                            card(&GSLB, gslb, gslb_body(o.gslb.clone())),
                            card(&AUTOSCALE, autoscale, autoscale_body(o.autoscale.clone())),
                        )
                            .erase()
                    }
                }
            })}
        </Transition>
    }
}

/// "Showing the 10 worst of 42: see all" when a card's list is cut.
fn more_link(shown: usize, total: u64, href: &'static str) -> Option<impl IntoView> {
    (total > shown as u64).then(|| {
        view! {
            <p class="small more">
                {format!("The {shown} worst of {total} shown: ")}
                <a href=href>"see them all"</a>
            </p>
        }
    })
}

/// Resource locations: locations per HA state, VDAs per broker, the worst locations.
fn lhc_body(l: LhcSummary) -> AnyView {
    {
        let shown = l.worst.len();
        view! {
            <Tiles id="lhc-tiles" label="Resource locations per HA state" tiles=l.by_state.clone() class_prefix="state-"/>
            <p id="lhc-card-summary">{l.state_counts()}</p>
            <p class="muted small">{format!("VDAs: {} on cloud · {} on a secondary broker · {} unregistered",
                thousands(l.on_cloud), thousands(l.on_secondary), thousands(l.unregistered))}</p>
            {if l.worst.is_empty() {
                view! { <p id="lhc-card-ok" class="muted small">"Every resource location is Working Normally, its VDAs registered and ready for an outage."</p> }.erase()
            } else {
                view! {
                    <ul class="rl-card" id="lhc-card">
                        {l.worst.into_iter().map(|rl| view! {
                            <li data-rl=rl.id.clone()>
                                <a href=format!("/lhc/{}", rl.id)>{rl.name}</a>
                                " " <HaBadge state=rl.ha_state/>
                                <span class="muted small">{format!(" {} cloud · {} secondary · {} unregistered{}", rl.on_cloud, rl.on_secondary, rl.unregistered,
                                    if rl.warnings > 0 { " · not ready for an outage" } else { "" })}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                }.erase()
            }}
            {more_link(shown, l.needing_a_look, "/lhc?sort=state")}
        }
        .erase()
    }
}

/// Load management: servers per load band, the busiest servers, the zones' data collectors.
fn lms_body(f: LmsSummary) -> AnyView {
    {
        let collectors = f.collector_line();
        view! {
            <div id="lms-card">
                <Tiles id="lms-tiles" label="Servers per load index" tiles=f.by_load.clone() class_prefix="load-"/>
                <p>{format!("{} of {} servers up · {} connected, {} disconnected sessions · {} placed, {} refused",
                    thousands(f.servers_up.into()), thousands(f.servers_total.into()), thousands(f.sessions_connected.into()),
                    thousands(f.sessions_disconnected.into()), thousands(f.placements), thousands(f.rejected))}</p>
                <p class="small" id="lms-collectors">{collectors}
                    {(!f.zones_without_collector.is_empty()).then(|| format!(": {}", f.zones_without_collector.join(", ")))}
                </p>
                {(!f.busiest.is_empty()).then(|| view! {
                    <p class="small">"Most loaded servers:"</p>
                    <ul class="rl-card" id="lms-busiest">
                        {f.busiest.into_iter().map(|s| view! {
                            <li data-host=s.host.clone()>
                                <a class="mono" href=format!("/lms/servers/{}", s.host)>{s.host.clone()}</a>
                                <span class="muted small">{format!(" {} · load {} · {} session(s){}", s.zone, thousands(s.load.into()), s.sessions,
                                    match s.power { ServerPower::Up => "", ServerPower::Starting => " · starting", ServerPower::Down => " · down" })}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                    <p class="small more"><a href="/lms?sort=load&desc=1#server-table">"Every server by load"</a></p>
                })}
                <p class="muted small">{if f.black_hole_fix { "Black-hole fix on" } else { "Black-hole fix OFF" }}</p>
            </div>
        }
        .erase()
    }
}

/// GSLB: sites per MEP status, parents and children, the sites that need a look.
fn gslb_body(t: GslbSummary) -> AnyView {
    {
        let shown = t.worst.len();
        view! {
            <div id="gslb-card">
                <Tiles id="gslb-tiles" label="GSLB sites per MEP status" tiles=t.by_status.clone() class_prefix="mep-"/>
                <p>{format!("{} of {} parents up · {} children, {} adopted, {} orphaned · {} DNS answers",
                    t.parents_up, t.parents_total, thousands(t.children_total.into()), t.children_adopted, t.children_orphaned, thousands(t.dns_answered))}</p>
                {if t.worst.is_empty() {
                    view! { <p id="gslb-card-ok" class="muted small">"Every site is up, under its configured parent."</p> }.erase()
                } else {
                    view! {
                        <ul class="rl-card" id="gslb-worst">
                            {t.worst.into_iter().map(|s| view! {
                                <li data-site=s.name.clone()>
                                    <a href=format!("/gslb/sites/{}", s.name)>{s.name.clone()}</a> " "
                                    <span class=format!("badge {}", status_class(s.mep_status))>{status_label(s.mep_status)}</span>
                                    <span class="muted small">{format!(" {} {}", if s.role == SiteRole::Parent { "parent" } else { "child" }, s.problem)}</span>
                                </li>
                            }).collect_view()}
                        </ul>
                    }.erase()
                }}
                {more_link(shown, t.needing_a_look, "/gslb#site-table")}
            </div>
        }
        .erase()
    }
}

/// Autoscale: clusters per state, the groups that need a look, and the latest decision with
/// its reason.
fn autoscale_body(summary: AutoscaleSummary) -> AnyView {
    {
        let line = summary.line();
        let shown = summary.worst.len();
        view! {
            <div id="autoscale-card">
                <Tiles id="autoscale-tiles" label="Autoscale clusters per state" tiles=summary.by_state.clone() class_prefix="as-"/>
                <p data-col="summary">{line}</p>
                <ul class="rl-card">
                    {summary.worst.iter().map(|g| view! {
                        <li data-group=g.name.clone()>
                            <a href=format!("/autoscale/{}", g.name)>{g.name.clone()}</a>
                            " " <span class="tag">{mode_label(g.mode)}</span> " "
                            {g.zones.iter().map(|z| view! { <StateBadge state=z.state until=None/>" " }).collect_view()}
                            <span class="muted small">{format!(" {} node(s) in service{}", g.nodes_in_service(), if g.at_max { " · at its maximum" } else { "" })}</span>
                        </li>
                    }).collect_view()}
                </ul>
                {more_link(shown, summary.needing_a_look, "/autoscale#group-table")}
                <p class="small">"Last decision: "
                    {match summary.last_decision {
                        None => view! { <span class="muted">"none yet"</span> }.erase(),
                        Some((name, d)) => view! {
                            <span data-col="last-decision">{format!("{} {} in {} at {}", name, decision_label(&d.kind), d.zone, sim_time(d.at_ms))}</span>
                            <span class="muted">{format!(" — {}", d.reason)}</span>
                        }.erase(),
                    }}
                </p>
            </div>
        }
        .erase()
    }
}
