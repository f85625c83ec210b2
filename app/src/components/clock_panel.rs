//! The clock: simulated time and speed, with speed / pause / step controls for operators.

use engine::Speed;
use leptos::prelude::*;

use crate::api::clock::{SetSpeed, StepClock};
use crate::format::{sim_offset, sim_time};
use crate::ids;
use crate::model::ClockView;

/// Shows `clock` and, for operators, the controls. Answers of the controls are written back
/// into `clock` at once (the live stream confirms them shortly after).
#[component]
pub fn ClockPanel(
    clock: Signal<Option<ClockView>>,
    set_clock: WriteSignal<Option<ClockView>>,
    /// Whether the controls are shown (operator or admin); the server checks again.
    can_drive: bool,
) -> impl IntoView {
    view! {
        <section class="card clock">
            <h2>"Simulated clock"</h2>
            <div class="clock-face">
                <span
                    id=ids::CLOCK_TIME
                    class="clock-time mono"
                    data-t-ms=move || clock.with(|c| c.as_ref().map(|c| c.t_ms.to_string()))
                    title=move || clock.with(|c| c.as_ref().map(|c| format!("+{} since the start", sim_offset(c.t_ms))))
                >
                    {move || clock.with(|c| c.as_ref().map(|c| sim_time(c.t_ms))).unwrap_or_else(|| "—".into())}
                </span>
                <span id=ids::CLOCK_SPEED class="badge">
                    {move || clock.with(|c| c.as_ref().map(|c| c.speed.to_string())).unwrap_or_default()}
                </span>
            </div>
            <p class="muted">
                {move || clock.with(|c| c.as_ref().map(|c| format!(
                    "Scenario “{}”, run {} · next due {}",
                    c.scenario,
                    c.run_id,
                    c.next_due_ms.map(sim_time).unwrap_or_else(|| "nothing".into()),
                )))}
            </p>
            {move || clock.with(|c| c.as_ref().filter(|c| c.replica == "follower").map(|c| c.follower_lag_ms)).map(|lag_ms| view! {
                <p id=ids::CLOCK_REPLICA class="muted" data-replica="follower">
                    {format!(
                        "This console follows the leading console ({} ms behind): actions are applied by the leader.",
                        lag_ms,
                    )}
                </p>
            })}
            {can_drive.then(|| view! { <ClockControls clock set_clock/> })}
        </section>
    }
}

/// The speed, pause and step controls, for operators only (the server checks the role
/// again), with the error of the last one used.
#[component]
fn ClockControls(
    clock: Signal<Option<ClockView>>,
    set_clock: WriteSignal<Option<ClockView>>,
) -> impl IntoView {
    let set_speed = ServerAction::<SetSpeed>::new();
    let step = ServerAction::<StepClock>::new();
    let error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        for answer in [set_speed.value().get(), step.value().get()]
            .into_iter()
            .flatten()
        {
            match answer {
                Ok(view) => {
                    set_clock.set(Some(view));
                    error.set(None);
                }
                Err(e) => error.set(Some(e.to_string())),
            }
        }
    });
    let current_speed = move || clock.with(|c| c.as_ref().map(|c| c.speed));
    view! {
        <div id=ids::CLOCK_CONTROLS class="controls">
            {Speed::ALL
                .into_iter()
                .map(|speed| {
                    let label = if speed == Speed::Paused { "Pause".to_owned() } else { speed.to_string() };
                    view! {
                        <button
                            data-speed=speed.to_string()
                            class:active=move || current_speed() == Some(speed)
                            on:click=move |_| { set_speed.dispatch(SetSpeed { speed }); }
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view()}
            <button id=ids::CLOCK_STEP title="Advance to the next instant at which anything is due"
                on:click=move |_| { step.dispatch(StepClock {}); }>
                "Step ▸"
            </button>
        </div>
        {move || error.get().map(|e| view! { <p class="error" id=ids::FORM_ERROR>{e}</p> })}
    }
}
