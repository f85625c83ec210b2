//! MEP through its events (docs/GSLB.md, "MEP, event-driven"): what a site going down or up
//! and a cut or restored link write, each link's two views and its status, the retry when a
//! child comes back.

mod gslb_run;

use engine::gslb::views::MepStatus;
use engine::Event;
use gslb_run::{cut, down, names, restore, up, Run, TOPO};
use serde_json::{json, Value};

/// The GSLB events of a run as (ms, subject, kind, details).
fn gslb(r: &Run) -> Vec<(u64, String, String, Value)> {
    r.events
        .iter()
        .filter(|e| e.engine == engine::EngineId::Gslb)
        .map(|e| {
            (
                e.t_ms,
                e.subject.clone(),
                e.kind.clone(),
                e.details.value().clone(),
            )
        })
        .collect()
}

fn ev(ms: u64, subject: &str, kind: &str, details: Value) -> (u64, String, String, Value) {
    (ms, subject.into(), kind.into(), details)
}

/// A `mep.link` event's details without a change.
fn link(
    a: &str,
    b: &str,
    views: [(&str, bool); 2],
    kind: &str,
    reason: &str,
    status: &str,
) -> Value {
    let [(a_sees_b, a_to_b), (b_sees_a, b_to_a)] = views;
    json!({
        "a": a, "a_sees_b": a_sees_b, "a_to_b": a_to_b,
        "b": b, "b_sees_a": b_sees_a, "b_to_a": b_to_a,
        "kind": kind, "reason": reason, "status": status,
    })
}

const CHILD_DOWN: &str =
    "the site stops: it sends no MEP packet; its parent sees it DOWN after the keep-alive timeout";
const CHILD_UP: &str = "the site starts: its parent hears it at its next health packet";
const PARENT_DOWN: &str = "the site stops: it sends no MEP packet and answers no DNS query; its peers and children see it DOWN after the keep-alive timeout";
const PARENT_UP: &str = "the site starts: it hears its peers at their next health packet and sees a silent one DOWN after the keep-alive timeout; it connects to its children";

#[test]
fn a_child_that_reboots_is_seen_down_then_up_by_its_parent() {
    let mut r = Run::new(TOPO);
    r.at(10_000, down("C1")).at(30_000, up("C1")).to(60_000);
    assert_eq!(
        gslb(&r),
        vec![
            ev(10_000, "C1", "site.down", json!({"children": [], "reason": CHILD_DOWN, "role": "child"})),
            ev(
                20_000,
                "P1-C1",
                "mep.link",
                link("P1", "C1", [("down", true), ("unknown", false)], "parent_child", "P1 sees C1 DOWN: no MEP packet for 10s", "DOWN"),
            ),
            ev(30_000, "C1", "site.up", json!({"reason": CHILD_UP, "role": "child"})),
            ev(
                31_000,
                "P1-C1",
                "mep.link",
                link(
                    "P1",
                    "C1",
                    [("up", true), ("up", true)],
                    "parent_child",
                    "C1 sees P1 UP: its health packets arrive; P1 sees C1 UP: its health packets arrive",
                    "ACTIVE"
                ),
            ),
        ]
    );
    // It keeps its parent throughout.
    assert_eq!(r.parent_of("C1").as_deref(), Some("P1"));
}

