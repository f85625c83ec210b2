//! The compact clock in the header of every page: the simulated time and speed, live from the
//! tab's stream, and for operators a speed control (the server checks the role again).

use engine::{Role, Speed};
use leptos::prelude::*;

use crate::api::clock::{clock_status, SetSpeed};
use crate::components::layout::CurrentUser;
use crate::components::live::use_live;
use crate::error::AppError;
use crate::format::{sim_offset, sim_time};
use crate::ids;
use crate::model::ClockView;

/// The clock as the page was rendered with, read once per page load and shared through the
/// context ([`provide_clock_status`]): the header shows it, and so does the overview's clock
/// card, until the live stream says more.
#[derive(Clone, Copy)]
struct ClockAnswer(Resource<Result<ClockView, AppError>>);

/// Reads the clock for the page and puts the answer in the context (the layout calls it).
pub fn provide_clock_status() {
    provide_context(ClockAnswer(Resource::new(|| (), |_| clock_status())));
}

/// The clock answer of [`provide_clock_status`]; a read of its own outside the layout.
pub fn use_clock_status() -> Resource<Result<ClockView, AppError>> {
    use_context::<ClockAnswer>()
        .map(|answer| answer.0)
        .unwrap_or_else(|| Resource::new(|| (), |_| clock_status()))
}

/// The header's clock.
#[component]
pub fn HeaderClock(user: CurrentUser) -> impl IntoView {
    let live = use_live();
    // What the server rendered with, until the stream says more.
    let initial = use_clock_status();
    let set_speed = ServerAction::<SetSpeed>::new();
    Effect::new(move |_| {
        if let Some(Ok(view)) = set_speed.value().get() {
            live.clock.set(Some(view));
        }
    });
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                let can_drive = user.allows(Role::Operator).await;
                let Ok(first) = initial.await else {
                    return ().into_any();
                };
                let clock = Signal::derive(move || live.clock.get().unwrap_or_else(|| first.clone()));
                let speed = move || clock.get().speed;
                view! {
                    <div class="header-clock" id=ids::HEADER_CLOCK>
                        <time class="mono" data-t-ms=move || clock.get().t_ms.to_string()
                            title=move || format!("Simulated time, +{} since the start", sim_offset(clock.get().t_ms))>
                            {move || sim_time(clock.get().t_ms)}
                        </time>
                        {if can_drive {
                            view! {
                                <select
                                    id=ids::HEADER_SPEED
                                    aria-label="Clock speed"
                                    prop:value=move || speed().as_str().to_owned()
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
                            .into_any()
                        } else {
                            view! { <span class="badge" id=ids::HEADER_SPEED>{move || speed().to_string()}</span> }.into_any()
                        }}
                    </div>
                }
                .into_any()
            })}
        </Transition>
    }
}
