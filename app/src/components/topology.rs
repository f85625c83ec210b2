//! The GSLB topology as an SVG graph, drawn from its layout ([`Picture`]): parents on a row at
//! the top, each parent's current children in a grid below it (or a count badge for the
//! unremarkable ones of a large parent), orphaned children apart on the right. MEP links are
//! coloured by status (ACTIVE, INACTIVE = one way only, DOWN) and the initiator's end carries
//! a dot. An adopted child (current parent ≠ configured parent) is drawn dashed under its
//! adoptive parent, labelled with its original parent.

use leptos::prelude::*;

use crate::model::gslb_picture::Picture;

pub use crate::model::gslb_picture::{status_class, status_label};

/// The graph's zoom steps: its drawn size over its natural size.
pub const ZOOMS: [f64; 6] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0];
/// The step drawn at first (natural size).
pub const ACTUAL_SIZE: usize = 3;

/// The topology graph, laid out on the server ([`Picture`]). `href_prefix` links each site to
/// its page (`/gslb/sites/`), and `badge_prefix` each collapsed parent's count badge to the
/// page with that parent expanded (`/gslb?expand=`); empty for none (the guided replay's
/// snapshots).
#[component]
pub fn TopologyGraph(
    picture: Picture,
    #[prop(optional)] href_prefix: &'static str,
    #[prop(optional)] badge_prefix: &'static str,
    #[prop(optional)] id: &'static str,
) -> impl IntoView {
    let Picture {
        width,
        height,
        links,
        active_mesh,
        nodes,
        bundled_children,
    } = picture;
    let mesh = active_mesh.map(|(d, n)| {
        view! {
            <path d=d class="mep mep-active pp mesh" data-links=n.to_string()>
                <title>{format!("{n} parent-to-parent MEP links, ACTIVE both ways")}</title>
            </path>
        }
    });
    let links = links
        .into_iter()
        .map(|l| {
            view! {
                <g data-link=l.key data-status=l.status>
                    <path d=l.d class=l.class><title>{l.title}</title></path>
                    {l.initiator.map(|(x, y, title)| view! {
                        <circle cx=x cy=y r="4" class="initiator"><title>{title}</title></circle>
                    })}
                </g>
            }
        })
        .collect_view();
    let nodes = nodes
        .into_iter()
        .map(|n| {
            let href = match n.bundled {
                Some(_) => (!badge_prefix.is_empty()).then(|| format!("{badge_prefix}{}", n.name)),
                None => (!href_prefix.is_empty()).then(|| format!("{href_prefix}{}", n.name)),
            };
            let (data_site, data_bundle) = match n.bundled {
                Some(count) => (None, Some(format!("{}:{count}", n.name))),
                None => (Some(n.name.clone()), None),
            };
            // One view, so the macro creates `a` and `title` in the SVG namespace (outside an
            // `svg`/`g` parent it would make HTML ones, which a browser does not draw after a
            // client-side render). Without `href` the `a` is inert.
            view! {
                <g class=n.class data-site=data_site data-bundle=data_bundle
                    data-parent=n.parent.unwrap_or_default()
                    data-up=n.up.to_string()>
                    <a href=href>
                        <rect x=n.cx - n.w / 2.0 y=n.y width=n.w height=n.h rx="5"/>
                        <text x=n.cx y=n.y + 14.0 class="name">{n.label}</text>
                        <text x=n.cx y=n.y + n.h - 6.0 class="sub">{n.sub}</text>
                        <title>{n.title}</title>
                    </a>
                </g>
            }
        })
        .collect_view();
    // Zoom: the drawn size over the natural one, or fitted to the frame's width; the frame
    // scrolls (pans) when the graph is larger than it. The page's behaviours change it in the
    // browser (`data-zoom` buttons); a page read again keeps what they set
    // (`data-client-attrs`).
    let natural = (format!("{width:.0}"), format!("{height:.0}"));
    view! {
        <div class="controls topology-zoom" role="group" aria-label="Zoom of the topology">
            <button type="button" class="zoom-out" aria-label="Zoom out" data-zoom="out" data-client-attrs="disabled">"−"</button>
            <button type="button" class="zoom-in" aria-label="Zoom in" data-zoom="in" data-client-attrs="disabled">"+"</button>
            <button type="button" class="zoom-fit" aria-pressed="false" data-zoom="fit" data-client-attrs="aria-pressed">"Fit to width"</button>
            <button type="button" class="zoom-actual" data-zoom="actual">"Actual size"</button>
            <span class="muted small zoom-level" aria-live="polite" data-keep="">"100 %"</span>
            <span class="muted small">"Scroll or swipe inside the frame to pan."</span>
        </div>
        <div class="topology-wrap">
            <svg class="topology" id=id viewBox=format!("0 0 {width:.0} {height:.0}")
                width=natural.0.clone() height=natural.1.clone() role="group"
                data-width=natural.0 data-height=natural.1 data-step=ACTUAL_SIZE.to_string()
                data-client-attrs="width height data-step data-fit"
                aria-label="GSLB parent-child topology">
                <g class="links">{mesh}{links}</g>
                <g class="nodes">{nodes}</g>
            </svg>
        </div>
        <div class="legend">
            <span><i class="mep-active"></i>"ACTIVE (both ways)"</span>
            <span><i class="mep-inactive"></i>"INACTIVE (one way only)"</span>
            <span><i class="mep-down"></i>"DOWN (no packets for the keep-alive timeout)"</span>
            <span>"● initiator (opens the MEP connection)"</span>
            <span>"dashed box: adopted by a backup parent"</span>
            {(bundled_children > 0).then(|| view! {
                <span id="topology-bundled">{format!("\"+N children\": {bundled_children} children up and ACTIVE under their configured parent, drawn as a count (its colour: the worst of that parent's children); click one to show them")}</span>
            })}
        </div>
    }
}
