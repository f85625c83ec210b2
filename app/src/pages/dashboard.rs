//! The overview: what needs attention, the clock and its controls, counts per engine, a live
//! event feed and operator notes.

use engine::{EngineId, Role};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::clock::{clock_status, recent_events, AddNote};
use crate::components::clock_panel::ClockPanel;
use crate::components::event_table::EventTable;
use crate::components::layout::user_allows;
use crate::components::live::{is_heartbeat, use_live, Live, FEED_KEPT, FEED_LEN};
use crate::ids;
use crate::model::{ClockView, EventRow};
use crate::pages::attention::AttentionCard;
use crate::pages::autoscale::AutoscaleCard;
use crate::pages::gslb::GslbCard;
use crate::pages::lhc::LhcCard;
use crate::pages::lms::LmsCard;
use crate::pages::{action_error, LoadError};

/// The overview page.
///
/// Each card reads its own data under its own boundary, and none of them sits inside another
/// card's boundary: a component built inside a `Suspend` is built again when the server
/// re-checks the boundary, so a card there would read its data twice per render.
#[component]
pub fn Dashboard() -> impl IntoView {
    let initial_clock = Resource::new(|| (), |_| clock_status());
    let initial_events = Resource::new(|| (), |_| recent_events(FEED_KEPT as u32));
    let live = use_live();
    view! {
        <Title text="Overview"/>
        <h1>"Overview"</h1>
        <AttentionCard/>
        <Suspense fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let can_drive = user_allows(Role::Operator).await;
                match initial_clock.await {
                    Ok(clock) => view! { <ClockCards initial=clock live can_drive/> }.into_any(),
                    Err(e) => view! { <LoadError error=e/> }.into_any(),
                }
            })}
        </Suspense>
        <LhcCard/>
        <LmsCard/>
        <GslbCard/>
        <AutoscaleCard/>
        <Suspense fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match initial_events.await {
                    Ok(events) => view! { <LiveFeed events live/> }.into_any(),
                    Err(e) => view! { <LoadError error=e/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The clock with its controls, the event counts and, for operators, the note form.
#[component]
fn ClockCards(initial: ClockView, live: Live, can_drive: bool) -> impl IntoView {
    let clock = Signal::derive(move || live.clock.get().or_else(|| Some(initial.clone())));
    view! {
        <div class="grid">
            <ClockPanel clock set_clock=live.clock.write_only() can_drive/>
            <EngineCounts clock/>
        </div>
        {can_drive.then(|| view! { <NoteForm/> })}
    }
}

/// The live event feed: the stored recent events under those the stream brought since.
#[component]
fn LiveFeed(events: Vec<EventRow>, live: Live) -> impl IntoView {
    // The feed hides heartbeats unless asked, and can show one engine.
    let engine = RwSignal::new(String::new());
    let heartbeats = RwSignal::new(false);
    let feed = move || {
        let engine = engine.get();
        let heartbeats = heartbeats.get();
        let shown = |e: &EventRow| {
            (engine.is_empty() || e.engine == engine) && (heartbeats || !is_heartbeat(&e.kind))
        };
        let live_rows = live.events.get();
        live_rows
            .iter()
            .chain(events.iter())
            .filter(|e| shown(e))
            .take(FEED_LEN)
            .cloned()
            .collect::<Vec<_>>()
    };
    view! {
        <section class="card">
            <h2>
                "Live events "
                <span class="muted small">
                    {move || if live.connected.get() { "● live" } else { "○ connecting" }}
                </span>
            </h2>
            <div class="filters form inline" id="feed-filters">
                <label>
                    "Engine "
                    <select
                        name="feed-engine"
                        on:change=move |ev| engine.set(event_target_value(&ev))
                        prop:value=move || engine.get()
                    >
                        <option value="">"All"</option>
                        {EngineId::ALL
                            .iter()
                            .map(|e| view! { <option value=e.as_str()>{e.as_str()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    <input
                        type="checkbox"
                        name="feed-heartbeats"
                        prop:checked=move || heartbeats.get()
                        on:change=move |ev| heartbeats.set(event_target_checked(&ev))
                    />
                    "Show heartbeats"
                </label>
            </div>
            {move || view! { <EventTable rows=feed() id=ids::LIVE_FEED/> }}
        </section>
    }
}

#[component]
fn EngineCounts(clock: Signal<Option<ClockView>>) -> impl IntoView {
    let count = move |engine: EngineId| {
        clock
            .get()
            .and_then(|c| c.per_engine.get(engine.as_str()).copied())
            .unwrap_or(0)
    };
    view! {
        <section class="card">
            <h2>"Events this run"</h2>
            <table class="counts" id=ids::ENGINE_COUNTS>
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
                        <td class="num">{move || clock.get().map(|c| c.events_total).unwrap_or(0)}</td>
                    </tr>
                    <tr class="stored" title="Events already written to the database; the rest of the emitted events are on their way">
                        <th>"stored"</th>
                        <td class="num">{move || clock.get().map(|c| c.events_persisted).unwrap_or(0)}</td>
                    </tr>
                </tbody>
            </table>
            <p class="muted small">
                {move || clock.get().map(|c| format!("Runtime tick lag: {} ms", c.lag_ms))}
            </p>
        </section>
    }
}

#[component]
fn NoteForm() -> impl IntoView {
    let note = ServerAction::<AddNote>::new();
    view! {
        <section class="card">
            <ActionForm action=note attr:class="form inline" attr:id="note-form">
                <label>"Note on the timeline "
                    <input type="text" name="text" maxlength="500" placeholder="e.g. starting the outage drill"/>
                </label>
                <button type="submit">"Add note"</button>
            </ActionForm>
            {move || action_error(note.value().get()).map(|e| view! { <p class="error">{e}</p> })}
        </section>
    }
}
