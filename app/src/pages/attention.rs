//! The overview's first card: what needs attention now, the ten most serious first, each item
//! linking to the page to look at, and how many more each engine has. It reads the overview's
//! answer, which the page re-reads when the live stream says any engine changed.

use leptos::prelude::*;

use crate::components::built_once::build_view_next;
use crate::erase::Erase;
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
                    let answer = overview.await;
                    build_view_next().await;
                    match answer.map(|o| (o.attention.clone(), o.attention_more.clone())) {
                        Err(e) => view! { <LoadError error=e/> }.erase(),
                        Ok((list, _)) if list.is_empty() => view! {
                            <p id="attention-none" class="muted">
                                "Nothing needs attention: every resource location is Working Normally, every zone has a data collector and its servers up, every GSLB site is up under its configured parent, and no autoscale cluster is at its maximum."
                            </p>
                        }.erase(),
                        Ok((list, more)) => view! {
                            <ul id="attention-list" class="attention-list">
                                {list.into_iter().map(|i| view! {
                                    <li data-severity=i.severity.as_str() data-engine=i.engine.clone() data-subject=i.subject.clone()>
                                        <span class=format!("sev sev-{}", i.severity.as_str())>{i.severity.as_str()}</span>
                                        " " <a href=i.href.clone()>{i.text.clone()}</a>
                                    </li>
                                }).collect_view()}
                            </ul>
                            {(!more.is_empty()).then(|| view! {
                                <p class="small more" id="attention-more">"And "
                                    {more.into_iter().enumerate().map(|(i, m)| view! {
                                        {(i > 0).then_some(", ")}
                                        <a href=m.href data-engine=m.engine.clone()>{format!("{} more in {}", m.count, engine_name(&m.engine))}</a>
                                    }).collect_view()}
                                </p>
                            })}
                        }.erase(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// An engine's name in a sentence.
fn engine_name(engine: &str) -> &'static str {
    match engine {
        "lhc" => "resource locations",
        "lms" => "load management",
        "gslb" => "GSLB",
        "autoscale" => "autoscale",
        _ => "alerts",
    }
}
