//! What the GSLB topology graph draws, laid out on the server: parents on a row at the top,
//! each parent's current children in a grid below it, orphaned children apart on the right.
//!
//! The picture stays small at any scale. A parent with more than [`COLLAPSE_ABOVE`] children
//! draws only those that need a look (down, adopted, not ACTIVE, or the site searched for)
//! and gathers the others into one count badge coloured by the worst of its children; the
//! badge links to the same page with that parent expanded. With more than
//! [`MESH_MERGE_ABOVE`] parents, the ACTIVE parent-to-parent links are drawn as one path (the
//! mesh) and only the others one by one. At 32 parents and 1,024 children the SVG holds a few
//! hundred elements instead of some 15,000.

use std::collections::BTreeMap;

use engine::gslb::config::SiteRole;
use engine::gslb::views::{LinkKind, LinkView, MepStatus, SiteView, TopologyView};
use serde::{Deserialize, Serialize};

use crate::format::Tenths;

/// A parent with more children than this shows the unremarkable ones as a count badge.
pub const COLLAPSE_ABOVE: usize = 6;
/// With more parents than this, the ACTIVE parent links are drawn as one path.
pub const MESH_MERGE_ABOVE: usize = 8;
/// Most children drawn one by one under collapsed parents (the worst first).
pub const NOTABLE_MAX: usize = 80;

const PARENT_W: f64 = 120.0;
const PARENT_H: f64 = 36.0;
const CHILD_W: f64 = 112.0;
const CHILD_H: f64 = 30.0;
const GAP: f64 = 14.0;
const PARENT_Y: f64 = 90.0;
const CHILD_Y: f64 = PARENT_Y + PARENT_H + 70.0;

/// What the viewer asked of the picture (from the page's URL).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PictureOptions {
    /// The parent whose children are all drawn.
    pub expand: Option<String>,
    /// A search: the sites whose name contains it (case-insensitive) are drawn and marked
    /// whatever their state.
    pub highlight: Option<String>,
}

/// A box of the graph: a site, or a collapsed parent's count badge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeBox {
    /// Site name (a badge: its parent's name).
    pub name: String,
    /// The site's current parent (a badge: its parent).
    pub parent: Option<String>,
    /// Up (a badge: always).
    pub up: bool,
    /// CSS classes (`site child up mep-active adopted`, `bundle mep-down`).
    pub class: String,
    /// First line.
    pub label: String,
    /// Second line.
    pub sub: String,
    /// Hover text.
    pub title: String,
    /// Centre x, top y, width, height.
    pub cx: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// A badge: how many children it stands for.
    pub bundled: Option<u32>,
}

/// A MEP link drawn on its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkLine {
    /// `a|b`.
    pub key: String,
    /// SVG path.
    pub d: String,
    /// CSS classes.
    pub class: String,
    /// `ACTIVE`, `INACTIVE` or `DOWN`.
    pub status: String,
    /// Hover text.
    pub title: String,
    /// Where the initiator's dot goes, and what it says.
    pub initiator: Option<(f64, f64, String)>,
}

/// The topology, laid out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Picture {
    /// Width of the drawing.
    pub width: f64,
    /// Height of the drawing.
    pub height: f64,
    /// Links drawn one by one.
    pub links: Vec<LinkLine>,
    /// The ACTIVE parent links as one path, and how many it holds (a large mesh only).
    pub active_mesh: Option<(String, u32)>,
    /// Sites and badges.
    pub nodes: Vec<NodeBox>,
    /// Children inside badges.
    pub bundled_children: u32,
}

/// The product's label of a MEP status.
pub fn status_label(status: MepStatus) -> &'static str {
    match status {
        MepStatus::Active => "ACTIVE",
        MepStatus::Inactive => "INACTIVE",
        MepStatus::Down => "DOWN",
    }
}

