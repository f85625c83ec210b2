//! Adoption beyond the documented scenarios (docs/GSLB.md, "Adoption"): the retry when the
//! MEP link to a child is restored, requests that fail in flight, one-way parent-child cuts,
//! a child refusing a backup it prefers less than its adoptive parent, and the learning time.

mod gslb_run;

use engine::gslb::views::MepStatus;
use engine::GslbAction;
use gslb_run::{cut, down, names, restore, st, up, Run, TOPO};

/// SiteP1 down at 10 s with the link P2-C1 cut beforehand (`cut_at`, `cut`), restored at
/// 40 s (`restore_action`): P2 adopts at 20 s but cannot reach C1; the restore makes it retry.
fn unreachable_then_restored(cut_action: GslbAction, restore_action: GslbAction) -> Run {
    let mut r = Run::new(TOPO);
    r.at(5_000, cut_action).at(10_000, down("P1")).to(39_000);
    let offered = r.one("P2", "adoption.offered");
    assert_eq!(offered.t_ms, 20_000);
    assert_eq!(names(offered, "children"), Vec::<String>::new());
    assert_eq!(names(offered, "unreachable"), ["C1"]);
    assert_eq!(offered.details["down_parent"], "P1");
    assert_eq!(r.parent_of("C1"), None, "orphaned, P2 cannot reach it");
    assert_eq!(r.sim.gslb().topology().children_orphaned, 1);
    r.at(40_000, restore_action).to(60_000);
    r
}

#[test]
fn a_parent_retries_when_the_link_to_the_child_is_restored() {
    // Either order of the link's ends, both ways or the one cut direction.
    let cases = [
        (cut("P2", "C1", false), restore("P2", "C1", false)),
        (cut("C1", "P2", false), restore("C1", "P2", false)),
        (cut("P2", "C1", true), restore("P2", "C1", true)),
        (cut("C1", "P2", true), restore("C1", "P2", true)),
    ];
    for (c, rs) in cases {
        let name = format!("{c:?} / {rs:?}");
        let r = unreachable_then_restored(c, rs);
        let offers = r.of("P2", "adoption.offered");
        assert_eq!(offers.len(), 2, "{name}: the decision, then the retry");
        let retry = offers[1];
        assert_eq!(retry.t_ms, 40_000, "{name}");
        assert_eq!(
            retry.details["reason"],
            "P2 wants C1 and retries its connection: the MEP link to the child is restored",
            "{name}"
        );
        assert!(retry.details["down_parent"].is_null(), "{name}");
        assert_eq!(names(retry, "children"), ["C1"], "{name}");
        assert_eq!(retry.details["arrives_ms"], 43_000, "{name}");
        assert_eq!(
            retry.details["backups"],
            serde_json::json!(["P2", "P3"]),
            "{name}: the list of the child's original parent"
        );
        let accepted = r.one("C1", "adoption.accepted");
        assert_eq!(accepted.t_ms, 43_000, "{name}");
        assert_eq!(accepted.details["parent"], "P2", "{name}");
        assert_eq!(r.parent_of("C1").as_deref(), Some("P2"), "{name}");
        assert_eq!(r.sim.gslb().topology().adoptions, 1, "{name}");
    }
}

#[test]
fn restoring_a_link_retries_only_a_parent_that_wants_the_child() {
    // P3 defers to P2: restoring P3-C1 sends nothing. P2 holds C1: restoring P2-C1 after a
    // short cut sends nothing either.
    let mut r = Run::new(TOPO);
    r.at(5_000, cut("P3", "C1", false))
        .at(10_000, down("P1"))
        .to(30_000)
        .at(30_000, restore("P3", "C1", false))
        .at(31_000, cut("P2", "C1", false))
        .at(33_000, restore("P2", "C1", false))
        .to(60_000);
    assert_eq!(
        r.story(),
        vec![
            st(20_000, "C1", "child.orphaned"),
            st(20_000, "P2", "adoption.offered"),
            st(20_000, "P3", "adoption.deferred"),
            st(23_000, "C1", "adoption.accepted"),
        ]
    );
    assert_eq!(r.parent_of("C1").as_deref(), Some("P2"));
}

