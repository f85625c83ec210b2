//! Small SVG charts drawn in `view!`: a band chart of HA states and a step chart of
//! registration counts, both over simulated time from 0 to "now".

use engine::lhc::HaState;
use leptos::prelude::*;

use crate::format::sim_time;
use engine::lhc::series::{RegistrationPoint, StatePoint};

const WIDTH: f64 = 900.0;

fn x(t_ms: u64, end_ms: u64) -> f64 {
    if end_ms == 0 {
        0.0
    } else {
        (t_ms.min(end_ms) as f64 / end_ms as f64) * WIDTH
    }
}

/// CSS class of a state (colours in the stylesheet).
pub fn state_class(state: HaState) -> String {
    format!("state-{}", state.as_str())
}

/// One band per state period, coloured by state, with a legend.
#[component]
pub fn StateBand(points: Vec<StatePoint>, now_ms: u64) -> impl IntoView {
    let height = 28.0;
    let spans: Vec<(f64, f64, HaState, u64)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let end = points.get(i + 1).map_or(now_ms, |n| n.t_ms);
            (x(p.t_ms, now_ms), x(end, now_ms), p.state, p.t_ms)
        })
        .collect();
    view! {
        <svg class="chart band" viewBox=format!("0 0 {WIDTH} {height}") preserveAspectRatio="none" role="img"
            aria-label="HA state over simulated time">
            {spans.into_iter().map(|(x0, x1, state, since)| view! {
                <rect x=x0 y="0" width=(x1 - x0).max(0.5) height=height class=state_class(state)>
                    <title>{format!("{} from {}", state.label(), sim_time(since))}</title>
                </rect>
            }).collect_view()}
        </svg>
        <div class="legend">
            {HaState::ALL.into_iter().map(|s| view! {
                <span><i class=state_class(s)></i>{s.label()}</span>
            }).collect_view()}
            <span class="muted">{format!("0 → {}", sim_time(now_ms))}</span>
        </div>
    }
}

/// Step lines of VDAs on the cloud, on a secondary broker and unregistered.
#[component]
pub fn RegistrationChart(points: Vec<RegistrationPoint>, now_ms: u64) -> impl IntoView {
    let height = 160.0;
    let top = points
        .iter()
        .map(|p| p.cloud.max(p.secondary).max(p.unregistered))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let y = |v: u32| height - (f64::from(v) / top) * (height - 8.0) - 4.0;
    let line = |pick: fn(&RegistrationPoint) -> u32| {
        let mut d = String::new();
        for (i, p) in points.iter().enumerate() {
            let px = x(p.t_ms, now_ms);
            if i == 0 {
                d.push_str(&format!("M{px:.1},{:.1}", y(pick(p))));
            } else {
                d.push_str(&format!(" H{px:.1} V{:.1}", y(pick(p))));
            }
        }
        if let Some(last) = points.last() {
            d.push_str(&format!(" H{:.1} V{:.1}", WIDTH, y(pick(last))));
        }
        d
    };
    let cloud = line(|p| p.cloud);
    let secondary = line(|p| p.secondary);
    let unregistered = line(|p| p.unregistered);
    view! {
        <svg class="chart lines" viewBox=format!("0 0 {WIDTH} {height}") preserveAspectRatio="none" role="img"
            aria-label="VDA registrations over simulated time" id="registrations-chart">
            <path d=cloud class="series-cloud" data-series="cloud"/>
            <path d=secondary class="series-secondary" data-series="secondary"/>
            <path d=unregistered class="series-unregistered" data-series="unregistered"/>
        </svg>
        <div class="legend">
            <span><i class="series-cloud"></i>"on cloud"</span>
            <span><i class="series-secondary"></i>"on secondary"</span>
            <span><i class="series-unregistered"></i>"unregistered"</span>
            <span class="muted">{format!("max {top} · 0 → {}", sim_time(now_ms))}</span>
        </div>
    }
}