/// CSS class of a MEP status.
pub fn status_class(status: MepStatus) -> &'static str {
    match status {
        MepStatus::Active => "mep-active",
        MepStatus::Inactive => "mep-inactive",
        MepStatus::Down => "mep-down",
    }
}

fn adopted(s: &SiteView) -> bool {
    s.role == SiteRole::Child
        && s.current_parent.is_some()
        && s.current_parent != s.configured_parent
}

/// How much a child needs a look (lower is worse), or `None` when it is up and ACTIVE under
/// its configured parent.
fn notable_rank(s: &SiteView) -> Option<u8> {
    if !s.up {
        Some(0)
    } else if s.mep_status == MepStatus::Down {
        Some(1)
    } else if adopted(s) {
        Some(2)
    } else if s.mep_status == MepStatus::Inactive {
        Some(3)
    } else {
        None
    }
}

/// The worst state among `children`, as a CSS class for a badge.
fn worst_class(children: &[&SiteView]) -> &'static str {
    if children
        .iter()
        .any(|c| !c.up || c.mep_status == MepStatus::Down)
    {
        "mep-down"
    } else if children
        .iter()
        .any(|c| c.mep_status == MepStatus::Inactive || adopted(c))
    {
        "mep-inactive"
    } else {
        "mep-active"
    }
}

fn site_box(s: &SiteView, cx: f64, y: f64, highlighted: bool) -> NodeBox {
    let parent_role = s.role == SiteRole::Parent;
    let is_adopted = adopted(s);
    let class = format!(
        "site {} {} {}{}{}",
        if parent_role { "parent" } else { "child" },
        if s.up { "up" } else { "down" },
        status_class(s.mep_status),
        if is_adopted { " adopted" } else { "" },
        if highlighted { " highlighted" } else { "" },
    );
    let sub = match (s.role, is_adopted, &s.configured_parent) {
        (SiteRole::Parent, _, _) => format!("{} · {}", s.ip, status_label(s.mep_status)),
        (SiteRole::Child, true, Some(orig)) => format!("adopted from {orig}"),
        (SiteRole::Child, _, _) if s.current_parent.is_none() => "orphaned".to_owned(),
        _ => s.ip.clone(),
    };
    let title = format!(
        "{} ({}) · {} · MEP {}{}",
        s.name,
        if parent_role { "parent" } else { "child" },
        if s.up { "up" } else { "down" },
        status_label(s.mep_status),
        s.current_parent
            .as_ref()
            .map(|p| format!(" · parent {p}"))
            .unwrap_or_default()
    );
    let (w, h) = if parent_role {
        (PARENT_W, PARENT_H)
    } else {
        (CHILD_W, CHILD_H)
    };
    NodeBox {
        name: s.name.clone(),
        parent: s.current_parent.clone(),
        up: s.up,
        class,
        label: s.name.clone(),
        sub,
        title,
        cx,
        y,
        w,
        h,
        bundled: None,
    }
}

/// The line of a link between two boxes: an arc above the row between two parents, a
/// straight line from a parent's bottom to a child's top. Returns the path and the
/// initiator's end (`a_is_initiator` picks it).
fn link_path(
    kind: LinkKind,
    a: &NodeBox,
    b: &NodeBox,
    a_is_initiator: bool,
) -> (String, (f64, f64)) {
    match kind {
        LinkKind::ParentParent => {
            let lift = 18.0 + (a.cx - b.cx).abs() * 0.12;
            let top = PARENT_Y - lift.min(PARENT_Y - 8.0);
            let mid = (a.cx + b.cx) / 2.0;
            let d = format!(
                "M {} {} Q {} {} {} {}",
                Tenths(a.cx),
                Tenths(a.y),
                Tenths(mid),
                Tenths(top),
                Tenths(b.cx),
                Tenths(b.y)
            );
            (
                d,
                if a_is_initiator {
                    (a.cx, a.y)
                } else {
                    (b.cx, b.y)
                },
            )
        }
        LinkKind::ParentChild => {
            let (x0, y0, x1, y1) = (a.cx, a.y + a.h, b.cx, b.y);
            let d = format!(
                "M {} {} L {} {}",
                Tenths(x0),
                Tenths(y0),
                Tenths(x1),
                Tenths(y1)
            );
            (d, if a_is_initiator { (x0, y0) } else { (x1, y1) })
        }
    }
}

