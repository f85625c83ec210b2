//! The three documented scenarios of SPEC §3, replayed step by step on their documented
//! topology (SiteP1, SiteP2, SiteP3, Child_Site1) on a fresh engine: each step shows what the
//! documentation expects, the engine's events, and the topology after it.

use engine::gslb::views::GuidedReplay;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::gslb::gslb_guided;
use crate::components::event_table::ReasonTable;
use crate::components::filter_form::FilterForm;
use crate::components::page_help::PageHelp;
use crate::components::topology::TopologyGraph;
use crate::erase::Erase;
use crate::error::AppError;
use crate::format::sim_time;
use crate::model::gslb_picture::{Picture, PictureOptions};
use crate::model::EventRow;
use crate::pages::gslb::GslbNav;

/// The guided replay page. Its buttons are a `GET` form of the page (`?scenario=3`): the
/// replay runs on the server (audited, for operators) and has an address to come back to.
#[component]
pub fn GslbGuidedPage() -> impl IntoView {
    let query = use_query_map();
    let asked = Memo::new(move |_| query.read().get("scenario"));
    let replay = answer(
        move || asked.get(),
        |asked| async move {
            match asked {
                None => Ok(None),
                Some(n) => {
                    let number = n.trim().parse::<u8>().map_err(|_| {
                        AppError::invalid("scenario", format!("must be 1, 2 or 3; got \"{n}\""))
                    })?;
                    gslb_guided(number).await.map(Some)
                }
            }
        },
    );
    let titles = [
        (1u8, "1. A parent goes down: its first backup adopts the child; the child returns when the parent is back"),
        (2, "2. Only the P1-P2 link breaks: the child rejects P2 (its parent is still up from its view)"),
        (3, "3. Partitions: P3 adopts, then P2 (preferred) takes the child over from P3"),
    ];
    view! {
        <Title text="GSLB documented scenarios"/>
        <h1>"GSLB: documented scenarios"</h1>
        <PageHelp text="The documented GSLB examples, replayed step by step on a topology of their own (the live estate is not touched): each step states what the documentation says should happen, then shows what the engine did."/>
        <GslbNav current="/gslb/guided"/>
        <p class="muted">"Each replay runs on its own engine with the documented topology: the live topology is not touched. Operators only; each run is audited."</p>
        <FilterForm class="controls" id="guided-buttons">
            {titles.into_iter().map(|(n, t)| view! {
                <button type="submit" name="scenario" value=n.to_string() data-scenario=n.to_string()>{t}</button>
            }).collect_view()}
        </FilterForm>
        <Suspense fallback=|| view! { <p class="muted">"Replaying…"</p> }>
            {move || Suspend::new(async move {
                match replay.await {
                    Err(e) => view! { <p class="error" id="action-error">{e.to_string()}</p> }.erase(),
                    Ok(None) => ().erase(),
                    Ok(Some(r)) => view! { <Replay replay=r/> }.erase(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Replay(replay: GuidedReplay) -> impl IntoView {
    view! {
        <section class="card" id="guided-replay" data-scenario=replay.number.to_string()>
            <h2>{replay.title.clone()}</h2>
            <details><summary>"Documented topology (CLI)"</summary><pre class="mono small">{replay.cli.clone()}</pre></details>
        </section>
        {replay.steps.into_iter().enumerate().map(|(i, step)| {
            let rows: Vec<EventRow> = step.events.iter().map(EventRow::from).collect();
            view! {
                <section class="card guided-step" data-step=i.to_string()>
                    <h3>{format!("Step {} at {}: {}", i + 1, sim_time(step.at_ms), step.title)}</h3>
                    <p class="expected"><strong>"Documented: "</strong>{step.expected.clone()}</p>
                    <TopologyGraph picture=Picture::of(&step.topology, &PictureOptions::default())/>
                    <ReasonTable rows/>
                </section>
            }
        }).collect_view()}
    }
}
