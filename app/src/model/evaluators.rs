//! What the evaluators page and the black-hole A/B receive, kept small on any farm: each
//! evaluator names its first servers and counts the rest, and the farm's servers come as a
//! count and a short list of suggestions. An assignment names servers by host or by a `*`
//! pattern, expanded on the server.

use engine::lms::views::EvaluatorView;
use serde::{Deserialize, Serialize};

use crate::format::thousands;

/// How many of an evaluator's servers the list names; the others are counted.
pub const SERVERS_NAMED: usize = 12;

/// How many of the farm's servers are offered as suggestions (in host order).
pub const SERVER_SUGGESTIONS: usize = 100;

/// The evaluators page's data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvaluatorsPage {
    /// Every evaluator, built-ins first.
    pub evaluators: Vec<EvaluatorRow>,
    /// The farm's first servers (at most [`SERVER_SUGGESTIONS`]), offered as suggestions.
    pub servers: Vec<String>,
    /// How many servers the farm has.
    pub server_count: usize,
    /// Every application (for assignment and application user load rules).
    pub applications: Vec<String>,
}

/// One evaluator with its servers counted and only the first [`SERVERS_NAMED`] named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvaluatorRow {
    /// The evaluator; its `servers` holds the first [`SERVERS_NAMED`] hosts.
    pub evaluator: EvaluatorView,
    /// How many servers use it.
    pub server_count: usize,
}

impl From<EvaluatorView> for EvaluatorRow {
    fn from(mut evaluator: EvaluatorView) -> EvaluatorRow {
        let server_count = evaluator.servers.len();
        evaluator.servers.truncate(SERVERS_NAMED);
        EvaluatorRow {
            evaluator,
            server_count,
        }
    }
}

impl EvaluatorRow {
    /// The servers column: the named hosts, then how many more there are.
    pub fn servers_text(&self) -> String {
        let named = self.evaluator.servers.join(", ");
        match self.server_count - self.evaluator.servers.len() {
            0 => named,
            more => format!(
                "{named} and {} more ({} in all)",
                thousands(more as u64),
                thousands(self.server_count as u64)
            ),
        }
    }
}

/// Whether `host` matches `pattern`, where each `*` stands for any run of characters
/// (none included) and everything else matches itself.
pub fn matches(pattern: &str, host: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = host.strip_prefix(first) else {
        return false;
    };
    let middle: Vec<&str> = parts.collect();
    let Some((last, middle)) = middle.split_last() else {
        // No `*`: the whole host must be the pattern.
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// The servers an assignment names: a comma-separated list of hosts and `*` patterns
/// (`XA-PAR-01, XA-042-*`), each expanded against the farm's `hosts` in their order,
/// without repeats. An unknown host or a pattern that matches nothing is an error that names
/// it, so nothing is assigned by halves.
pub fn expand_hosts<'a, I>(typed: &str, hosts: I) -> Result<Vec<String>, String>
where
    I: IntoIterator<Item = &'a str> + Clone,
{
    let mut chosen: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for item in typed.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let mut found = false;
        for host in hosts.clone() {
            if matches(item, host) {
                found = true;
                if seen.insert(host) {
                    chosen.push(host.to_owned());
                }
            }
        }
        if !found {
            return Err(if item.contains('*') {
                format!("`{item}` matches no server of the farm")
            } else {
                format!("`{item}` is not a server of the farm (a `*` in a name matches any run of characters)")
            });
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_as_documented() {
        let table = [
            ("XA-042-007", "XA-042-007", true),
            ("XA-042-007", "XA-042-0070", false),
            ("XA-042-*", "XA-042-007", true),
            ("XA-042-*", "XA-042-", true),
            ("XA-042-*", "XA-043-007", false),
            ("*-007", "XA-042-007", true),
            ("*-007", "XA-042-008", false),
            ("XA-*-007", "XA-042-007", true),
            ("XA-*-007", "XA-007", false),
            ("*", "anything", true),
            ("X*A*7", "XA-042-007", true),
            ("X*B*7", "XA-042-007", false),
            ("xa-042-007", "XA-042-007", false),
        ];
        for (pattern, host, expected) in table {
            assert_eq!(matches(pattern, host), expected, "{pattern} against {host}");
        }
    }

    #[test]
    fn an_assignment_expands_in_farm_order_without_repeats() {
        let hosts = ["XA-001-001", "XA-001-002", "XA-002-001", "XA-002-002"];
        let it = hosts.iter().copied();
        assert_eq!(
            expand_hosts("XA-002-*, XA-001-002, XA-002-001", it.clone()),
            Ok(vec![
                "XA-002-001".to_owned(),
                "XA-002-002".to_owned(),
                "XA-001-002".to_owned()
            ])
        );
        assert_eq!(expand_hosts(" , ", it.clone()), Ok(vec![]));
        let unknown = expand_hosts("XA-001-001, XA-009-001", it.clone());
        assert!(
            matches!(&unknown, Err(e) if e.contains("`XA-009-001` is not a server")),
            "{unknown:?}"
        );
        let nothing = expand_hosts("XA-9*", it);
        assert!(
            matches!(&nothing, Err(e) if e.contains("`XA-9*` matches no server")),
            "{nothing:?}"
        );
    }

    #[test]
    fn a_row_names_its_first_servers_and_counts_the_rest() {
        let view = |n: usize| EvaluatorView {
            name: "Default".into(),
            builtin: true,
            rules: vec![],
            servers: (0..n).map(|i| format!("S{i:03}")).collect(),
            applications: vec![],
        };
        let small = EvaluatorRow::from(view(2));
        assert_eq!(small.servers_text(), "S000, S001");
        let large = EvaluatorRow::from(view(10_000));
        assert_eq!(large.evaluator.servers.len(), SERVERS_NAMED);
        assert_eq!(large.server_count, 10_000);
        assert!(
            large
                .servers_text()
                .ends_with("S011 and 9,988 more (10,000 in all)"),
            "{}",
            large.servers_text()
        );
    }
}
