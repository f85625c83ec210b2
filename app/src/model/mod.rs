//! Data carried between the server and the browser (server-function arguments and answers,
//! and the JSON of the live stream). No secret ever appears here.

use std::collections::BTreeMap;

use engine::{parse_duration, EngineId, Role, Speed};
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::form::{engine_name, optional};

pub mod activity;
pub mod alerts;
pub mod attention;
pub mod autoscale;
pub mod autoscale_groups;
pub mod axis;
pub mod connector_list;
pub mod details_wire;
pub mod evaluator_preview;
pub mod evaluators;
#[cfg(test)]
mod fixtures;
pub mod gslb;
pub mod gslb_links;
pub mod gslb_picture;
pub mod gslb_sites;
pub mod lhc;
pub mod listing;
pub mod lms;
pub mod load_table;
pub mod node_list;
pub mod overview;
pub mod rl_list;
pub mod step_series;

/// How far a run can be viewed in the past (the time bar of estate pages).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeRange {
    /// The run.
    pub run_id: i64,
    /// Whether it is the running one.
    pub live: bool,
    /// Its latest instant, simulated ms (the live clock for the running run).
    pub end_ms: u64,
    /// Runs to choose from, newest first.
    pub runs: Vec<RunChoice>,
}

/// A run offered in the time bar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunChoice {
    /// Run id.
    pub id: i64,
    /// What the choice reads.
    pub label: String,
}

/// The signed-in user as the UI sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionUser {
    /// User name.
    pub username: String,
    /// Role.
    pub role: Role,
}

/// The clock and counters (the JSON shape of the runtime's status and of the `clock` messages
/// of the live stream).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// Current run.
    pub run_id: i64,
    /// Scenario name.
    pub scenario: String,
    /// Simulated milliseconds since the scenario start.
    pub t_ms: u64,
    /// Current speed.
    pub speed: Speed,
    /// Events produced (emitted) in this run.
    pub events_total: u64,
    /// Events of this run stored in the database (at most `events_total`).
    #[serde(default)]
    pub events_persisted: u64,
    /// Events produced in this run per engine.
    pub per_engine: BTreeMap<String, u64>,
    /// How late the last runtime tick started (wall ms).
    pub lag_ms: u64,
    /// When the next thing is due.
    pub next_due_ms: Option<u64>,
    /// `leader` when this console runs the clock, `follower` when it replays another's.
    #[serde(default = "leader")]
    pub replica: String,
    /// A follower's lag behind the leader (wall ms; 0 on the leader).
    #[serde(default)]
    pub follower_lag_ms: u64,
    /// Alerts firing on the run, per severity (the header's badge).
    #[serde(default)]
    pub alerts: alerts::AlertCountsView,
}

fn leader() -> String {
    "leader".to_owned()
}

/// One event as listed in the feed and the history (details as JSON text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRow {
    /// Stored row id (none for a live event not yet read back).
    pub id: Option<i64>,
    /// Simulated milliseconds since the scenario start.
    pub t_ms: u64,
    /// Engine name.
    pub engine: String,
    /// Subject id.
    pub subject: String,
    /// Event kind.
    pub kind: String,
    /// Details, a JSON object as text (sent as the object itself: [`details_wire`]).
    #[serde(with = "details_wire")]
    pub details: String,
    /// The acting user of an operator action.
    pub actor: Option<String>,
}

impl From<&engine::Event> for EventRow {
    fn from(e: &engine::Event) -> Self {
        EventRow {
            id: None,
            t_ms: e.t_ms,
            engine: e.engine.as_str().to_owned(),
            subject: e.subject.clone(),
            kind: e.kind.clone(),
            details: e.details.to_string(),
            actor: e.actor.clone(),
        }
    }
}

/// A simulation run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunView {
    /// Run id.
    pub id: i64,
    /// Scenario name.
    pub scenario: String,
    /// Seed.
    pub seed: i64,
    /// Wall-clock start.
    pub started_at: String,
}

