//! SVG charts of the load-management pages: a server's load index stacked by rule
//! contribution, and sessions per server over time (the black-hole A/B).

use engine::lms::views::AbRun;
use engine::scenario::lms::LoadFormula;
use leptos::prelude::*;

use crate::format::sim_time;
use crate::model::lms::{contributions, LoadSample};

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
    now_ms: u64,
) -> impl IntoView {
    let start = samples.first().map_or(0, |s| s.t_ms);
    let span = now_ms.saturating_sub(start).max(1) as f64;
    let x = move |t: u64| (t.saturating_sub(start) as f64 / span) * WIDTH;
    let y = |v: f64| HEIGHT - (v.clamp(0.0, 10_000.0) / 10_000.0) * (HEIGHT - 4.0);
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
    let areas: Vec<(char, String)> = codes
        .iter()
        .enumerate()
        .map(|(i, code)| {
            let top: Vec<(f64, f64)> = stacks.iter().map(|(t, c)| (x(*t), y(c[i].1))).collect();
            let bottom: Vec<(f64, f64)> = stacks
                .iter()
                .map(|(t, c)| (x(*t), y(if i == 0 { 0.0 } else { c[i - 1].1 })))
                .collect();
            let mut d = String::new();
            for (j, (px, py)) in top.iter().enumerate() {
                d.push_str(&format!(
                    "{}{px:.1},{py:.1} ",
                    if j == 0 { "M" } else { "L" }
                ));
            }
            for (px, py) in bottom.iter().rev() {
                d.push_str(&format!("L{px:.1},{py:.1} "));
            }
            d.push('Z');
            (*code, d)
        })
        .collect();
    let line = |pick: &dyn Fn(&LoadSample) -> Option<u32>| {
        let mut d = String::new();
        for s in &samples {
            if let Some(v) = pick(s) {
                d.push_str(&format!(
                    "{}{:.1},{:.1} ",
                    if d.is_empty() { "M" } else { "L" },
                    x(s.t_ms),
                    y(f64::from(v))
                ));
            }
        }
        d
    };
    let index = line(&|s| Some(s.load));
    let dc = line(&|s| s.dc_load);
    let empty = samples.is_empty();
    view! {
        {empty.then(|| view! { <p class="muted">"No load samples yet (one per server every sample interval)."</p> })}
        <svg class="chart stacked" viewBox=format!("0 0 {WIDTH} {HEIGHT}") preserveAspectRatio="none" role="img"
            aria-label="Load index by rule contribution" id="load-chart">
            {areas.into_iter().map(|(code, d)| view! { <path d=d class=rule_class(code) data-rule=code.to_string()/> }).collect_view()}
            <path d=index class="index-line" data-series="load"/>
            <path d=dc class="dc-line" data-series="dc_load"/>
        </svg>
        <div class="legend">
            {codes.into_iter().map(|c| view! { <span><i class=rule_class(c)></i>{format!("{c}: {}", rule_label(c))}</span> }).collect_view()}
            <span><i class="index-line"></i>"load index"</span>
            <span><i class="dc-line"></i>"data collector's view"</span>
            <span class="muted">{format!("0 – 10000 · {} → {}", sim_time(start), sim_time(now_ms))}</span>
        </div>
    }
}

/// Sessions per server over the A/B run, one line per server (the rebooted one highlighted).
#[component]
pub fn SessionLines(run: AbRun, rebooted: String) -> impl IntoView {
    let end = run.series.last().map_or(1, |p| p.t_ms).max(1) as f64;
    let top = run
        .series
        .iter()
        .flat_map(|p| p.sessions.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let x = |t: u64| (t as f64 / end) * WIDTH;
    let y = |v: u32| HEIGHT - (f64::from(v) / f64::from(top)) * (HEIGHT - 8.0) - 4.0;
    let lines: Vec<(String, String, bool)> = run
        .servers
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let mut d = String::new();
            for p in &run.series {
                let v = p.sessions.get(i).copied().unwrap_or(0);
                d.push_str(&format!(
                    "{}{:.1},{:.1} ",
                    if d.is_empty() { "M" } else { "L" },
                    x(p.t_ms),
                    y(v)
                ));
            }
            (host.clone(), d, host.eq_ignore_ascii_case(&rebooted))
        })
        .collect();
    view! {
        <svg class="chart lines" viewBox=format!("0 0 {WIDTH} {HEIGHT}") preserveAspectRatio="none" role="img"
            aria-label="Sessions per server" data-fix=run.fix.to_string()>
            {lines.iter().enumerate().map(|(i, (host, d, hot))| view! {
                <path d=d.clone() class=format!("series-{}", i % SERIES) class:hot=*hot data-server=host.clone()/>
            }).collect_view()}
        </svg>
        <div class="legend">
            {lines.into_iter().enumerate().map(|(i, (host, _, hot))| view! {
                <span class:hot=hot><i class=format!("series-{}", i % SERIES)></i>{host}</span>
            }).collect_view()}
            <span class="muted">{format!("0 – {top} sessions · storm start → +{}", sim_time(end as u64))}</span>
        </div>
    }
}
