//! The GSLB topology as an SVG graph: parents on a row at the top, each parent's current
//! children in a grid below it, orphaned children apart on the right. MEP links are coloured
//! by status (ACTIVE, INACTIVE = one way only, DOWN) and the initiator's end carries a dot.
//! An adopted child (current parent ≠ configured parent) is drawn dashed under its adoptive
//! parent, labelled with its original parent.

use std::collections::BTreeMap;

use engine::gslb::config::SiteRole;
use engine::gslb::views::{LinkKind, LinkView, MepStatus, SiteView, TopologyView};
use leptos::prelude::*;

const PARENT_W: f64 = 120.0;
const PARENT_H: f64 = 36.0;
const CHILD_W: f64 = 112.0;
const CHILD_H: f64 = 30.0;
const GAP: f64 = 14.0;
const PARENT_Y: f64 = 90.0;
const CHILD_Y: f64 = PARENT_Y + PARENT_H + 70.0;

/// CSS class of a MEP status.
pub fn status_class(status: MepStatus) -> &'static str {
    match status {
        MepStatus::Active => "mep-active",
        MepStatus::Inactive => "mep-inactive",
        MepStatus::Down => "mep-down",
    }
}

/// The product's label of a MEP status.
pub fn status_label(status: MepStatus) -> &'static str {
    match status {
        MepStatus::Active => "ACTIVE",
        MepStatus::Inactive => "INACTIVE",
        MepStatus::Down => "DOWN",
    }
}