/// The history filters exactly as typed in the form / URL (all text, validated on the server).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryQuery {
    /// Run id; empty = the current run.
    pub run: Option<String>,
    /// Engine name.
    pub engine: Option<String>,
    /// Exact subject.
    pub subject: Option<String>,
    /// The start of the subjects' names (not with `subject`).
    pub search: Option<String>,
    /// Exact kind.
    pub kind: Option<String>,
    /// Earliest simulated time (a duration since the start, e.g. `5m`).
    pub from: Option<String>,
    /// Latest simulated time (a duration since the start).
    pub to: Option<String>,
    /// The column sorted by: `time` (the default), `engine`, `subject` or `kind` (each then
    /// by time).
    pub sort: Option<String>,
    /// The direction: `newest` (first; the default: the latest instant, or the last name)
    /// or `oldest` (first).
    pub order: Option<String>,
    /// The page of events just older than this place (`<t_ms>.<id>`, from a page's link).
    pub before: Option<String>,
    /// The page of events just newer than this place (`<t_ms>.<id>`).
    pub after: Option<String>,
}

/// Which page of a filtered history: the newest events, or the events on one side of a place
/// (an event's instant and id). Pages are read by keyset, so any page of any run costs the
/// same.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HistoryPlace {
    /// The newest events.
    #[default]
    Newest,
    /// The oldest events (the first page of the history read oldest first).
    Oldest,
    /// The events just older than the event at (`t_ms`, `id`).
    Older {
        /// Instant.
        t_ms: i64,
        /// Event id.
        id: i64,
    },
    /// The events just newer than the event at (`t_ms`, `id`).
    Newer {
        /// Instant.
        t_ms: i64,
        /// Event id.
        id: i64,
    },
}

/// Parses a place of the history (`<t_ms>.<id>`, both ≥ 0).
fn parse_place(field: &str, text: &str) -> Result<(i64, i64), AppError> {
    let bad = || {
        AppError::invalid(
            field,
            "must be a place in the history: <time in ms>.<event id>, both 0 or more",
        )
    };
    let (t, id) = text.split_once('.').ok_or_else(bad)?;
    let t_ms = t.parse::<i64>().ok().filter(|t| *t >= 0).ok_or_else(bad)?;
    let id = id.parse::<i64>().ok().filter(|i| *i >= 0).ok_or_else(bad)?;
    Ok((t_ms, id))
}

/// A validated [`HistoryQuery`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryFilter {
    /// Run id, if one was named.
    pub run: Option<i64>,
    /// Engine.
    pub engine: Option<EngineId>,
    /// Subject.
    pub subject: Option<String>,
    /// The start of the subjects' names searched.
    pub search: Option<String>,
    /// Kind.
    pub kind: Option<String>,
    /// From (ms).
    pub from_ms: Option<u64>,
    /// To (ms).
    pub to_ms: Option<u64>,
    /// The column sorted by.
    pub sort: HistorySort,
    /// Whether the history is read oldest first (names from A, each one's events oldest
    /// first, when sorted by a name).
    pub oldest_first: bool,
    /// Which page.
    pub place: HistoryPlace,
}

/// The orders of the history (`order=` in its URL): by time, either way.
pub const HISTORY_ORDERS: [&str; 2] = ["newest", "oldest"];

/// The column the history is sorted by (`sort=` in its URL), each then by time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HistorySort {
    /// By instant.
    #[default]
    Time,
    /// By engine name.
    Engine,
    /// By subject name.
    Subject,
    /// By engine, then kind.
    Kind,
}

/// Every column of the history with its URL name (`sort=`), in the history table's order.
pub const HISTORY_SORTS: [(&str, HistorySort); 4] = [
    ("time", HistorySort::Time),
    ("engine", HistorySort::Engine),
    ("subject", HistorySort::Subject),
    ("kind", HistorySort::Kind),
];

