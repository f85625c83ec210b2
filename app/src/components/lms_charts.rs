//! SVG charts of the load-management pages: a server's load index stacked by rule
//! contribution over the range picker's window, and sessions per server over time (the
//! black-hole A/B, both sides on one scale). Each is drawn in a [`ChartFrame`].

use engine::lms::config::LoadFormula;
use engine::lms::views::AbRun;
use leptos::prelude::*;

use crate::components::chart_frame::{ChartFrame, TimeAxis};
use crate::components::svg_path;
use crate::model::axis::group_thousands;
use crate::model::step_series::{at_instant, in_window};
use engine::lms::series::{contributions, LoadSample};

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 200.0;
/// Stroke / fill classes cycled for series.
const SERIES: usize = 8;

/// Colour class of a rule code.
fn rule_class(code: char) -> String {
    format!("rule rule-{code}")
}

/// Label of a rule code.
pub fn rule_label(code: char) -> &'static str {
    match code {
        'o' => "Application User Load",
        'b' => "Server User Load",
        'd' => "Load Throttling",
        '1' => "CPU Utilization",
        '2' => "Context Switches",
        '3' => "Memory Usage",
        '4' => "Page Faults",
        '5' => "Scheduling",
        '6' => "Page Swaps",
        '7' => "Disk Data I/O",
        '8' => "Disk Operations",
        '9' => "IP Range",
        _ => "rule",
    }
}

/// The load index over time, stacked by each rule's contribution (the highest rule in full,
/// the others at 5 %), with the data collector's view as a dashed line.
#[component]
pub fn StackedLoadChart(
    samples: Vec<LoadSample>,
    formula: LoadFormula,
    /// Start of the window, simulated ms.
    from_ms: u64,
    /// End of the window.
    to_ms: u64,
) -> impl IntoView {
    let all = samples;
    let samples = in_window(&all, |s| s.t_ms, |s, t| s.t_ms = t, from_ms, to_ms);
    let span = to_ms.saturating_sub(from_ms).max(1) as f64;
    let x = move |t: u64| (t.clamp(from_ms, to_ms) - from_ms) as f64 / span * WIDTH;
    // The y axis fits the data (whole thousands, at least 1000, at most the 10000 cap).
    let highest = samples
        .iter()
        .map(|s| s.load.max(s.dc_load.unwrap_or(0)))
        .max()
        .unwrap_or(0);
    let top = f64::from((highest.div_ceil(1000) * 1000).clamp(1000, 10_000));
    let y = move |v: f64| HEIGHT * (1.0 - v.clamp(0.0, top) / top);
    let mut codes: Vec<char> = samples
        .iter()
        .flat_map(|s| s.rules.iter().map(|r| r.0))
        .collect();
    codes.sort_unstable();
    codes.dedup();
    // Cumulative stack per sample in a fixed code order.
    let stacks: Vec<(u64, Vec<(char, f64)>)> = samples
        .iter()
        .map(|s| {
            let parts = contributions(&s.rules, formula);
            let mut acc = 0.0;
            let cumulative = codes
                .iter()
                .map(|c| {
                    acc += parts.iter().find(|p| p.0 == *c).map_or(0.0, |p| p.1);
                    (*c, acc)
                })
                .collect();
            (s.t_ms, cumulative)
        })
        .collect();
    // Steps: a sample holds until the next one, the last one until now.
    let areas: Vec<(char, String)> = codes
        .iter()
        .enumerate()
        .map(|(i, code)| {
            let top: Vec<(f64, f64)> = stacks.iter().map(|(t, c)| (x(*t), y(c[i].1))).collect();
            let bottom: Vec<f64> = stacks
                .iter()
                .map(|(_, c)| y(if i == 0 { 0.0 } else { c[i - 1].1 }))
                .collect();
            (*code, svg_path::step_area(&top, &bottom, WIDTH))
        })
        .collect();
    let line = |pick: &dyn Fn(&LoadSample) -> Option<u32>| {
        svg_path::steps(
            samples
                .iter()
                .filter_map(|s| pick(s).map(|v| (x(s.t_ms), y(f64::from(v))))),
            WIDTH,
        )
    };
    let index = line(&|s| Some(s.load));
    let dc = line(&|s| s.dc_load);
    let empty = samples.is_empty();
    let tooltip = Callback::new(move |t: u64| match at_instant(&all, |s| s.t_ms, t) {
        None => "no sample yet".to_owned(),
        Some(s) => {
            let rules = s
                .rules
                .iter()
                .map(|(code, load)| {
                    format!("{}: {}", rule_label(*code), group_thousands(load.round()))
                })
                .collect::<Vec<_>>()
                .join(", ");
            let dc = s
                .dc_load
                .map_or_else(|| "none".to_owned(), |v| group_thousands(f64::from(v)));
            format!(
                "load index {} (data collector's view {dc}) · {rules}",
                group_thousands(f64::from(s.load))
            )
        }
    });
    view! {
        {empty.then(|| view! { <p class="muted">"No load samples in this range (one per server every sample interval)."</p> })}
        <ChartFrame from_ms to_ms y_top=top y_unit="load index" tooltip>
            <svg class="chart stacked" viewBox=format!("0 0 {WIDTH} {HEIGHT}") preserveAspectRatio="none" role="img"
                aria-label="Load index by rule contribution" id="load-chart">
                {areas.into_iter().map(|(code, d)| view! { <path d=d class=rule_class(code) data-rule=code.to_string()/> }).collect_view()}
                <path d=index class="index-line" data-series="load"/>
                <path d=dc class="dc-line" data-series="dc_load"/>
            </svg>
        </ChartFrame>
        <div class="legend">
            {codes.into_iter().map(|c| view! { <span><i class=rule_class(c)></i>{format!("{c}: {}", rule_label(c))}</span> }).collect_view()}
            <span><i class="index-line"></i>"load index"</span>
            <span><i class="dc-line"></i>"data collector's view"</span>
        </div>
    }
}

