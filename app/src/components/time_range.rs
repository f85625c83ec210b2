//! The time range every chart shows, shared by all pages through the URL: `?range=15m` (a
//! preset: the last 15 minutes, 1 hour, 6 hours, 24 hours or 7 days of simulated time, or
//! `all`) or `?from=…&to=…` (a custom range, `Day N HH:MM:SS` or `D+HH:MM:SS`, which dragging
//! across a chart also sets). Without either, charts show the last hour.

use engine::SimTime;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use crate::components::filter_form::FilterForm;
use crate::format::sim_time;

const MIN: u64 = 60_000;

/// The presets: URL value, label, length in simulated ms.
pub const PRESETS: [(&str, &str, u64); 5] = [
    ("15m", "15 m", 15 * MIN),
    ("1h", "1 h", 60 * MIN),
    ("6h", "6 h", 360 * MIN),
    ("24h", "24 h", 1_440 * MIN),
    ("7d", "7 d", 10_080 * MIN),
];

/// The preset shown when the URL names none.
pub const DEFAULT_PRESET: &str = "1h";

/// Query parameters the range owns (every other parameter is kept when it changes).
const OWN_PARAMS: [&str; 3] = ["range", "from", "to"];

/// A time range of the charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeRange {
    /// The last `ms` of simulated time before "now".
    Last {
        /// The preset's URL value.
        key: &'static str,
        /// Its length.
        ms: u64,
    },
    /// From the start of the run to now.
    All,
    /// Between two instants (each clamped to the run).
    Custom {
        /// Start, simulated ms.
        from_ms: u64,
        /// End, simulated ms.
        to_ms: u64,
    },
}

impl Default for TimeRange {
    fn default() -> Self {
        Self::preset(DEFAULT_PRESET).unwrap_or(Self::All)
    }
}

/// An instant as the URL gives it: `Day N HH:MM:SS`, `D+HH:MM:SS[.mmm]` (a `+` may arrive
/// as a space) or milliseconds.
fn parse_instant(text: &str) -> Option<u64> {
    let text = text.trim();
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok();
    }
    text.replace('+', " ").parse::<SimTime>().ok().map(|t| t.0)
}

impl TimeRange {
    /// The range a URL names; an unknown preset or an unreadable custom range falls back to
    /// the default preset.
    pub fn from_query(range: Option<&str>, from: Option<&str>, to: Option<&str>) -> Self {
        if let (Some(from_ms), Some(to_ms)) =
            (from.and_then(parse_instant), to.and_then(parse_instant))
        {
            if from_ms < to_ms {
                return Self::Custom { from_ms, to_ms };
            }
        }
        match range.map(str::trim) {
            Some("all") => Self::All,
            Some(key) => Self::preset(key).unwrap_or_default(),
            None => Self::default(),
        }
    }

    /// The preset of that URL value.
    fn preset(key: &str) -> Option<Self> {
        PRESETS
            .iter()
            .find(|p| p.0 == key)
            .map(|p| Self::Last { key: p.0, ms: p.2 })
    }

    /// The URL value of the preset (`"all"`, `"custom"` for a custom range).
    pub fn key(&self) -> &'static str {
        match self {
            Self::Last { key, .. } => key,
            Self::All => "all",
            Self::Custom { .. } => "custom",
        }
    }

    /// The window `[from, to]` in simulated ms when the run is at `now_ms` (never empty:
    /// at least 1 ms, and never past now).
    pub fn window(&self, now_ms: u64) -> (u64, u64) {
        let (from, to) = match *self {
            Self::Last { ms, .. } => (now_ms.saturating_sub(ms), now_ms),
            Self::All => (0, now_ms),
            Self::Custom { from_ms, to_ms } => (from_ms.min(now_ms), to_ms.min(now_ms)),
        };
        (from.min(to.saturating_sub(1)), to.max(1))
    }
}

/// The range the current URL names.
pub fn use_time_range() -> Memo<TimeRange> {
    let query = use_query_map();
    Memo::new(move |_| {
        let q = query.read();
        TimeRange::from_query(
            q.get("range").as_deref(),
            q.get("from").as_deref(),
            q.get("to").as_deref(),
        )
    })
}

/// `%`-encodes what a query value may not hold as is.
fn encode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The current page's address with the range set to `range` (its own parameters replaced,
/// every other one kept): `range` is a list of `(name, value)` pairs.
pub fn with_range(path: &str, others: &[(String, String)], range: &[(&str, String)]) -> String {
    let query: Vec<String> = others
        .iter()
        .filter(|(k, _)| !OWN_PARAMS.contains(&k.as_str()))
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .chain(range.iter().map(|(k, v)| format!("{k}={}", encode(v))))
        .collect();
    if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

/// A query's parameters as owned pairs.
fn pairs(query: leptos_router::params::ParamsMap) -> Vec<(String, String)> {
    query
        .into_iter()
        .map(|(k, v)| (k.into_owned(), v))
        .collect()
}

/// The current page's address with a custom range (what dragging across a chart opens).
pub fn use_range_link() -> impl Fn(u64, u64) -> String + Clone + Send + Sync + 'static {
    let location = use_location();
    move |from_ms, to_ms| {
        let path = location.pathname.get_untracked();
        let others: Vec<(String, String)> = pairs(location.query.get_untracked());
        with_range(
            &path,
            &others,
            &[("from", sim_time(from_ms)), ("to", sim_time(to_ms))],
        )
    }
}