impl HistoryQuery {
    /// Validates every field, naming the first bad one and what it accepts.
    pub fn validate(&self) -> Result<HistoryFilter, AppError> {
        let run = optional(&self.run)
            .map(|r| {
                r.parse::<i64>()
                    .ok()
                    .filter(|id| *id > 0)
                    .ok_or_else(|| AppError::invalid("run", "must be a run number (1 or more)"))
            })
            .transpose()?;
        let engine = optional(&self.engine)
            .map(|e| engine_name(e, "engine"))
            .transpose()?;
        let time = |field: &str, v: &Option<String>| {
            optional(v)
                .map(|s| {
                    parse_duration(s)
                        .map(|d| d.0)
                        .map_err(|e| AppError::invalid(field, e.to_string()))
                })
                .transpose()
        };
        let from_ms = time("from", &self.from)?;
        let to_ms = time("to", &self.to)?;
        if let (Some(f), Some(t)) = (from_ms, to_ms) {
            if f > t {
                return Err(AppError::invalid("to", "must not be earlier than from"));
            }
        }
        let sort =
            listing::keyed("sort", &HISTORY_SORTS, optional(&self.sort))?.unwrap_or_default();
        let oldest_first = match optional(&self.order) {
            None | Some("newest") => false,
            Some("oldest") => true,
            Some(_) => {
                return Err(AppError::invalid(
                    "order",
                    format!("must be one of: {}", HISTORY_ORDERS.join(", ")),
                ))
            }
        };
        let place = match (optional(&self.before), optional(&self.after)) {
            (None, None) if oldest_first => HistoryPlace::Oldest,
            (None, None) => HistoryPlace::Newest,
            (Some(b), None) => {
                let (t_ms, id) = parse_place("before", b)?;
                HistoryPlace::Older { t_ms, id }
            }
            (None, Some(a)) => {
                let (t_ms, id) = parse_place("after", a)?;
                HistoryPlace::Newer { t_ms, id }
            }
            (Some(_), Some(_)) => {
                return Err(AppError::invalid("after", "give before or after, not both"))
            }
        };
        let text = |v: &Option<String>| optional(v).map(str::to_owned);
        let search = crate::form::searched(&self.search, "search")?;
        if search.is_some() && text(&self.subject).is_some() {
            return Err(AppError::invalid(
                "search",
                "give the exact subject or the start of its name, not both",
            ));
        }
        Ok(HistoryFilter {
            run,
            engine,
            subject: text(&self.subject),
            search,
            kind: text(&self.kind),
            from_ms,
            to_ms,
            sort,
            oldest_first,
            place,
        })
    }

    /// The query string of these filters (for links and export URLs), without the place.
    pub fn to_query_string(&self) -> String {
        let pairs = [
            ("run", &self.run),
            ("engine", &self.engine),
            ("subject", &self.subject),
            ("search", &self.search),
            ("kind", &self.kind),
            ("from", &self.from),
            ("to", &self.to),
            ("sort", &self.sort),
            ("order", &self.order),
        ];
        pairs
            .iter()
            .filter_map(|(k, v)| optional(v).map(|v| format!("{k}={}", encode(v))))
            .collect::<Vec<_>>()
            .join("&")
    }
}

/// Percent-encodes a query value (RFC 3986 unreserved characters pass through).
pub fn encode(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for b in v.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Rows per history page.
pub const HISTORY_PAGE_SIZE: u32 = 50;

/// One page of history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryPage {
    /// The run shown.
    pub run_id: i64,
    /// Every run, newest first (for the run selector).
    pub runs: Vec<RunView>,
    /// The rows, newest first.
    pub rows: Vec<EventRow>,
    /// The place the next older page starts at (`before=`), if there are older events.
    pub older: Option<String>,
    /// The place the next newer page starts at (`after=`), if there are newer events.
    pub newer: Option<String>,
    /// Rows per page.
    pub per_page: u32,
}

/// One audit-log row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRow {
    /// Row id (its arguments' key: [`crate::api::admin::audit_json`]).
    pub id: i64,
    /// Wall-clock time (UTC).
    pub at: String,
    /// Acting user.
    pub actor: String,
    /// Action.
    pub action: String,
    /// Arguments (JSON text).
    pub arguments: String,
    /// `ok` or why it was refused.
    pub outcome: String,
}

/// One page of the audit log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditPage {
    /// The rows, newest first (oldest first when asked).
    pub rows: Vec<AuditRow>,
    /// All rows.
    pub total: u64,
    /// The rows the filters keep.
    pub matching: u64,
    /// This page (from 1).
    pub page: u32,
    /// Rows per page.
    pub per_page: u32,
}