/// The highest session count of any server in either run: the one scale both sides of the
/// A/B are drawn on.
pub fn sessions_top(runs: &[&AbRun]) -> u32 {
    runs.iter()
        .flat_map(|r| r.series.iter())
        .flat_map(|p| p.sessions.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1)
}

/// Sessions per server over the A/B run, one line per server (the rebooted one highlighted),
/// on a value axis from 0 to `top` (the same for both sides).
#[component]
pub fn SessionLines(run: AbRun, rebooted: String, top: u32) -> impl IntoView {
    let end_ms = run.series.last().map_or(1, |p| p.t_ms).max(1);
    let end = end_ms as f64;
    let x = move |t: u64| (t as f64 / end) * WIDTH;
    let y = move |v: u32| HEIGHT * (1.0 - f64::from(v) / f64::from(top));
    let lines: Vec<(String, String, bool)> = run
        .servers
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let d = svg_path::line(
                run.series
                    .iter()
                    .map(|p| (x(p.t_ms), y(p.sessions.get(i).copied().unwrap_or(0)))),
            );
            (host.clone(), d, host.eq_ignore_ascii_case(&rebooted))
        })
        .collect();
    let paths = lines
        .iter()
        .enumerate()
        .map(|(i, (host, d, hot))| view! {
            <path d=d.clone() class=format!("series-{}", i % SERIES) class:hot=*hot data-server=host.clone()/>
        })
        .collect_view();
    let legend = lines
        .into_iter()
        .enumerate()
        .map(|(i, (host, _, hot))| view! {
            <span class:hot=hot data-server=host.clone()><i class=format!("series-{}", i % SERIES)></i>{host.clone()}{hot.then_some(" (rebooted)")}</span>
        })
        .collect_view();
    let servers = run.servers.clone();
    let series = run.series.clone();
    let tooltip = Callback::new(move |t: u64| match at_instant(&series, |p| p.t_ms, t) {
        None => String::new(),
        Some(p) => servers
            .iter()
            .zip(&p.sessions)
            .map(|(host, n)| format!("{host} {n}"))
            .collect::<Vec<_>>()
            .join(" · "),
    });
    view! {
        <ChartFrame from_ms=0 to_ms=end_ms y_top=f64::from(top) y_unit="sessions" axis=TimeAxis::Elapsed tooltip>
            <svg class="chart lines" viewBox=format!("0 0 {WIDTH} {HEIGHT}") preserveAspectRatio="none" role="img"
                aria-label="Sessions per server" data-fix=run.fix.to_string() data-top=top.to_string()>
                {paths}
            </svg>
        </ChartFrame>
        <div class="legend">
            {legend}
            <span class="muted">"sessions since the storm began, the same scale on both sides"</span>
        </div>
    }
}