/// The range picker: the presets as links (the current one marked), and a custom range form.
#[component]
pub fn RangePicker() -> impl IntoView {
    let location = use_location();
    let range = use_time_range();
    let link = move |value: &'static str| {
        let path = location.pathname.get();
        let others: Vec<(String, String)> = pairs(location.query.get());
        with_range(&path, &others, &[("range", value.to_owned())])
    };
    let preset = move |value: &'static str, label: &'static str| {
        view! {
            <a href=move || link(value) data-range=value
                aria-current=move || (range.get().key() == value).then_some("true")>{label}</a>
        }
    };
    let hidden = move || {
        pairs(location.query.get())
            .into_iter()
            .filter(|(k, _)| !OWN_PARAMS.contains(&k.as_str()))
            .map(|(k, v)| view! { <input type="hidden" name=k value=v/> })
            .collect_view()
    };
    let bound = move |pick: fn(u64, u64) -> u64| match range.get() {
        TimeRange::Custom { from_ms, to_ms } => sim_time(pick(from_ms, to_ms)),
        _ => String::new(),
    };
    view! {
        <div class="range-picker" id="range-picker" role="group" aria-label="Time range of the charts">
            <span class="muted small">"Range "</span>
            {PRESETS.iter().map(|p| preset(p.0, p.1)).collect_view()}
            {preset("all", "all")}
            <details class="custom-range" open=move || range.get().key() == "custom">
                <summary>"custom"</summary>
                <FilterForm id="range-form" class="form inline">
                    {hidden}
                    <label>"From " <input name="from" size="14" placeholder="Day 1 00:00:00" value=move || bound(|f, _| f)/></label>
                    <label>" to " <input name="to" size="14" placeholder="Day 1 01:00:00" value=move || bound(|_, t| t)/></label>
                    <button type="submit">"Show"</button>
                </FilterForm>
            </details>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: u64 = 60 * MIN;

    #[test]
    fn the_url_names_the_range() {
        let last = |key: &'static str, ms: u64| TimeRange::Last { key, ms };
        let custom = TimeRange::Custom {
            from_ms: 10 * HOUR,
            to_ms: 11 * HOUR,
        };
        let read = TimeRange::from_query;
        let cases = [
            (read(None, None, None), last("1h", HOUR)),
            (read(Some("15m"), None, None), last("15m", 15 * MIN)),
            (read(Some("7d"), None, None), last("7d", 168 * HOUR)),
            (read(Some("all"), None, None), TimeRange::All),
            (read(Some("3w"), None, None), last("1h", HOUR)),
            // A custom range wins over a preset, in either instant form or in ms.
            (
                read(Some("all"), Some("Day 1 10:00:00"), Some("0+11:00:00")),
                custom,
            ),
            (read(None, Some("0 10:00:00"), Some("39600000")), custom),
            // An empty or reversed custom range is ignored.
            (
                read(Some("6h"), Some("Day 1 11:00:00"), Some("Day 1 10:00:00")),
                last("6h", 6 * HOUR),
            ),
        ];
        for (i, (got, want)) in cases.into_iter().enumerate() {
            assert_eq!(got, want, "case {i}");
        }
    }

    #[test]
    fn the_window_ends_at_now_and_is_never_empty() {
        let last_hour = TimeRange::Last {
            key: "1h",
            ms: HOUR,
        };
        assert_eq!(last_hour.window(17 * HOUR), (16 * HOUR, 17 * HOUR));
        assert_eq!(last_hour.window(10 * MIN), (0, 10 * MIN));
        assert_eq!(TimeRange::All.window(5 * HOUR), (0, 5 * HOUR));
        assert_eq!(TimeRange::All.window(0), (0, 1));
        let custom = TimeRange::Custom {
            from_ms: 2 * HOUR,
            to_ms: 9 * HOUR,
        };
        assert_eq!(custom.window(5 * HOUR), (2 * HOUR, 5 * HOUR));
        assert_eq!(custom.window(HOUR), (HOUR - 1, HOUR));
    }

    #[test]
    fn a_range_link_keeps_the_other_parameters() {
        let others = vec![
            ("page".to_owned(), "2".to_owned()),
            ("range".to_owned(), "6h".to_owned()),
            ("at".to_owned(), "0+10:00:00".to_owned()),
        ];
        assert_eq!(
            with_range("/lhc/rl-paris", &others, &[("range", "15m".to_owned())]),
            "/lhc/rl-paris?page=2&at=0%2B10:00:00&range=15m"
        );
        assert_eq!(
            with_range(
                "/lhc/rl-paris",
                &[],
                &[
                    ("from", "Day 1 10:00:00".to_owned()),
                    ("to", "Day 1 11:00:00".to_owned())
                ]
            ),
            "/lhc/rl-paris?from=Day%201%2010:00:00&to=Day%201%2011:00:00"
        );
    }
}