#[test]
fn a_parent_that_restarts_is_seen_down_by_its_peers_then_hears_them() {
    let mut r = Run::new(TOPO);
    r.at(10_000, down("P2"));
    let view = r.sim.gslb().site("P2");
    assert_eq!(view.as_ref().map(|s| s.mep_status), Some(MepStatus::Down));
    assert_eq!(
        view.map(|s| s.peer_view),
        Some(vec![("P1".into(), false), ("P3".into(), false)]),
        "a site that is down sees nobody"
    );
    r.at(30_000, up("P2")).to(60_000);
    assert_eq!(
        gslb(&r),
        vec![
            ev(10_000, "P2", "site.down", json!({"children": [], "reason": PARENT_DOWN, "role": "parent"})),
            ev(
                20_000,
                "P1-P2",
                "mep.link",
                link("P1", "P2", [("down", true), ("unknown", false)], "parent_parent", "P1 sees P2 DOWN: no MEP packet for 10s", "DOWN"),
            ),
            ev(
                20_000,
                "P2-P3",
                "mep.link",
                link("P2", "P3", [("unknown", false), ("down", true)], "parent_parent", "P3 sees P2 DOWN: no MEP packet for 10s", "DOWN"),
            ),
            ev(30_000, "P2", "site.up", json!({"reason": PARENT_UP, "role": "parent"})),
            ev(
                31_000,
                "P1-P2",
                "mep.link",
                link(
                    "P1",
                    "P2",
                    [("up", true), ("up", true)],
                    "parent_parent",
                    "P2 sees P1 UP: its health packets arrive; P1 sees P2 UP: its health packets arrive",
                    "ACTIVE"
                ),
            ),
            ev(
                31_000,
                "P2-P3",
                "mep.link",
                link(
                    "P2",
                    "P3",
                    [("up", true), ("up", true)],
                    "parent_parent",
                    "P3 sees P2 UP: its health packets arrive; P2 sees P3 UP: its health packets arrive",
                    "ACTIVE"
                ),
            ),
        ]
    );
    let view = r.sim.gslb().site("P2");
    assert_eq!(view.as_ref().map(|s| s.mep_status), Some(MepStatus::Active));
    assert_eq!(
        view.map(|s| s.peer_view),
        Some(vec![("P1".into(), true), ("P3".into(), true)])
    );
}

#[test]
fn a_parent_going_down_names_the_children_it_held() {
    let mut r = Run::new(TOPO);
    r.at(10_000, down("P1")).to(30_000);
    let e = r.one("P1", "site.down");
    assert_eq!(names(e, "children"), ["C1"]);
    assert_eq!(e.details["role"], "parent");
    // P2 holds C1 now; when it goes down it names it.
    r.at(30_000, down("P2"));
    assert_eq!(names(r.one("P2", "site.down"), "children"), ["C1"]);
}

#[test]
fn a_returning_parent_connects_to_its_children_away_only() {
    // P1 (children C1, C2) restarts before anyone sees it DOWN: its children never left, it
    // sends nothing.
    let mut r = Run::new(&format!("{TOPO}add gslb site C2 10.0.1.2 -parentSite P1\n"));
    r.at(10_000, down("P1")).at(15_000, up("P1")).to(60_000);
    assert!(r.of("P1", "adoption.offered").is_empty());
    assert!(r.of("P2", "adoption.offered").is_empty());
    assert_eq!(r.parent_of("C1").as_deref(), Some("P1"));
    // Down long enough for P2 to adopt both: back, it connects to both.
    let mut r = Run::new(&format!("{TOPO}add gslb site C2 10.0.1.2 -parentSite P1\n"));
    r.at(10_000, down("P1")).at(30_000, up("P1")).to(60_000);
    let offered = r.one("P1", "adoption.offered");
    assert_eq!(offered.t_ms, 30_000);
    assert_eq!(names(offered, "children"), ["C1", "C2"]);
    assert_eq!(
        offered.details["reason"],
        "P1 is back: it connects to its children (the request of the original parent has priority)"
    );
    assert_eq!(offered.details["backups"], json!(["P2", "P3"]));
    assert!(offered.details["down_parent"].is_null() && offered.details["view"].is_null());
    assert_eq!(r.of("C2", "child.migrated").len(), 1);
}

