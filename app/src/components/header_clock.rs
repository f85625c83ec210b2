//! The compact clock in the header of every page: the simulated time and speed, live from the
//! tab's stream, and for operators a speed control (the server checks the role again).

use engine::Speed;
use leptos::prelude::*;

use crate::answer::{answer, Answer};
use crate::api::clock::{clock_status, SetSpeed};
use crate::components::live::use_live;
use crate::erase::Erase;
use crate::format::{sim_offset, sim_time};
use crate::ids;
use crate::model::ClockView;

/// The clock as the page was rendered with, read once per page load and shared through the
/// context ([`provide_clock_status`]): the header shows it, and so does the overview's clock
/// card, until the live stream says more.
#[derive(Clone, Copy)]
struct ClockAnswer(Answer<ClockView>);

/// Reads the clock for the page and puts the answer in the context (the layout calls it).
pub fn provide_clock_status() {
    provide_context(ClockAnswer(answer(|| (), |_| clock_status())));
}

/// The clock answer of [`provide_clock_status`]; a read of its own outside the layout.
pub fn use_clock_status() -> Answer<ClockView> {
    use_context::<ClockAnswer>()
        .map(|answer| answer.0)
        .unwrap_or_else(|| answer(|| (), |_| clock_status()))
}

/// The header's clock: `first` as the page was rendered with, then the live stream's; for an
/// operator (`can_drive`) a speed control.
#[island]
pub fn HeaderClock(first: ClockView, can_drive: bool) -> impl IntoView {
    let live = use_live();
    // A memo, so that each read borrows the clock instead of copying it.
    let clock = Memo::new(move |_| live.clock.get().unwrap_or_else(|| first.clone()));
    let speed = Signal::derive(move || clock.with(|c| c.speed));
    view! {
        <div class="header-clock" id=ids::HEADER_CLOCK>
            <time class="mono" data-t-ms=move || clock.with(|c| c.t_ms.to_string())
                title=move || format!("Simulated time, +{} since the start", sim_offset(clock.with(|c| c.t_ms)))>
                {move || sim_time(clock.with(|c| c.t_ms))}
            </time>
            {if can_drive {
                view! { <SpeedSelect speed/> }.erase()
            } else {
                view! { <span class="badge" id=ids::HEADER_SPEED>{move || speed.get().to_string()}</span> }.erase()
            }}
        </div>
    }
}

/// The operator's speed control: the answer is written into the tab's clock at once (the live
/// stream confirms it shortly after).
#[component]
fn SpeedSelect(speed: Signal<Speed>) -> impl IntoView {
    let live = use_live();
    let set_speed = ServerAction::<SetSpeed>::new();
    Effect::new(move |_| {
        if let Some(Ok(view)) = set_speed.value().get() {
            live.clock.set(Some(view));
        }
    });
    view! {
        <select
            id=ids::HEADER_SPEED
            aria-label="Clock speed"
            prop:value=move || speed.get().as_str().to_owned()
            on:change=move |ev| {
                if let Ok(speed) = event_target_value(&ev).parse::<Speed>() {
                    set_speed.dispatch(SetSpeed { speed });
                }
            }
        >
            {Speed::ALL
                .into_iter()
                .map(|s| view! { <option value=s.as_str()>{s.to_string()}</option> })
                .collect_view()}
        </select>
    }
}
