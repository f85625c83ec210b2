//! Which instant a page shows: the live run, or a past instant of a run (`?at=D+HH:MM:SS`,
//! with `&run=N` for an earlier run). Estate pages pass it to their server functions, which
//! read the [`services::time_travel::Estate`] it names; while it is in the past, operator
//! controls are hidden ([`crate::components::layout::user_allows`]) and pages stop polling.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// The instant a page shows, as its URL names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AsOf {
    /// `D+HH:MM:SS` (unchecked text; the server parses it), `None` for live.
    pub at: Option<String>,
    /// The run (`None`: the running one).
    pub run: Option<i64>,
}

impl AsOf {
    /// Whether the page shows the past (read-only).
    pub fn is_past(&self) -> bool {
        self.at.is_some()
    }

    /// The query string that keeps this instant on a link (`""` when live).
    pub fn query(&self) -> String {
        let params = self.params();
        if params.is_empty() {
            params
        } else {
            format!("?{params}")
        }
    }

    /// The parameters that keep this instant, to add to a link's own query with `&` (`""`
    /// when live).
    pub fn params(&self) -> String {
        let Some(at) = &self.at else {
            return String::new();
        };
        let at = at.replace(['+', ' '], "%2B");
        match self.run {
            Some(run) => format!("at={at}&run={run}"),
            None => format!("at={at}"),
        }
    }

    /// `&` and [`Self::params`], or `""` when live.
    pub fn and_params(&self) -> String {
        let params = self.params();
        if params.is_empty() {
            params
        } else {
            format!("&{params}")
        }
    }

    /// `path` with this instant kept.
    pub fn link(&self, path: &str) -> String {
        format!("{path}{}", self.query())
    }
}

/// The instant the current URL names (a blank `at` is live).
pub fn use_as_of() -> Memo<AsOf> {
    let query = use_query_map();
    Memo::new(move |_| {
        let query = query.read();
        AsOf {
            at: query
                .get("at")
                .map(|a| a.trim().to_owned())
                .filter(|a| !a.is_empty()),
            run: query.get("run").and_then(|r| r.trim().parse().ok()),
        }
    })
}

/// Whether the page being rendered shows the past: the instant the layout puts in the context
/// ([`crate::components::layout::Layout`]) names one (false outside the layout).
pub fn page_shows_past() -> bool {
    use_context::<Memo<AsOf>>().is_some_and(|as_of| as_of.get_untracked().is_past())
}

/// The run the page being rendered shows when it names one (`?run=` beside `?at=`); `None`
/// for the live run (and outside the layout).
pub fn page_run() -> Option<i64> {
    use_context::<Memo<AsOf>>()
        .and_then(|as_of| as_of.with_untracked(|a| if a.is_past() { a.run } else { None }))
}

/// The estate a server function reads for `at` and `run` (its two optional arguments): the
/// live run when `at` is absent. A text that is not an instant, an instant outside the run or
/// an unknown run is refused with 400 and the valid range.
#[cfg(feature = "ssr")]
pub async fn estate(
    services: &services::Services,
    at: Option<String>,
    run: Option<i64>,
) -> Result<services::time_travel::Estate, crate::error::AppError> {
    use services::time_travel::PastInstant;
    let at = at.map(|a| a.trim().to_owned()).filter(|a| !a.is_empty());
    let past = match at {
        None => None,
        Some(text) => {
            let at = text.parse::<engine::SimTime>().map_err(|e| {
                crate::error::AppError::OutOfRange {
                    field: "at".into(),
                    message: e.to_string(),
                }
            })?;
            Some(PastInstant { run_id: run, at })
        }
    };
    Ok(services.estate(past).await?)
}

#[cfg(test)]
mod tests {
    use super::AsOf;

    #[test]
    fn links_keep_the_instant_and_the_run() {
        let table = [
            (AsOf::default(), "/lhc", "/lms?sort=load"),
            (
                AsOf {
                    at: Some("0+01:00:00".into()),
                    run: None,
                },
                "/lhc?at=0%2B01:00:00",
                "/lms?sort=load&at=0%2B01:00:00",
            ),
            (
                AsOf {
                    at: Some("2 03:00:00".into()),
                    run: Some(4),
                },
                "/lhc?at=2%2B03:00:00&run=4",
                "/lms?sort=load&at=2%2B03:00:00&run=4",
            ),
        ];
        for (as_of, link, added) in table {
            assert_eq!(as_of.link("/lhc"), link);
            assert_eq!(format!("/lms?sort=load{}", as_of.and_params()), added);
            assert_eq!(as_of.is_past(), as_of.at.is_some());
        }
    }
}