/// A user as listed on the users page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserView {
    /// Id.
    pub id: i64,
    /// User name.
    pub username: String,
    /// Role.
    pub role: Role,
    /// Creation time.
    pub created_at: String,
    /// Disabled by an admin: cannot sign in.
    pub disabled: bool,
}

/// A simple table for the configured-estate views.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    /// Caption.
    pub title: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Cells, row by row.
    pub rows: Vec<Vec<String>>,
}

/// What the loaded scenario configures for one engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EstateView {
    /// Label / value pairs (settings, with "documented" or "assumed" where it applies).
    pub facts: Vec<(String, String)>,
    /// The objects.
    pub tables: Vec<TableView>,
    /// Configuration warnings of the scenario for this engine.
    pub warnings: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(f: impl FnOnce(&mut HistoryQuery)) -> HistoryQuery {
        let mut q = HistoryQuery::default();
        f(&mut q);
        q
    }

    #[test]
    fn history_query_names_the_bad_field() {
        let table: Vec<(HistoryQuery, &str)> = vec![
            (q(|q| q.run = Some("x".into())), "run"),
            (q(|q| q.engine = Some("dns".into())), "engine"),
            (q(|q| q.from = Some("soon".into())), "from"),
            (q(|q| q.to = Some("-5m".into())), "to"),
            (
                q(|q| {
                    q.from = Some("10m".into());
                    q.to = Some("5m".into());
                }),
                "to",
            ),
            (q(|q| q.before = Some("0".into())), "before"),
            (q(|q| q.before = Some("-1.5".into())), "before"),
            (q(|q| q.after = Some("5.x".into())), "after"),
            (q(|q| q.order = Some("subject".into())), "order"),
            (
                q(|q| {
                    q.subject = Some("XA-PAR-01".into());
                    q.search = Some("XA-".into());
                }),
                "search",
            ),
            (q(|q| q.search = Some("x".repeat(101))), "search"),
            (q(|q| q.sort = Some("details".into())), "sort"),
            (q(|q| q.sort = Some("Subject".into())), "sort"),
            (
                q(|q| {
                    q.before = Some("1.2".into());
                    q.after = Some("1.2".into());
                }),
                "after",
            ),
        ];
        for (query, field) in table {
            match query.validate() {
                Err(AppError::Invalid { field: f, .. }) => assert_eq!(f, field, "{query:?}"),
                other => panic!("{query:?}: expected invalid {field}, got {other:?}"),
            }
        }
    }

    #[test]
    fn history_query_accepts_and_converts() {
        let query = q(|q| {
            q.engine = Some("core".into());
            q.subject = Some("  ".into());
            q.from = Some("1m".into());
            q.to = Some("1h".into());
            q.before = Some("60000.42".into());
        });
        let f = query.validate().expect("valid");
        assert_eq!(f.engine, Some(EngineId::Core));
        assert_eq!(f.subject, None, "blank means no filter");
        assert_eq!((f.from_ms, f.to_ms), (Some(60_000), Some(3_600_000)));
        assert_eq!(
            f.place,
            HistoryPlace::Older {
                t_ms: 60_000,
                id: 42
            }
        );
        let newer = q(|q| q.after = Some("7.8".into()))
            .validate()
            .expect("valid");
        assert_eq!(newer.place, HistoryPlace::Newer { t_ms: 7, id: 8 });
        assert!(!newer.oldest_first);
        let oldest = q(|q| q.order = Some("oldest".into()))
            .validate()
            .expect("valid");
        assert_eq!(
            (oldest.oldest_first, oldest.place),
            (true, HistoryPlace::Oldest)
        );
        let newest = q(|q| q.order = Some("newest".into()))
            .validate()
            .expect("valid");
        assert_eq!(newest.place, HistoryPlace::Newest);
        assert_eq!(
            newest.sort,
            HistorySort::Time,
            "time unless a column is named"
        );
        assert_eq!(query.to_query_string(), "engine=core&from=1m&to=1h");
        for (name, sort) in HISTORY_SORTS {
            let sorted = q(|q| q.sort = Some(name.into()));
            assert_eq!(sorted.validate().map(|f| f.sort), Ok(sort), "{name}");
            assert_eq!(sorted.to_query_string(), format!("sort={name}"));
        }
    }
}
