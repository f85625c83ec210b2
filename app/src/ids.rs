//! Element ids and test hooks shared with the browser tests in `end2end/` (keep both in step).

/// Simulated time on the dashboard.
pub const CLOCK_TIME: &str = "clock-time";
/// Current speed on the dashboard.
pub const CLOCK_SPEED: &str = "clock-speed";
/// The speed and step buttons (present for operators and admins only).
pub const CLOCK_CONTROLS: &str = "clock-controls";
/// The single-step button.
pub const CLOCK_STEP: &str = "clock-step";
/// The clock panel's line saying this console follows another (replicas).
pub const CLOCK_REPLICA: &str = "clock-replica";
/// The live event feed.
pub const LIVE_FEED: &str = "live-feed";
/// The per-engine counters.
pub const ENGINE_COUNTS: &str = "engine-counts";
/// The history table.
pub const HISTORY_TABLE: &str = "history-table";
/// The count of events on the history page shown (`data-rows`).
pub const HISTORY_SHOWN: &str = "history-shown";
/// The history filter form.
pub const HISTORY_FILTERS: &str = "history-filters";
/// The page's content (`main`), where the skip link leads.
pub const CONTENT: &str = "content";
/// The signed-in user's name in the header.
pub const CURRENT_USER: &str = "current-user";
/// A form's error message.
pub const FORM_ERROR: &str = "form-error";
/// Marker set on `<body>` once the bundle has hydrated (tests wait for it).
pub const HYDRATED_ATTR: &str = "data-hydrated";
/// The compact clock in the header of every page.
pub const HEADER_CLOCK: &str = "header-clock";
/// The header clock's speed (a control for operators, a badge for viewers).
pub const HEADER_SPEED: &str = "header-speed";
/// The header's alert badge (a link to the alerts page).
pub const HEADER_ALERTS: &str = "header-alerts";
