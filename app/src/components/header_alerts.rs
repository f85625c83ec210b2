//! The header's alert badge on every page: how many alerts fire on the live run, coloured by
//! the most serious, live from the tab's stream; a click opens the alerts page.

use leptos::prelude::*;

use crate::components::live::use_live;
use crate::ids;
use crate::model::alerts::AlertCountsView;

/// The header's alert badge: `first` as the page was rendered with, then the live stream's.
#[island]
pub fn HeaderAlerts(first: AlertCountsView) -> impl IntoView {
    let live = use_live();
    let counts = Memo::new(move |_| live.clock.with(|c| c.as_ref().map_or(first, |c| c.alerts)));
    view! {
        <a
            href="/alerts"
            id=ids::HEADER_ALERTS
            class=move || format!("header-alerts sev-{}", counts.get().worst().unwrap_or("none"))
            data-count=move || counts.get().total().to_string()
            title=move || {
                let c = counts.get();
                format!("Alerts firing: {} critical, {} warning, {} info", c.critical, c.warning, c.info)
            }
        >
            {move || match counts.get().total() {
                0 => "No alerts".to_owned(),
                1 => "1 alert".to_owned(),
                n => format!("{n} alerts"),
            }}
        </a>
    }
}
