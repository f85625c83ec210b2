//! The resource location's charts: a band of HA states and step lines of registration
//! counts, over the window of simulated time the range picker names, each in a
//! [`ChartFrame`] (time axis, value axis, tooltip, drag to zoom).

use engine::lhc::HaState;
use leptos::prelude::*;

use crate::components::chart_frame::ChartFrame;
use crate::components::svg_path;
use crate::model::axis::{group_thousands, nice_top};
use crate::model::step_series::{at_instant, in_window};
use engine::lhc::series::{RegistrationPoint, StatePoint};

const WIDTH: f64 = 900.0;

/// CSS class of a state (colours in the stylesheet).
pub fn state_class(state: HaState) -> String {
    format!("state-{}", state.as_str())
}

/// One band per state period in the window, coloured by state, with a legend.
#[component]
pub fn StateBand(points: Vec<StatePoint>, from_ms: u64, to_ms: u64) -> impl IntoView {
    let height = 28.0;
    let span = to_ms.saturating_sub(from_ms).max(1) as f64;
    let x = move |t: u64| (t.clamp(from_ms, to_ms) - from_ms) as f64 / span * WIDTH;
    let shown = in_window(&points, |p| p.t_ms, |p, t| p.t_ms = t, from_ms, to_ms);
    let spans: Vec<(f64, f64, HaState)> = shown
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let end = shown.get(i + 1).map_or(to_ms, |n| n.t_ms);
            (x(p.t_ms), x(end), p.state)
        })
        .collect();
    let tooltip = Callback::new(move |t: u64| {
        at_instant(&points, |p| p.t_ms, t)
            .map_or_else(|| "no state yet".to_owned(), |p| p.state.label().to_owned())
    });
    view! {
        <ChartFrame from_ms to_ms tooltip>
            <svg class="chart band" viewBox=format!("0 0 {WIDTH} {height}") preserveAspectRatio="none" role="img"
                aria-label="HA state over simulated time" id="state-band">
                {spans.into_iter().map(|(x0, x1, state)| view! {
                    <rect x=x0 y="0" width=(x1 - x0).max(0.5) height=height class=state_class(state) data-state=state.as_str()/>
                }).collect_view()}
            </svg>
        </ChartFrame>
        <div class="legend">
            {HaState::ALL.into_iter().map(|s| view! {
                <span><i class=state_class(s)></i>{s.label()}</span>
            }).collect_view()}
        </div>
    }
}

/// Step lines of VDAs on the cloud, on a secondary broker and unregistered, in the window.
#[component]
pub fn RegistrationChart(
    points: Vec<RegistrationPoint>,
    from_ms: u64,
    to_ms: u64,
) -> impl IntoView {
    let height = 160.0;
    let span = to_ms.saturating_sub(from_ms).max(1) as f64;
    let x = move |t: u64| (t.clamp(from_ms, to_ms) - from_ms) as f64 / span * WIDTH;
    let shown = in_window(&points, |p| p.t_ms, |p, t| p.t_ms = t, from_ms, to_ms);
    let highest = shown
        .iter()
        .map(|p| p.cloud.max(p.secondary).max(p.unregistered))
        .max()
        .unwrap_or(0);
    let top = nice_top(f64::from(highest));
    let y = move |v: u32| height * (1.0 - f64::from(v) / top);
    let line = |pick: fn(&RegistrationPoint) -> u32| {
        svg_path::steps(shown.iter().map(|p| (x(p.t_ms), y(pick(p)))), WIDTH)
    };
    let cloud = line(|p| p.cloud);
    let secondary = line(|p| p.secondary);
    let unregistered = line(|p| p.unregistered);
    let tooltip = Callback::new(move |t: u64| match at_instant(&points, |p| p.t_ms, t) {
        None => "no VDA registered yet".to_owned(),
        Some(p) => format!(
            "on cloud {} · on secondary {} · unregistered {}",
            group_thousands(f64::from(p.cloud)),
            group_thousands(f64::from(p.secondary)),
            group_thousands(f64::from(p.unregistered))
        ),
    });
    view! {
        <ChartFrame from_ms to_ms y_top=top y_unit="VDAs" tooltip>
            <svg class="chart lines" viewBox=format!("0 0 {WIDTH} {height}") preserveAspectRatio="none" role="img"
                aria-label="VDA registrations over simulated time" id="registrations-chart">
                <path d=cloud class="series-cloud" data-series="cloud"/>
                <path d=secondary class="series-secondary" data-series="secondary"/>
                <path d=unregistered class="series-unregistered" data-series="unregistered"/>
            </svg>
        </ChartFrame>
        <div class="legend">
            <span><i class="series-cloud"></i>"on cloud"</span>
            <span><i class="series-secondary"></i>"on secondary"</span>
            <span><i class="series-unregistered"></i>"unregistered"</span>
            <span class="muted">"VDAs"</span>
        </div>
    }
}
