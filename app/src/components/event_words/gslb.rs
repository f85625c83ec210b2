//! GSLB events in words (adoption and MEP decisions read through their `reason`): the ADNS
//! answers, one event per second and answer.

use super::fields::Fields;
use super::Template;
use crate::format::sim_time;

/// The template of a GSLB kind.
pub(super) fn template(kind: &str) -> Option<Template> {
    Some(match kind {
        "adns.answered" => answered,
        _ => return None,
    })
}

/// `3 queries answered 10.0.1.1 by SiteP1 in the second from Day 1 00:01:05`, or `2
/// queries unanswered: no service available`.
fn answered(f: Fields<'_>) -> Option<String> {
    let queries = match f.int("count")? {
        1 => "1 query".to_owned(),
        n => format!("{n} queries"),
    };
    let second = sim_time(f.int("from_ms")?);
    Some(match (f.text("answer"), f.text("by")) {
        (Some(answer), Some(by)) => {
            format!("{queries} answered {answer} by {by} in the second from {second}")
        }
        (Some(answer), None) => format!("{queries} answered {answer} in the second from {second}"),
        (None, _) => format!(
            "{queries} unanswered ({}): no service available, in the second from {second}",
            f.text("outcome")?
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::check;

    #[test]
    fn adns_answers_read_as_words() {
        check(&[
            (
                "adns.answered",
                r#"{"answer":"10.0.1.1","by":"SiteP1","count":3,"from_ms":65000,"outcome":"answered"}"#,
                "3 queries answered 10.0.1.1 by SiteP1 in the second from Day 1 00:01:05",
            ),
            (
                "adns.answered",
                r#"{"answer":"10.0.1.1","by":null,"count":1,"from_ms":0,"outcome":"answered"}"#,
                "1 query answered 10.0.1.1 in the second from Day 1 00:00:00",
            ),
            (
                "adns.answered",
                r#"{"answer":null,"by":null,"count":2,"from_ms":1000,"outcome":"unavailable"}"#,
                "2 queries unanswered (unavailable): no service available, in the second from Day 1 00:00:01",
            ),
        ]);
    }
}