#[test]
fn restoring_a_link_while_a_request_is_in_flight_sends_no_second_one() {
    // P1 is back at 30 s and connects to C1 (arrives at 33 s); P1-C1 is cut and restored
    // in between: its request is still in flight, no second one.
    let mut r = Run::new(TOPO);
    r.at(10_000, down("P1"))
        .at(30_000, up("P1"))
        .at(31_000, cut("P1", "C1", true))
        .at(32_000, restore("P1", "C1", true))
        .to(60_000);
    let offers = r.of("P1", "adoption.offered");
    assert_eq!(offers.len(), 1, "{offers:?}");
    assert_eq!(r.one("C1", "child.migrated").t_ms, 33_000);
    assert_eq!(r.parent_of("C1").as_deref(), Some("P1"));
}

#[test]
fn the_original_parent_retries_a_child_that_lost_it_over_a_one_way_cut() {
    // P1 → C1 cut one way: C1 sees P1 DOWN and leaves it; P1 (up, seen up by its peers) still
    // wants C1 but cannot reach it; the restore brings it back, with the original's priority.
    let mut r = Run::new(TOPO);
    r.at(10_000, cut("P1", "C1", true)).to(30_000);
    assert_eq!(r.one("C1", "child.orphaned").t_ms, 20_000);
    assert!(r.of("P2", "adoption.offered").is_empty());
    assert_eq!(r.parent_of("C1"), None);
    r.at(30_000, restore("P1", "C1", true)).to(60_000);
    let retry = r.one("P1", "adoption.offered");
    assert_eq!(
        retry.details["reason"],
        "P1 wants C1 and retries its connection: the MEP link to the child is restored"
    );
    let accepted = r.one("C1", "adoption.accepted");
    assert_eq!(accepted.t_ms, 33_000);
    assert_eq!(
        accepted.details["reason"],
        "P1 is C1's original parent: its request has priority"
    );
    assert_eq!(r.parent_of("C1").as_deref(), Some("P1"));
    assert_eq!(
        r.sim.gslb().topology().adoptions,
        0,
        "a return is no adoption"
    );
}

#[test]
fn an_offer_needs_both_directions_of_the_link() {
    // A one-way cut either way between the adopter and the child: no connection.
    for (from, to) in [("P2", "C1"), ("C1", "P2")] {
        let mut r = Run::new(TOPO);
        r.at(5_000, cut(from, to, true))
            .at(10_000, down("P1"))
            .to(60_000);
        let offered = r.one("P2", "adoption.offered");
        assert_eq!(
            names(offered, "unreachable"),
            ["C1"],
            "{from} → {to} cut: P2 cannot open the connection"
        );
        assert!(r.of("C1", "adoption.accepted").is_empty(), "{from} → {to}");
        assert_eq!(r.parent_of("C1"), None, "{from} → {to}");
    }
}

#[test]
fn an_offer_fails_in_flight_with_its_reason() {
    // P1 down at 10 s; P2's request leaves at 20 s and arrives at 23 s. At 21 s:
    let cases: [(&str, Vec<GslbAction>, &str); 5] = [
        (
            "the link is cut",
            vec![cut("P2", "C1", false)],
            "MEP packets between P2 and C1 are lost: the connection fails",
        ),
        (
            "the link is cut one way",
            vec![cut("C1", "P2", true)],
            "MEP packets between P2 and C1 are lost: the connection fails",
        ),
        (
            "the child goes down",
            vec![down("C1")],
            "C1 is down: P2's connection fails",
        ),
        (
            "the adopter goes down",
            vec![down("P2")],
            "P2 went down before its connection to C1 was open",
        ),
        (
            "the original parent is back (P2 sees it up at 22 s)",
            vec![up("P1")],
            "P2 withdrew: it no longer adopts P1's children",
        ),
    ];
    for (name, actions, reason) in cases {
        let mut r = Run::new(TOPO);
        r.at(10_000, down("P1"));
        for a in actions {
            r.at(21_000, a);
        }
        r.to(23_000);
        let failed = r.one("C1", "adoption.failed");
        assert_eq!(failed.t_ms, 23_000, "{name}");
        assert_eq!(failed.details["reason"], reason, "{name}");
        assert_eq!(failed.details["parent"], "P2", "{name}");
        assert_eq!(failed.details["original_parent"], "P1", "{name}");
        assert!(r.of("C1", "adoption.accepted").is_empty(), "{name}");
        assert_ne!(r.parent_of("C1").as_deref(), Some("P2"), "{name}");
        assert_eq!(r.sim.gslb().topology().adoptions, 0, "{name}");
    }
}

