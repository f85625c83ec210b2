//! The tab bar under a section's title (LMS, GSLB): one link per page, the current one marked.

use leptos::prelude::*;

/// A section's tabs: `(href, label)` pairs in order; the tab whose `href` is `current` is
/// marked active.
#[component]
pub fn SectionTabs(
    tabs: &'static [(&'static str, &'static str)],
    current: &'static str,
) -> impl IntoView {
    view! {
        <nav class="tabs">
            {tabs.iter().map(|&(href, label)| view! {
                <a href=href class:active=current == href>{label}</a>
            }).collect_view()}
        </nav>
    }
}
