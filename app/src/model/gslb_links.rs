//! The MEP links list at any scale: every link of the topology (the parents' mesh and each
//! child's link to its current parent), searched by either end, filtered by kind and status,
//! sorted and paged on the server (`/gslb/links?q=P07&status=down&sort=rtt&desc=1&page=2`).

use engine::gslb::views::{LinkKind, LinkView, MepStatus};

use crate::error::AppError;
use crate::model::gslb_sites::mep_rank;
use crate::model::listing::{contains, keyed, page_of, ListPage};

/// Rows per page of the links list.
pub const LINK_PAGE_SIZE: u32 = 50;

/// Every link kind with its URL key.
pub const LINK_KINDS: [(&str, LinkKind); 2] = [
    ("parent_parent", LinkKind::ParentParent),
    ("parent_child", LinkKind::ParentChild),
];

/// Every MEP status with its URL key.
pub const LINK_STATUSES: [(&str, MepStatus); 3] = [
    ("down", MepStatus::Down),
    ("inactive", MepStatus::Inactive),
    ("active", MepStatus::Active),
];

/// A column of the list to sort by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkSort {
    /// The topology's order: the parents' mesh, then the children's links.
    #[default]
    Topology,
    /// The first end (the parent of a parent-child link).
    Site,
    /// The other end.
    Peer,
    /// Parent-parent before parent-child.
    Kind,
    /// DOWN, then INACTIVE, then ACTIVE.
    Status,
    /// Last round-trip time (links without one first).
    Rtt,
}

/// Every sort with its URL key and column heading, in the table's order.
pub const LINK_SORTS: [(&str, LinkSort, &str); 5] = [
    ("site", LinkSort::Site, "Site"),
    ("peer", LinkSort::Peer, "Peer"),
    ("kind", LinkSort::Kind, "Kind"),
    ("status", LinkSort::Status, "Status"),
    ("rtt", LinkSort::Rtt, "RTT"),
];

/// What the links list shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkQuery {
    /// Only links with an end whose name contains this (case-insensitive).
    pub search: Option<String>,
    /// Only this kind.
    pub kind: Option<LinkKind>,
    /// Only this status.
    pub status: Option<MepStatus>,
    /// Sort column.
    pub sort: LinkSort,
    /// Descending order.
    pub descending: bool,
    /// Page, from 1.
    pub page: u32,
}