/// Where each site is drawn: centre x, top y, width, height.
#[derive(Clone, Copy)]
struct Place {
    cx: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// One column per parent (plus one for orphans): its children in a grid of up to 4 columns.
fn layout(sites: &[SiteView]) -> (BTreeMap<String, Place>, f64, f64) {
    let parents: Vec<&SiteView> = sites
        .iter()
        .filter(|s| s.role == SiteRole::Parent)
        .collect();
    let mut groups: Vec<(Option<&str>, Vec<&SiteView>)> = parents
        .iter()
        .map(|p| (Some(p.name.as_str()), Vec::new()))
        .collect();
    let mut orphans = Vec::new();
    for child in sites.iter().filter(|s| s.role == SiteRole::Child) {
        match groups
            .iter_mut()
            .find(|(p, _)| child.current_parent.as_deref() == *p)
        {
            Some((_, list)) => list.push(child),
            None => orphans.push(child),
        }
    }
    if !orphans.is_empty() {
        groups.push((None, orphans));
    }
    let mut places = BTreeMap::new();
    let (mut x, mut bottom) = (GAP, CHILD_Y);
    for (parent, children) in &groups {
        let cols = match children.len() {
            0..=1 => 1,
            2..=4 => 2,
            5..=9 => 3,
            _ => 4,
        };
        let width = (cols as f64 * (CHILD_W + GAP) - GAP).max(PARENT_W);
        if let Some(p) = parent {
            places.insert(
                (*p).to_owned(),
                Place {
                    cx: x + width / 2.0,
                    y: PARENT_Y,
                    w: PARENT_W,
                    h: PARENT_H,
                },
            );
        }
        for (i, c) in children.iter().enumerate() {
            let (col, row) = ((i % cols) as f64, (i / cols) as f64);
            let y = CHILD_Y + row * (CHILD_H + GAP);
            places.insert(
                c.name.clone(),
                Place {
                    cx: x + col * (CHILD_W + GAP) + CHILD_W / 2.0,
                    y,
                    w: CHILD_W,
                    h: CHILD_H,
                },
            );
            bottom = bottom.max(y + CHILD_H);
        }
        x += width + 3.0 * GAP;
    }
    (places, x, bottom + GAP + 20.0)
}

/// The line of a link: an arc above the row between two parents, a straight line from a
/// parent's bottom to a child's top.
fn link_path(link: &LinkView, places: &BTreeMap<String, Place>) -> Option<(String, (f64, f64))> {
    let (a, b) = (places.get(&link.a)?, places.get(&link.b)?);
    match link.kind {
        LinkKind::ParentParent => {
            let lift = 18.0 + (a.cx - b.cx).abs() * 0.12;
            let top = PARENT_Y - lift.min(PARENT_Y - 8.0);
            let mid = (a.cx + b.cx) / 2.0;
            let d = format!(
                "M {:.1} {:.1} Q {mid:.1} {top:.1} {:.1} {:.1}",
                a.cx, a.y, b.cx, b.y
            );
            let end = if link.initiator == link.a {
                (a.cx, a.y)
            } else {
                (b.cx, b.y)
            };
            Some((d, end))
        }
        LinkKind::ParentChild => {
            let (x0, y0, x1, y1) = (a.cx, a.y + a.h, b.cx, b.y);
            let d = format!("M {x0:.1} {y0:.1} L {x1:.1} {y1:.1}");
            let end = if link.initiator == link.a {
                (x0, y0)
            } else {
                (x1, y1)
            };
            Some((d, end))
        }
    }
}

/// The topology graph. `href_prefix` links each site to its page (`/gslb/sites/`); empty for
/// none (the guided replay's snapshots).
#[component]
pub fn TopologyGraph(
    topology: TopologyView,
    #[prop(optional)] href_prefix: &'static str,
    #[prop(optional)] id: &'static str,
) -> impl IntoView {
    let (places, width, height) = layout(&topology.sites);
    let links = topology
        .links
        .iter()
        .filter_map(|l| {
            let (d, (ix, iy)) = link_path(l, &places)?;
            let title = format!(
                "{} ↔ {}: {} · {} → {}: {} · {} → {}: {} · initiator {} ({})",
                l.a,
                l.b,
                status_label(l.status),
                l.a,
                l.b,
                if l.a_to_b.delivering { "delivering" } else { "cut" },
                l.b,
                l.a,
                if l.b_to_a.delivering { "delivering" } else { "cut" },
                l.initiator,
                l.initiator_rule
            );
            let class = format!(
                "mep {} {}",
                status_class(l.status),
                if l.kind == LinkKind::ParentParent { "pp" } else { "pc" }
            );
            let key = format!("{}|{}", l.a, l.b);
            Some(view! {
                <g data-link=key data-status=status_label(l.status)>
                    <path d=d class=class><title>{title}</title></path>
                    <circle cx=ix cy=iy r="4" class="initiator"><title>{format!("{} opens the connection", l.initiator)}</title></circle>
                </g>
            })
        })
        .collect_view();
    let nodes = topology
        .sites
        .iter()
        .filter_map(|s| {
            let p = *places.get(&s.name)?;
            let adopted = s.role == SiteRole::Child
                && s.current_parent.is_some()
                && s.current_parent != s.configured_parent;
            let class = format!(
                "site {} {} {}{}",
                if s.role == SiteRole::Parent {
                    "parent"
                } else {
                    "child"
                },
                if s.up { "up" } else { "down" },
                status_class(s.mep_status),
                if adopted { " adopted" } else { "" }
            );
            let sub = match (s.role, adopted, &s.configured_parent) {
                (SiteRole::Parent, _, _) => format!("{} · {}", s.ip, status_label(s.mep_status)),
                (SiteRole::Child, true, Some(orig)) => format!("adopted from {orig}"),
                (SiteRole::Child, _, _) if s.current_parent.is_none() => "orphaned".to_owned(),
                _ => s.ip.clone(),
            };
            let label = s.name.clone();
            let href = (!href_prefix.is_empty()).then(|| format!("{href_prefix}{}", s.name));
            let title = format!(
                "{} ({}) · {} · MEP {}{}",
                s.name,
                if s.role == SiteRole::Parent {
                    "parent"
                } else {
                    "child"
                },
                if s.up { "up" } else { "down" },
                status_label(s.mep_status),
                s.current_parent
                    .as_ref()
                    .map(|p| format!(" · parent {p}"))
                    .unwrap_or_default()
            );
            // One view, so the macro creates `a` and `title` in the SVG namespace (outside an
            // `svg`/`g` parent it would make HTML ones, which a browser does not draw after a
            // client-side render). Without `href` the `a` is inert.
            Some(view! {
                <g class=class data-site=s.name.clone()
                    data-parent=s.current_parent.clone().unwrap_or_default()
                    data-up=s.up.to_string()>
                    <a href=href>
                        <rect x=p.cx - p.w / 2.0 y=p.y width=p.w height=p.h rx="5"/>
                        <text x=p.cx y=p.y + 14.0 class="name">{label}</text>
                        <text x=p.cx y=p.y + p.h - 6.0 class="sub">{sub}</text>
                        <title>{title}</title>
                    </a>
                </g>
            })
        })
        .collect_view();
    view! {
        <div class="topology-wrap">
            <svg class="topology" id=id viewBox=format!("0 0 {width:.0} {height:.0}")
                width=format!("{width:.0}") height=format!("{height:.0}") role="group"
                aria-label="GSLB parent-child topology">
                <g class="links">{links}</g>
                <g class="nodes">{nodes}</g>
            </svg>
        </div>
        <div class="legend">
            <span><i class="mep-active"></i>"ACTIVE (both ways)"</span>
            <span><i class="mep-inactive"></i>"INACTIVE (one way only)"</span>
            <span><i class="mep-down"></i>"DOWN (no packets for the keep-alive timeout)"</span>
            <span>"● initiator (opens the MEP connection)"</span>
            <span>"dashed box: adopted by a backup parent"</span>
        </div>
    }
}
