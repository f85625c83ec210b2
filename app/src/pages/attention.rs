//! The overview's first card: what needs attention now, most serious first, each item linking
//! to the page to look at. It reads the overview's answer, which the page re-reads when the
//! live stream says any engine changed.

use leptos::prelude::*;

use crate::pages::overview_cards::OverviewAnswer;
use crate::pages::LoadError;

/// The "Needs attention" card.
#[component]
pub fn AttentionCard(overview: OverviewAnswer) -> impl IntoView {
    view! {
        <section class="card attention" id="attention">
            <h2>"Needs attention"</h2>
            <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match overview.await.map(|o| o.attention) {
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