impl LinkQuery {
    /// The query as typed in the page's URL; a bad key is refused naming its field and the
    /// keys it takes.
    pub fn parse(
        search: Option<String>,
        kind: Option<&str>,
        status: Option<&str>,
        sort: Option<&str>,
        descending: bool,
        page: u32,
    ) -> Result<LinkQuery, AppError> {
        let sorts: Vec<(&'static str, LinkSort)> =
            LINK_SORTS.iter().map(|(k, s, _)| (*k, *s)).collect();
        Ok(LinkQuery {
            search,
            kind: keyed("kind", &LINK_KINDS, kind)?,
            status: keyed("status", &LINK_STATUSES, status)?,
            sort: keyed("sort", &sorts, sort)?.unwrap_or_default(),
            descending,
            page,
        })
    }
}

/// A page of the links list.
pub type LinkPage = ListPage<LinkView>;

/// The page of `links` (topology order) that `q` asks for.
pub fn select_links(links: Vec<LinkView>, q: &LinkQuery) -> LinkPage {
    let total = links.len();
    let needle = q.search.as_deref().map(str::to_lowercase);
    let matching: Vec<LinkView> = links
        .into_iter()
        .filter(|l| q.kind.is_none_or(|k| l.kind == k))
        .filter(|l| q.status.is_none_or(|s| l.status == s))
        .filter(|l| {
            needle
                .as_deref()
                .is_none_or(|n| contains(&l.a, n) || contains(&l.b, n))
        })
        .collect();
    let order = |x: &LinkView, y: &LinkView| match q.sort {
        LinkSort::Topology => std::cmp::Ordering::Equal,
        LinkSort::Site => x.a.cmp(&y.a),
        LinkSort::Peer => x.b.cmp(&y.b),
        LinkSort::Kind => (x.kind == LinkKind::ParentChild).cmp(&(y.kind == LinkKind::ParentChild)),
        LinkSort::Status => mep_rank(x.status).cmp(&mep_rank(y.status)),
        LinkSort::Rtt => x
            .rtt_ms
            .unwrap_or(-1.0)
            .total_cmp(&y.rtt_ms.unwrap_or(-1.0)),
    };
    page_of(total, matching, order, q.descending, q.page, LINK_PAGE_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::gslb::views::DirectionView;

    fn link(a: &str, b: &str, kind: LinkKind, status: MepStatus, rtt: Option<f64>) -> LinkView {
        let way = DirectionView {
            delivering: true,
            seen_up: status == MepStatus::Active,
            since_ms: 0,
        };
        LinkView {
            a: a.into(),
            b: b.into(),
            kind,
            initiator: a.into(),
            initiator_rule: String::new(),
            a_to_b: way.clone(),
            b_to_a: way,
            status,
            rtt_ms: rtt,
        }
    }

    fn links() -> Vec<LinkView> {
        use LinkKind::{ParentChild as Pc, ParentParent as Pp};
        use MepStatus::{Active, Down, Inactive};
        vec![
            link("P1", "P2", Pp, Active, Some(12.0)),
            link("P1", "P3", Pp, Down, None),
            link("P2", "P3", Pp, Down, None),
            link("P1", "C01", Pc, Active, Some(3.5)),
            link("P2", "C02", Pc, Inactive, None),
            link("P3", "C13", Pc, Active, Some(40.0)),
        ]
    }

    fn ends(page: &LinkPage) -> Vec<String> {
        page.rows
            .iter()
            .map(|l| format!("{}-{}", l.a, l.b))
            .collect()
    }

    #[test]
    fn links_are_searched_by_either_end_filtered_and_sorted() {
        let q = |search: Option<&str>, kind, status, sort, descending| LinkQuery {
            search: search.map(str::to_owned),
            kind,
            status,
            sort,
            descending,
            page: 1,
        };
        // (query, links shown in order)
        let cases: [(LinkQuery, &[&str]); 8] = [
            (
                q(None, None, None, LinkSort::Topology, false),
                &["P1-P2", "P1-P3", "P2-P3", "P1-C01", "P2-C02", "P3-C13"],
            ),
            (
                q(Some("p3"), None, None, LinkSort::Topology, false),
                &["P1-P3", "P2-P3", "P3-C13"],
            ),
            (
                q(Some("c1"), None, None, LinkSort::Topology, false),
                &["P3-C13"],
            ),
            (
                q(
                    None,
                    Some(LinkKind::ParentChild),
                    None,
                    LinkSort::Topology,
                    false,
                ),
                &["P1-C01", "P2-C02", "P3-C13"],
            ),
            (
                q(None, None, Some(MepStatus::Down), LinkSort::Topology, false),
                &["P1-P3", "P2-P3"],
            ),
            (
                q(None, None, None, LinkSort::Status, false),
                &["P1-P3", "P2-P3", "P2-C02", "P1-P2", "P1-C01", "P3-C13"],
            ),
            (
                q(None, None, None, LinkSort::Rtt, true),
                &["P3-C13", "P1-P2", "P1-C01", "P1-P3", "P2-P3", "P2-C02"],
            ),
            (
                q(
                    None,
                    Some(LinkKind::ParentParent),
                    None,
                    LinkSort::Peer,
                    true,
                ),
                &["P1-P3", "P2-P3", "P1-P2"],
            ),
        ];
        for (query, shown) in cases {
            let page = select_links(links(), &query);
            assert_eq!(ends(&page), shown, "{query:?}");
            assert_eq!(page.total, 6);
            assert_eq!(page.matching as usize, shown.len());
        }
    }

    #[test]
    fn the_url_keys_parse_and_a_bad_one_names_its_field() {
        let q = LinkQuery::parse(
            None,
            Some("parent_child"),
            Some("down"),
            Some("rtt"),
            true,
            2,
        );
        let q = q.ok().unwrap_or_default();
        assert_eq!(
            (q.kind, q.status, q.sort, q.descending, q.page),
            (
                Some(LinkKind::ParentChild),
                Some(MepStatus::Down),
                LinkSort::Rtt,
                true,
                2
            )
        );
        for (kind, status, sort, field) in [
            (Some("mesh"), None, None, "kind"),
            (None, Some("DOWN"), None, "status"),
            (None, None, Some("latency"), "sort"),
        ] {
            let err = LinkQuery::parse(None, kind, status, sort, false, 1).err();
            let text = err.map(|e| e.to_string()).unwrap_or_default();
            assert!(text.contains(field), "{text}");
        }
    }

    #[test]
    fn a_large_topology_is_paged() {
        let many: Vec<LinkView> = (0..120)
            .map(|i| {
                link(
                    "P1",
                    &format!("C{i:03}"),
                    LinkKind::ParentChild,
                    MepStatus::Active,
                    None,
                )
            })
            .collect();
        let q = LinkQuery {
            page: 3,
            ..LinkQuery::default()
        };
        let page = select_links(many, &q);
        assert_eq!((page.matching, page.rows.len()), (120, 20));
        assert_eq!(page.rows[0].b, "C100");
    }
}
