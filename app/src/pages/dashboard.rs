//! The overview: what needs attention, the clock and its controls, counts per engine, a card
//! per engine, a live event feed and operator notes.

use std::sync::Arc;

use engine::{EngineId, Role};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::clock::AddNote;
use crate::api::overview::overview_cards;
use crate::components::act::ActForm;
use crate::components::built_once::build_view_next;
use crate::components::clock_panel::ClockPanel;
use crate::components::feed::LiveFeed;
use crate::components::header_clock::use_clock_status;
use crate::components::layout::user_allows;
use crate::components::live::{use_live, LiveRefresh};
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::ids;
use crate::model::ClockView;
use crate::pages::attention::AttentionCard;
use crate::pages::overview_cards::EngineCards;
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The overview page.
///
/// The cards and the attention list share one answer ([`overview_cards`]: every engine read
/// once), re-read when the live stream says an engine changed. The engine cards await it under
/// one boundary, the attention list under its own, the clock under a third that does not wait
/// for the answer: a note being typed is not drawn again when an engine changes.
#[component]
pub fn Dashboard() -> impl IntoView {
    // The header's clock answer: one read of the clock per page.
    let initial_clock = use_clock_status();
    let as_of = use_as_of();
    let overview = answer(
        move || as_of.get(),
        |as_of| async move { overview_cards(as_of.at, as_of.run).await.map(Arc::new) },
    );
    view! {
        <Title text="Overview"/>
        // Read again when an engine changes, or an alert fires or resolves (a moment after the
        // events that caused it).
        <LiveRefresh engine=OVERVIEW_ENGINES/>
        <h1>"Overview"</h1>
        <PageHelp text="The whole estate at a glance: the simulated clock and its speed, what needs attention now (resource locations in HA or not HA-ready, orphaned or adopted GSLB children, servers at full load, autoscale groups at a limit, firing alerts), one card per engine with its state counts and recent changes, and the live feed of events. Every item links to the page that explains it."/>
        <AttentionCard overview/>
        <Suspense fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let can_drive = user_allows(Role::Operator).await;
                let clock = initial_clock.await;
                build_view_next().await;
                match clock {
                    Ok(clock) => view! {
                        // The clock follows the live stream in the browser: kept as it is
                        // when the page is read again.
                        <div data-keep=""><ClockCards initial=clock can_drive/></div>
                        {can_drive.then(|| view! { <NoteForm/> })}
                    }.erase(),
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                }
            })}
        </Suspense>
        <EngineCards overview/>
        <LiveFeed/>
    }
}

/// What the overview follows: every engine's events and the alerts.
const OVERVIEW_ENGINES: &str = "lhc,lms,gslb,autoscale,core,alerts";

/// The clock with its controls and the event counts, following the live stream (an island).
#[island]
fn ClockCards(initial: ClockView, can_drive: bool) -> impl IntoView {
    let live = use_live();
    // A memo, so that the panel and the counts borrow the clock instead of copying it per read.
    let clock = Signal::from(Memo::new(move |_| {
        live.clock.get().or_else(|| Some(initial.clone()))
    }));
    view! {
        <div class="grid">
            <ClockPanel clock set_clock=live.clock.write_only() can_drive/>
            <EngineCounts clock/>
        </div>
    }
}

#[component]
fn EngineCounts(clock: Signal<Option<ClockView>>) -> impl IntoView {
    let count = move |engine: EngineId| {
        clock
            .with(|c| {
                c.as_ref()
                    .and_then(|c| c.per_engine.get(engine.as_str()).copied())
            })
            .unwrap_or(0)
    };
    view! {
        <section class="card">
            <h2>"Events this run"</h2>
            <table tabindex="0" class="counts" id=ids::ENGINE_COUNTS>
                <tbody>
                    {EngineId::ALL
                        .into_iter()
                        .map(|engine| view! {
                            <tr data-engine=engine.as_str()>
                                <th>{engine.as_str()}</th>
                                <td class="num">{move || count(engine)}</td>
                            </tr>
                        })
                        .collect_view()}
                    <tr class="total">
                        <th>"all"</th>
                        <td class="num">{move || clock.with(|c| c.as_ref().map_or(0, |c| c.events_total))}</td>
                    </tr>
                    <tr class="stored" title="Events already written to the database; the rest of the emitted events are on their way">
                        <th>"stored"</th>
                        <td class="num">{move || clock.with(|c| c.as_ref().map_or(0, |c| c.events_persisted))}</td>
                    </tr>
                </tbody>
            </table>
            <p class="muted small">
                {move || clock.with(|c| c.as_ref().map(|c| format!("Runtime tick lag: {} ms", c.lag_ms)))}
            </p>
        </section>
    }
}

#[component]
fn NoteForm() -> impl IntoView {
    view! {
        <section class="card">
            <ActForm path=AddNote::PATH class="form inline" id="note-form" done="Note added." reset=true>
                <label>"Note on the timeline "
                    <input type="text" name="text" maxlength="500" placeholder="e.g. starting the outage drill"/>
                </label>
                <button type="submit">"Add note"</button>
            </ActForm>
        </section>
    }
}
