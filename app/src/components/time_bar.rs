//! The time bar of estate pages: a slider over the run (and a typed instant, and the run to
//! look at) that shows the estate as it was at that instant, and the "as of …, read-only"
//! banner with its way back to live.

use engine::SimTime;
use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::answer::answer;
use crate::api::time_travel::time_extent;
use crate::erase::Erase;
use crate::format::{sim_offset, sim_time};
use crate::model::TimeRange;
use crate::time_travel::{use_as_of, AsOf};

/// Slider steps, simulated ms (one simulated minute).
const SLIDER_STEP_MS: u64 = 60_000;

/// Whether the page at `path` shows the estate (and so can show the past).
pub fn shows_estate(path: &str) -> bool {
    matches!(
        path,
        "/lhc" | "/lms" | "/lms/store" | "/gslb" | "/gslb/links" | "/autoscale"
    ) || path.starts_with("/lhc/")
        || path.starts_with("/lms/servers/")
        || path.starts_with("/gslb/sites/")
        || (path.starts_with("/autoscale/") && !path.ends_with("/edit"))
}

/// The time bar (estate pages only; see [`shows_estate`]).
#[component]
pub fn TimeBar() -> impl IntoView {
    let location = use_location();
    let as_of = use_as_of();
    move || {
        shows_estate(&location.pathname.get()).then(|| {
            // Read only where the bar shows: pages are rendered on the server alone, so no
            // browser code awaits it after its page has gone.
            let range = answer(move || as_of.get().run, time_extent);
            view! {
                <Transition fallback=|| ()>
                    {move || {
                        // Tracked: the bar and its banner follow the URL's instant.
                        let shown = as_of.get();
                        let path = location.pathname.get();
                        Suspend::new(async move {
                        match range.await {
                            Ok(range) => view! { <Bar range as_of=shown path/> }.erase(),
                            Err(e) => view! {
                                <p class="error time-bar" id="time-bar-error">{e.to_string()}</p>
                            }.erase(),
                        }
                    })
                    }}
                </Transition>
            }
        })
    }
}

#[component]
fn Bar(range: TimeRange, as_of: AsOf, path: String) -> impl IntoView {
    let shown_ms = as_of
        .at
        .as_deref()
        .and_then(|a| a.parse::<SimTime>().ok())
        .map_or(range.end_ms, SimTime::as_millis)
        .min(range.end_ms);
    let live_link = path.clone();
    view! {
        {as_of.is_past().then(|| view! {
            <div class="as-of" id="as-of" role="status">
                <strong>{format!("As of {}", as_of.at.clone().unwrap_or_default())}</strong>
                {format!(" (run {}) · read-only: the estate as it was then; operator controls are hidden. ", range.run_id)}
                <a id="back-to-live" href=live_link>"Back to live"</a>
            </div>
        })}
        // Folded while live, so the page's own controls come first when tabbing through it;
        // open while it shows the past.
        <details class="time-travel" id="time-travel" open=as_of.is_past()>
        <summary>
            "Time travel "
            <span class="muted small">{if as_of.is_past() { "(showing the past)" } else { "(showing live)" }}</span>
        </summary>
        <form class="time-bar" id="time-bar" method="get" action=path data-in-place="">
            <label class="slider">
                <span class="muted small">"Time travel"</span>
                <input type="range" id="time-slider" min="0" max=range.end_ms.to_string()
                    step=SLIDER_STEP_MS.to_string() value=shown_ms.to_string()
                    aria-label="Simulated instant to view"
                    data-offset-for="time-at" data-submit-on-change=""/>
            </label>
            <input type="text" name="at" id="time-at" size="14" placeholder="D+HH:MM:SS"
                value=sim_offset(shown_ms) aria-label="Instant (D+HH:MM:SS or Day N HH:MM:SS)"/>
            <select name="run" id="time-run" aria-label="Run">
                {range.runs.iter().map(|r| view! {
                    <option value=r.id.to_string() selected=r.id == range.run_id>{r.label.clone()}</option>
                }).collect_view()}
            </select>
            <button type="submit">"View"</button>
            <span class="muted small" title=format!("0+00:00:00 – {}", sim_offset(range.end_ms))>{format!("{} – {}", sim_time(0), sim_time(range.end_ms))}</span>
        </form>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::shows_estate;

    #[test]
    fn only_estate_pages_travel_in_time() {
        let table = [
            ("/lhc", true),
            ("/lhc/rl-paris", true),
            ("/lms", true),
            ("/lms/servers/XA-01", true),
            ("/lms/store", true),
            ("/lms/evaluators", false),
            ("/gslb", true),
            ("/gslb/sites/gslb-paris", true),
            ("/gslb/links", true),
            ("/gslb/cli", false),
            ("/autoscale", true),
            ("/autoscale/web", true),
            ("/autoscale/web/edit", false),
            ("/", false),
            ("/history", false),
        ];
        for (path, want) in table {
            assert_eq!(shows_estate(path), want, "{path}");
        }
    }
}