#[test]
fn the_original_parents_request_fails_if_it_goes_down_again() {
    let mut r = Run::new(TOPO);
    r.at(10_000, down("P1"))
        .at(30_000, up("P1"))
        .at(31_000, down("P1"))
        .to(40_000);
    let failed = r.one("C1", "adoption.failed");
    assert_eq!(failed.t_ms, 33_000);
    assert_eq!(
        failed.details["reason"],
        "P1 went down before its connection to C1 was open"
    );
    assert_eq!(r.parent_of("C1").as_deref(), Some("P2"));
}

#[test]
fn an_adopted_child_refuses_a_backup_it_prefers_less() {
    // P2 adopts C1 at 23 s. At 30 s P3-P2 is cut: at 40 s P3 sees P2 DOWN too and adopts
    // P1's children; C1, adopted by P2 (ahead of P3 in P1's list), refuses.
    let mut r = Run::new(TOPO);
    r.at(10_000, down("P1"))
        .at(30_000, cut("P3", "P2", false))
        .to(60_000);
    let offered = r.of("P3", "adoption.offered");
    assert_eq!(offered.len(), 1);
    assert_eq!(offered[0].t_ms, 40_000);
    assert_eq!(names(offered[0], "children"), ["C1"]);
    let rejected = r.one("C1", "adoption.rejected");
    assert_eq!(rejected.t_ms, 43_000);
    assert_eq!(
        rejected.details["reason"],
        "its adoptive parent P2 is up from its view and preferred over P3 in P1's backup list [P2, P3]"
    );
    assert_eq!(rejected.details["current"], "P2");
    assert_eq!(rejected.details["offered_by"], "P3");
    assert_eq!(rejected.details["original_parent"], "P1");
    assert_eq!(rejected.details["view"], serde_json::json!({"P2": "up"}));
    assert_eq!(r.parent_of("C1").as_deref(), Some("P2"));
    let topo = r.sim.gslb().topology();
    assert_eq!((topo.adoptions, topo.rejections), (1, 1));
}

/// With a learning time of 60 s.
fn learning(cli_extra: &str) -> Run {
    Run::new(&format!("{TOPO}{cli_extra}"))
}

#[test]
fn learning_time_after_an_adoption_not_on_the_way_back() {
    let mut r = learning("set gslb parameter -svcStateLearningTime 60\n");
    r.at(10_000, down("P1")).to(30_000);
    let accepted = r.one("C1", "adoption.accepted");
    assert_eq!(accepted.details["learning_until_ms"], 83_000);
    let view = r.sim.gslb().site("C1");
    assert_eq!(
        view.as_ref().and_then(|c| c.learning_until_ms),
        Some(83_000)
    );
    assert_eq!(view.map(|c| c.mep_status), Some(MepStatus::Inactive));
    // P1 is back at 30 s: C1 returns at 33 s, without learning; the adoption's learning is
    // cancelled (nothing ends at 83 s).
    r.at(30_000, up("P1")).to(200_000);
    let back = r.one("C1", "child.migrated");
    assert_eq!(back.t_ms, 33_000);
    assert_eq!(back.details["back_to_original"], true);
    assert!(back.details["learning_until_ms"].is_null());
    assert!(r.of("C1", "child.learning_ended").is_empty());
    let view = r.sim.gslb().site("C1");
    assert_eq!(view.as_ref().and_then(|c| c.learning_until_ms), None);
    assert_eq!(view.map(|c| c.mep_status), Some(MepStatus::Active));
}

#[test]
fn no_learning_time_when_it_is_zero() {
    let mut r = learning("");
    r.at(10_000, down("P1")).to(200_000);
    let accepted = r.one("C1", "adoption.accepted");
    assert!(accepted.details["learning_until_ms"].is_null());
    assert!(r.of("C1", "child.learning_ended").is_empty());
    let view = r.sim.gslb().site("C1");
    assert_eq!(view.as_ref().and_then(|c| c.learning_until_ms), None);
    assert_eq!(view.map(|c| c.mep_status), Some(MepStatus::Active));
    assert_eq!(r.sim.next_due(), None, "no timer left");
}

