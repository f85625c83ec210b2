//! Previous / next links for server-side paged tables.

use leptos::prelude::*;

/// "Page N of M" with links; `href(page)` builds each link.
#[component]
pub fn Pager(
    page: u32,
    total: u64,
    per_page: u32,
    href: impl Fn(u32) -> String + 'static,
) -> impl IntoView {
    let pages = u32::try_from(total.div_ceil(u64::from(per_page.max(1))))
        .unwrap_or(u32::MAX)
        .max(1);
    let prev = (page > 1).then(|| href(page - 1));
    let next = (page < pages).then(|| href(page + 1));
    view! {
        <nav class="pager">
            {prev.map(|h| view! { <a href=h rel="prev">"← Previous"</a> })}
            <span>{format!("Page {page} of {pages}")}</span>
            {next.map(|h| view! { <a href=h rel="next">"Next →"</a> })}
        </nav>
    }
}
