//! The evaluator what-if in words: what changes between the load indexes and placements of
//! the evaluators as they are and those with the edited one.

use engine::lms::views::{EvaluatorPreview, PlacementCount, PreviewRow};

/// How many servers the preview's load table lists; the summary counts them all.
pub const PREVIEW_ROWS: usize = 100;

/// The load table's rows: at most `limit`, those whose load index changes most first (then
/// by host), so the servers an edit affects are never cut off by the unchanged ones of a
/// large farm.
pub fn shown_rows(preview: &EvaluatorPreview, limit: usize) -> Vec<&PreviewRow> {
    let change = |r: &PreviewRow| i64::from(r.edited).abs_diff(i64::from(r.now));
    let mut rows: Vec<&PreviewRow> = preview.rows.iter().collect();
    rows.sort_by(|a, b| change(b).cmp(&change(a)).then_with(|| a.host.cmp(&b.host)));
    rows.truncate(limit);
    rows
}

/// How a server's placements differ between the two sides of a preview.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementChange {
    /// Host.
    pub host: String,
    /// Launches it gets with the evaluators as they are.
    pub now: u32,
    /// Launches it gets with the edited evaluator.
    pub edited: u32,
}

/// Every server that gets launches on either side, in host order, with both counts.
pub fn placement_changes(preview: &EvaluatorPreview) -> Vec<PlacementChange> {
    let count = |list: &[PlacementCount], host: &str| {
        list.iter().find(|p| p.host == host).map_or(0, |p| p.count)
    };
    let mut hosts: Vec<&str> = preview
        .placements_now
        .iter()
        .chain(&preview.placements_edited)
        .map(|p| p.host.as_str())
        .collect();
    hosts.sort_unstable();
    hosts.dedup();
    hosts
        .into_iter()
        .map(|host| PlacementChange {
            host: host.to_owned(),
            now: count(&preview.placements_now, host),
            edited: count(&preview.placements_edited, host),
        })
        .collect()
}

/// One sentence per consequence of the edit: load indexes, placements, refusals. Each says
/// "no change" when there is none, so an unchanged count is never read as an effect.
pub fn summary(preview: &EvaluatorPreview) -> Vec<String> {
    let changed_loads = preview.rows.iter().filter(|r| r.now != r.edited).count();
    let loads = match (preview.rows.len(), changed_loads) {
        (0, _) => "No server uses this evaluator: no load index changes.".to_owned(),
        (_, 0) => format!(
            "Load index: no change on the {} server(s) that use this evaluator.",
            preview.rows.len()
        ),
        (total, n) => {
            format!("Load index: {n} of the {total} server(s) that use this evaluator change.")
        }
    };
    let moved: u32 = placement_changes(preview)
        .iter()
        .map(|c| c.edited.saturating_sub(c.now))
        .sum();
    let placements = if moved == 0 {
        format!(
            "Placements of the next {} launches of {}: no change.",
            preview.launches, preview.app
        )
    } else {
        format!(
            "Placements of the next {} launches of {}: {moved} land on a different server.",
            preview.launches, preview.app
        )
    };
    let refused = match (preview.rejected_now, preview.rejected_edited) {
        (0, 0) => "Refused launches: none either way.".to_owned(),
        (a, b) if a == b => format!(
            "Refused launches: {a} either way, no change (every server is at full load or excluded for them)."
        ),
        (a, b) if b > a => format!("Refused launches: {a} → {b}, {} more with this evaluator.", b - a),
        (a, b) => format!("Refused launches: {a} → {b}, {} fewer with this evaluator.", a - b),
    };
    vec![loads, placements, refused]
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::lms::views::PreviewRow;

    fn preview(
        rows: &[(u32, u32)],
        now: &[(&str, u32)],
        edited: &[(&str, u32)],
        refused: (u32, u32),
    ) -> EvaluatorPreview {
        let list = |l: &[(&str, u32)]| {
            l.iter()
                .map(|(h, c)| PlacementCount {
                    host: (*h).to_owned(),
                    count: *c,
                })
                .collect()
        };
        EvaluatorPreview {
            app: "Office".to_owned(),
            launches: 100,
            rows: rows
                .iter()
                .enumerate()
                .map(|(i, (n, e))| PreviewRow {
                    host: format!("S{i}"),
                    now: *n,
                    edited: *e,
                })
                .collect(),
            placements_now: list(now),
            placements_edited: list(edited),
            rejected_now: refused.0,
            rejected_edited: refused.1,
        }
    }

    #[test]
    fn the_summary_says_no_change_for_every_unchanged_consequence() {
        let p = preview(&[(2000, 2000)], &[("A", 8)], &[("A", 8)], (92, 92));
        assert_eq!(
            summary(&p),
            vec![
                "Load index: no change on the 1 server(s) that use this evaluator.",
                "Placements of the next 100 launches of Office: no change.",
                "Refused launches: 92 either way, no change (every server is at full load or excluded for them).",
            ]
        );
    }

    #[test]
    fn the_summary_counts_changed_loads_moved_launches_and_refusals() {
        let cases = [
            (
                (0, 5),
                "Refused launches: 0 → 5, 5 more with this evaluator.",
            ),
            (
                (7, 2),
                "Refused launches: 7 → 2, 5 fewer with this evaluator.",
            ),
            ((0, 0), "Refused launches: none either way."),
        ];
        for (refused, expected) in cases {
            let p = preview(
                &[(2000, 4000), (1000, 1000)],
                &[("A", 6), ("B", 4)],
                &[("A", 1), ("B", 7), ("C", 2)],
                refused,
            );
            let s = summary(&p);
            assert_eq!(
                s[0],
                "Load index: 1 of the 2 server(s) that use this evaluator change."
            );
            assert_eq!(
                s[1],
                "Placements of the next 100 launches of Office: 5 land on a different server."
            );
            assert_eq!(s[2], expected);
        }
    }

    #[test]
    fn the_load_table_lists_the_largest_changes_first_and_stops_at_the_limit() {
        let p = preview(
            &[(10, 10), (10, 50), (10, 0), (10, 90), (10, 10)],
            &[],
            &[],
            (0, 0),
        );
        let hosts: Vec<&str> = shown_rows(&p, 3).iter().map(|r| r.host.as_str()).collect();
        assert_eq!(hosts, ["S3", "S1", "S2"]);
        assert_eq!(shown_rows(&p, 100).len(), 5);
        assert_eq!(shown_rows(&p, 100)[3].host, "S0");
    }

    #[test]
    fn placement_changes_list_every_server_of_either_side() {
        let p = preview(&[], &[("B", 3)], &[("A", 3)], (0, 0));
        assert_eq!(
            placement_changes(&p),
            vec![
                PlacementChange {
                    host: "A".into(),
                    now: 0,
                    edited: 3
                },
                PlacementChange {
                    host: "B".into(),
                    now: 3,
                    edited: 0
                },
            ]
        );
        assert_eq!(
            summary(&p)[0],
            "No server uses this evaluator: no load index changes."
        );
    }
}