fn link_title(l: &LinkView) -> String {
    format!(
        "{} ↔ {}: {} · {} → {}: {} · {} → {}: {} · initiator {} ({})",
        l.a,
        l.b,
        status_label(l.status),
        l.a,
        l.b,
        if l.a_to_b.delivering {
            "delivering"
        } else {
            "cut"
        },
        l.b,
        l.a,
        if l.b_to_a.delivering {
            "delivering"
        } else {
            "cut"
        },
        l.initiator,
        l.initiator_rule
    )
}

impl Picture {
    /// The picture of `topology` as `options` ask.
    pub fn of(topology: &TopologyView, options: &PictureOptions) -> Picture {
        let sites = &topology.sites;
        let parents: Vec<&SiteView> = sites
            .iter()
            .filter(|s| s.role == SiteRole::Parent)
            .collect();
        let mut groups: Vec<(Option<&SiteView>, Vec<&SiteView>)> =
            parents.iter().map(|p| (Some(*p), Vec::new())).collect();
        let mut orphans = Vec::new();
        for child in sites.iter().filter(|s| s.role == SiteRole::Child) {
            match groups
                .iter_mut()
                .find(|(p, _)| p.map(|p| p.name.as_str()) == child.current_parent.as_deref())
            {
                Some((_, list)) => list.push(child),
                None => orphans.push(child),
            }
        }
        // The children drawn one by one under collapsed parents: the worst first, capped.
        let needle = options.highlight.as_deref().map(str::to_lowercase);
        let is_highlight = |s: &SiteView| {
            needle
                .as_deref()
                .is_some_and(|n| s.name.to_lowercase().contains(n))
        };
        let mut notable: Vec<(u8, &str)> = groups
            .iter()
            .filter(|(p, children)| {
                children.len() > COLLAPSE_ABOVE
                    && p.map(|p| p.name.as_str()) != options.expand.as_deref()
            })
            .flat_map(|(_, children)| children.iter())
            .filter_map(|c| {
                if is_highlight(c) {
                    Some((0, c.name.as_str()))
                } else {
                    notable_rank(c).map(|r| (r + 1, c.name.as_str()))
                }
            })
            .collect();
        notable.sort();
        let drawn_notable: std::collections::BTreeSet<&str> =
            notable.iter().take(NOTABLE_MAX).map(|(_, n)| *n).collect();
        if !orphans.is_empty() {
            groups.push((None, orphans));
        }

        let mut nodes: Vec<NodeBox> = Vec::new();
        let mut at: BTreeMap<&str, usize> = BTreeMap::new();
        let mut bundle_links: Vec<(usize, usize, &'static str, u32)> = Vec::new();
        let mut bundled_children = 0u32;
        let (mut x, mut bottom) = (GAP, CHILD_Y);
        for (parent, children) in &groups {
            let collapsed = parent.is_some()
                && children.len() > COLLAPSE_ABOVE
                && parent.map(|p| p.name.as_str()) != options.expand.as_deref();
            let (shown, hidden): (Vec<&SiteView>, Vec<&SiteView>) = if collapsed {
                children
                    .iter()
                    .partition(|c| drawn_notable.contains(c.name.as_str()))
            } else {
                (children.clone(), Vec::new())
            };
            let cells = shown.len() + usize::from(!hidden.is_empty());
            let cols = match cells {
                0..=1 => 1,
                2..=4 => 2,
                5..=9 => 3,
                _ => 4,
            };
            let width = (cols as f64 * (CHILD_W + GAP) - GAP).max(PARENT_W);
            let parent_index = parent.map(|p| {
                nodes.push(site_box(p, x + width / 2.0, PARENT_Y, is_highlight(p)));
                at.insert(p.name.as_str(), nodes.len() - 1);
                nodes.len() - 1
            });
            let cell = |i: usize| {
                let (col, row) = ((i % cols) as f64, (i / cols) as f64);
                (
                    x + col * (CHILD_W + GAP) + CHILD_W / 2.0,
                    CHILD_Y + row * (CHILD_H + GAP),
                )
            };
            for (i, c) in shown.iter().enumerate() {
                let (cx, y) = cell(i);
                nodes.push(site_box(c, cx, y, is_highlight(c)));
                at.insert(c.name.as_str(), nodes.len() - 1);
                bottom = bottom.max(y + CHILD_H);
            }
            if let (Some(p), Some(pi), false) = (parent, parent_index, hidden.is_empty()) {
                let (cx, y) = cell(shown.len());
                let worst = worst_class(children);
                let n = u32::try_from(hidden.len()).unwrap_or(u32::MAX);
                bundled_children += n;
                nodes.push(NodeBox {
                    name: p.name.clone(),
                    parent: Some(p.name.clone()),
                    up: true,
                    class: format!("bundle {worst}"),
                    label: format!("+{n} children"),
                    sub: "show them".to_owned(),
                    title: format!(
                        "{n} more children of {}, up and ACTIVE; the worst of its {} children sets the colour",
                        p.name,
                        children.len()
                    ),
                    cx,
                    y,
                    w: CHILD_W,
                    h: CHILD_H,
                    bundled: Some(n),
                });
                bundle_links.push((pi, nodes.len() - 1, worst, n));
                bottom = bottom.max(y + CHILD_H);
            }
            x += width + 3.0 * GAP;
        }

        let merge_mesh = parents.len() > MESH_MERGE_ABOVE;
        let mut mesh = String::new();
        let mut mesh_count = 0u32;
        let mut links = Vec::new();
        for l in &topology.links {
            let (Some(&ia), Some(&ib)) = (at.get(l.a.as_str()), at.get(l.b.as_str())) else {
                continue;
            };
            let (a, b) = (&nodes[ia], &nodes[ib]);
            let (d, (ix, iy)) = link_path(l.kind, a, b, l.initiator == l.a);
            if merge_mesh && l.kind == LinkKind::ParentParent && l.status == MepStatus::Active {
                if !mesh.is_empty() {
                    mesh.push(' ');
                }
                mesh.push_str(&d);
                mesh_count += 1;
                continue;
            }
            links.push(LinkLine {
                key: format!("{}|{}", l.a, l.b),
                d,
                class: format!(
                    "mep {} {}",
                    status_class(l.status),
                    if l.kind == LinkKind::ParentParent {
                        "pp"
                    } else {
                        "pc"
                    }
                ),
                status: status_label(l.status).to_owned(),
                title: link_title(l),
                initiator: Some((ix, iy, format!("{} opens the connection", l.initiator))),
            });
        }
        for (pi, bi, worst, n) in bundle_links {
            let (p, b) = (&nodes[pi], &nodes[bi]);
            let (d, _) = link_path(LinkKind::ParentChild, p, b, true);
            links.push(LinkLine {
                key: format!("{}|+{n}", p.name),
                d,
                class: format!("mep {worst} pc bundle-link"),
                status: String::new(),
                title: format!("{n} MEP links of {} to its children, ACTIVE", p.name),
                initiator: None,
            });
        }
        Picture {
            width: x,
            height: bottom + GAP + 20.0,
            links,
            active_mesh: (mesh_count > 0).then_some((mesh, mesh_count)),
            nodes,
            bundled_children,
        }
    }

    /// How many SVG elements the graph draws (the `svg` and its groups included): a site or
    /// badge is six (`g`, `a`, `rect`, two `text`, `title`), a link five with its initiator's
    /// dot, three without.
    pub fn svg_elements(&self) -> usize {
        3 + 6 * self.nodes.len()
            + self
                .links
                .iter()
                .map(|l| if l.initiator.is_some() { 5 } else { 3 })
                .sum::<usize>()
            + if self.active_mesh.is_some() { 2 } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::topology;

    fn names(p: &Picture, class: &str) -> Vec<String> {
        p.nodes
            .iter()
            .filter(|n| n.class.split(' ').any(|c| c == class))
            .map(|n| n.name.clone())
            .collect()
    }

    #[test]
    fn a_small_topology_is_drawn_whole() {
        let t = topology(3, 4);
        let p = Picture::of(&t, &PictureOptions::default());
        assert_eq!(p.nodes.len(), 7);
        assert_eq!(p.links.len(), 3 + 4);
        assert!(p.active_mesh.is_none());
        assert_eq!(p.bundled_children, 0);
    }

    #[test]
    fn at_full_scale_children_collapse_into_badges_and_the_mesh_into_one_path() {
        let mut t = topology(32, 1024);
        // Faults: a child down, one adopted, one parent's link to a child cut one way.
        let find = |t: &TopologyView, name: &str| -> usize {
            t.sites.iter().position(|s| s.name == name).expect("site")
        };
        let down = find(&t, "C0100");
        t.sites[down].up = false;
        let moved = find(&t, "C0200");
        t.sites[moved].current_parent = Some("P05".to_owned());
        let inactive = find(&t, "C0300");
        t.sites[inactive].mep_status = MepStatus::Inactive;
        let p = Picture::of(&t, &PictureOptions::default());
        let badges = names(&p, "bundle");
        assert_eq!(badges.len(), 32);
        assert_eq!(p.bundled_children, 1024 - 3);
        let children: Vec<String> = names(&p, "child");
        assert_eq!(children.len(), 3, "{children:?}");
        for name in ["C0100", "C0200", "C0300"] {
            assert!(children.contains(&name.to_owned()), "{name} drawn");
        }
        assert!(names(&p, "adopted").contains(&"C0200".to_owned()));
        // The badge of C0100's parent (P04: 100 % 32) is coloured by its down child.
        let badge = p
            .nodes
            .iter()
            .find(|n| n.bundled.is_some() && n.name == "P04")
            .expect("P04's badge");
        assert!(badge.class.contains("mep-down"), "{}", badge.class);
        assert_eq!(p.active_mesh.as_ref().map(|m| m.1), Some(32 * 31 / 2));
        assert!(p.svg_elements() <= 2000, "{} elements", p.svg_elements());
    }

    #[test]
    fn expanding_a_parent_draws_all_its_children_and_a_search_draws_its_site() {
        let t = topology(32, 1024);
        let expanded = Picture::of(
            &t,
            &PictureOptions {
                expand: Some("P07".to_owned()),
                highlight: Some("c0500".to_owned()),
            },
        );
        let children = names(&expanded, "child");
        let of_p07 = children
            .iter()
            .filter(|c| c[1..].parse::<usize>().is_ok_and(|n| n % 32 == 7))
            .count();
        assert_eq!(of_p07, 32);
        assert!(names(&expanded, "highlighted").contains(&"C0500".to_owned()));
        assert_eq!(names(&expanded, "bundle").len(), 31);
        assert!(expanded.svg_elements() <= 2000);
    }

    #[test]
    fn at_most_eighty_notable_children_are_drawn_one_by_one() {
        let mut t = topology(32, 1024);
        for s in t.sites.iter_mut().filter(|s| s.role == SiteRole::Child) {
            s.mep_status = MepStatus::Down;
        }
        let p = Picture::of(&t, &PictureOptions::default());
        assert_eq!(names(&p, "child").len(), NOTABLE_MAX);
        assert!(p.svg_elements() <= 2000, "{} elements", p.svg_elements());
        assert!(p
            .nodes
            .iter()
            .filter(|n| n.bundled.is_some())
            .all(|n| n.class.contains("mep-down")));
    }
}