#[test]
fn learning_is_cancelled_when_the_child_is_orphaned() {
    // P1's only backup is P2; P2 adopts at 23 s (learning until 83 s) and goes down at 30 s:
    // C1 is orphaned at 40 s and nobody else adopts it; its learning is over, unannounced.
    let mut r = Run::new(
        "add gslb site P1 10.0.0.1\nadd gslb site P2 10.0.0.2\nadd gslb site C1 10.0.1.1 -parentSite P1\nset gslb site P1 -backupParentlist P2\nset gslb parameter -svcStateLearningTime 60\n",
    );
    r.at(10_000, down("P1")).at(30_000, down("P2")).to(200_000);
    let orphaned = r.of("C1", "child.orphaned");
    assert_eq!(orphaned.len(), 2);
    assert_eq!(orphaned[1].t_ms, 40_000);
    assert_eq!(orphaned[1].details["parent"], "P2");
    assert!(r.of("C1", "child.learning_ended").is_empty());
    let view = r.sim.gslb().site("C1");
    assert_eq!(view.as_ref().and_then(|c| c.learning_until_ms), None);
    assert_eq!(r.sim.next_due(), None, "no learning timer left");
}

#[test]
fn a_learning_time_restarts_on_a_migration_between_backups() {
    // Scenario 3 with a learning time of 10 s: P3 adopts at 23 s (learning until 33 s), the
    // child migrates to P2 at 53 s and learns again, until 63 s.
    let mut r = learning("set gslb parameter -svcStateLearningTime 10\n");
    r.at(10_000, cut("P3", "P2", false))
        .at(10_000, cut("P1", "P3", false))
        .at(10_000, cut("P1", "C1", false))
        .at(40_000, cut("P1", "P2", false))
        .to(120_000);
    let accepted = r.one("C1", "adoption.accepted");
    assert_eq!(accepted.details["learning_until_ms"], 33_000);
    let migrated = r.one("C1", "child.migrated");
    assert_eq!(migrated.t_ms, 53_000);
    assert_eq!(migrated.details["learning_until_ms"], 63_000);
    let ended: Vec<(u64, String)> = r
        .of("C1", "child.learning_ended")
        .iter()
        .map(|e| {
            (
                e.t_ms,
                e.details["parent"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(ended, [(33_000, "P3".into()), (63_000, "P2".into())]);
    let reason = r.of("C1", "child.learning_ended")[0].details["reason"].clone();
    assert_eq!(
        reason,
        "the learning time (10s) of C1's services is over: their MEP state and metrics count again"
    );
}

#[test]
fn a_restarting_parent_decides_afresh() {
    // P2 adopts C1 (23 s) and goes down at 30 s: C1 is orphaned at 40 s and P3 adopts it
    // (43 s). P2 starts at 50 s: P3 defers to it once it hears it (51 s); P2 sees P1 silent
    // at 60 s, decides again and takes C1 back from P3 (63 s).
    let mut r = Run::new(TOPO);
    r.at(10_000, down("P1"))
        .at(30_000, down("P2"))
        .at(50_000, up("P2"))
        .to(90_000);
    assert_eq!(
        r.story(),
        vec![
            st(20_000, "C1", "child.orphaned"),
            st(20_000, "P2", "adoption.offered"),
            st(20_000, "P3", "adoption.deferred"),
            st(23_000, "C1", "adoption.accepted"),
            st(40_000, "C1", "child.orphaned"),
            st(40_000, "P3", "adoption.offered"),
            st(43_000, "C1", "adoption.accepted"),
            st(51_000, "P3", "adoption.deferred"),
            st(60_000, "P2", "adoption.offered"),
            st(63_000, "C1", "child.migrated"),
        ]
    );
    let offered = r.of("P2", "adoption.offered");
    assert_eq!(
        offered[1].details["view"],
        serde_json::json!({"P1": "down", "P2": "self", "P3": "up"})
    );
    assert_eq!(r.parent_of("C1").as_deref(), Some("P2"));
}

#[test]
fn a_new_connection_drops_the_flips_pending_on_the_old_one() {
    // C1 is adopted by P2 (23 s). At 30 s one direction between them is cut (a flip is due
    // at 40 s) and P1 is back: C1 returns to P1 at 33 s. The old connection's flip is
    // dropped with it: from 33 s nothing is left to do, nothing happens at 40 s.
    for (from, to) in [("P2", "C1"), ("C1", "P2")] {
        let mut r = Run::new(TOPO);
        r.at(10_000, down("P1"))
            .at(30_000, cut(from, to, true))
            .at(30_000, up("P1"))
            .to(35_000);
        assert_eq!(r.one("C1", "child.migrated").t_ms, 33_000, "{from} → {to}");
        assert_eq!(
            engine::Engine::next_wakeup(r.sim.gslb()),
            None,
            "{from} → {to}: nothing pending"
        );
        let before = r.events.len();
        r.to(60_000);
        assert_eq!(r.events.len(), before, "{from} → {to}");
        assert_eq!(r.parent_of("C1").as_deref(), Some("P1"));
    }
}