#[test]
fn a_child_that_comes_back_is_retried_by_the_parent_that_wants_it() {
    // C1 orphaned at 20 s, P2 cannot reach it (P2-C1 cut); C1 goes down at 25 s, the link is
    // restored at 26 s (C1 is down: nothing to send); C1 starts at 30 s: P2 retries.
    let mut r = Run::new(TOPO);
    r.at(5_000, cut("P2", "C1", false))
        .at(10_000, down("P1"))
        .at(25_000, down("C1"))
        .at(26_000, restore("P2", "C1", false))
        .to(29_000);
    assert_eq!(r.of("P2", "adoption.offered").len(), 1, "the decision only");
    r.at(30_000, up("C1")).to(60_000);
    let offers = r.of("P2", "adoption.offered");
    assert_eq!(offers.len(), 2);
    assert_eq!(offers[1].t_ms, 30_000);
    assert_eq!(
        offers[1].details["reason"],
        "P2 wants C1 and retries its connection: the child is back"
    );
    assert_eq!(r.one("C1", "adoption.accepted").t_ms, 33_000);
    assert_eq!(r.parent_of("C1").as_deref(), Some("P2"));
    // The new connection: both views up, ACTIVE.
    let topo = r.sim.gslb().topology();
    let l = topo.links.iter().find(|l| l.a == "P2" && l.b == "C1");
    assert!(
        l.is_some_and(|l| l.status == MepStatus::Active && l.a_to_b.seen_up && l.b_to_a.seen_up)
    );
}

#[test]
fn operator_cuts_and_restores_name_the_link_parent_first() {
    let cases = [
        (
            cut("C1", "P1", true),
            "P1-C1",
            "cut",
            "MEP packets C1 → P1 are lost from now on (cut by an operator)",
            [true, false],
        ),
        (
            cut("P1", "C1", false),
            "P1-C1",
            "cut",
            "MEP packets P1 ↔ C1 are lost from now on (cut by an operator)",
            [false, false],
        ),
        (
            cut("P3", "P2", true),
            "P2-P3",
            "cut",
            "MEP packets P3 → P2 are lost from now on (cut by an operator)",
            [true, false],
        ),
        (
            cut("P2", "P1", false),
            "P1-P2",
            "cut",
            "MEP packets P2 ↔ P1 are lost from now on (cut by an operator)",
            [false, false],
        ),
    ];
    for (action, subject, change, reason, [a_to_b, b_to_a]) in cases {
        let mut r = Run::new(TOPO);
        r.at(10_000, action.clone());
        let e: Vec<&Event> = r.events.iter().filter(|e| e.kind == "mep.link").collect();
        assert_eq!(e.len(), 1, "{action:?}");
        assert_eq!(e[0].subject, subject, "{action:?}");
        assert_eq!(e[0].details["change"], change, "{action:?}");
        assert_eq!(e[0].details["reason"], reason, "{action:?}");
        assert_eq!(
            (&e[0].details["a_to_b"], &e[0].details["b_to_a"]),
            (&json!(a_to_b), &json!(b_to_a)),
            "{action:?}"
        );
        // Nobody has noticed yet: both views still up, ACTIVE.
        assert_eq!(
            (
                &e[0].details["a_sees_b"],
                &e[0].details["b_sees_a"],
                &e[0].details["status"]
            ),
            (&json!("up"), &json!("up"), &json!("ACTIVE")),
            "{action:?}"
        );
    }
    let mut r = Run::new(TOPO);
    r.at(10_000, cut("P1", "P2", false))
        .at(25_400, restore("P1", "P2", true));
    let restored = r.events.last().cloned();
    let restored = restored.unwrap_or_else(|| panic!("no event"));
    assert_eq!(restored.details["change"], "restored");
    assert_eq!(
        restored.details["reason"],
        "MEP packets P1 → P2 are delivered again (restored by an operator)"
    );
    assert_eq!(
        (&restored.details["a_to_b"], &restored.details["b_to_a"]),
        (&json!(true), &json!(false))
    );
    assert_eq!(restored.details["status"], "DOWN");
    // P2 hears P1 again at the next tick: the link is INACTIVE (one way).
    r.to(40_000);
    let flip = r
        .events
        .last()
        .cloned()
        .unwrap_or_else(|| panic!("no flip"));
    assert_eq!((flip.t_ms, flip.kind.as_str()), (26_000, "mep.link"));
    assert_eq!(flip.details["status"], "INACTIVE");
    assert_eq!(
        flip.details["reason"],
        "P2 sees P1 UP: its health packets arrive"
    );
    assert_eq!(
        (&flip.details["a_sees_b"], &flip.details["b_sees_a"]),
        (&json!("down"), &json!("up"))
    );
}
