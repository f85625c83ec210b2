//! The overview's first card: what needs attention now, most serious first, each item linking
//! to the page to look at. It re-reads when the live stream says any engine changed.

use leptos::prelude::*;

use crate::api::attention::attention;
use crate::components::live::use_live_refresh;
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The "Needs attention" card.
#[component]
pub fn AttentionCard() -> impl IntoView {
    let ticks = [
        use_live_refresh("lhc"),
        use_live_refresh("lms"),
        use_live_refresh("gslb"),
        use_live_refresh("autoscale"),
    ];
    let as_of = use_as_of();
    let items = Resource::new(
        move || (ticks.map(|t| t.get()), as_of.get()),
        |(_, as_of)| attention(as_of.at, as_of.run),
    );
    view! {
        <section class="card attention" id="attention">
            <h2>"Needs attention"</h2>
            <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match items.await {
                        Err(e) => view! { <LoadError error=e/> }.into_any(),
                        Ok(list) if list.is_empty() => view! {
                            <p id="attention-none" class="muted">
                                "Nothing needs attention: every resource location is Working Normally, every zone has a data collector and its servers up, every GSLB site is up under its configured parent, and no autoscale cluster is at its maximum."
                            </p>
                        }.into_any(),
                        Ok(list) => view! {
                            <ul id="attention-list" class="attention-list">
                                {list.into_iter().map(|i| view! {
                                    <li data-severity=i.severity.as_str() data-engine=i.engine.clone() data-subject=i.subject.clone()>
                                        <span class=format!("sev sev-{}", i.severity.as_str())>{i.severity.as_str()}</span>
                                        " " <a href=i.href.clone()>{i.text.clone()}</a>
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}
