//! The GSLB engine beyond the documented scenarios: ADNS answers and their methods, the
//! fall-back to round robin, the answer log, learning time, asymmetric links, the initiator
//! rule, versions, action checks and the views.

use core::net::IpAddr;

use engine::gslb::config::GslbMethod;
use engine::gslb::views::{LinkKind, MepStatus, ResolveOutcome};
use engine::{ActionError, GslbAction, Scenario, SimTime, Simulation};

const DEMO: &str = include_str!("../../scenarios/demo.toml");

fn demo() -> Scenario {
    Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn apply(sim: &mut Simulation, action: GslbAction) {
    if let Err(e) = sim.apply_now(action, Some("test".into())) {
        panic!("{e}");
    }
}

fn cut(from: &str, to: &str, one_way: bool) -> GslbAction {
    GslbAction::MepCut {
        from: from.into(),
        to: to.into(),
        one_way,
    }
}

/// A scenario with the given `[gslb]` body.
fn gslb(body: &str) -> Scenario {
    let text = format!("[scenario]\nname = \"g\"\n\n{body}");
    Scenario::from_toml_str(&text, "g.toml").unwrap_or_else(|e| panic!("{e}"))
}

const TWO_PARENTS: &str = r#"
[gslb]
learning_time = "60s"

[[gslb.sites]]
name = "P1"
ip = "10.0.0.1"
role = "parent"
location = "EU.FR"
backup_parents = ["P2"]

[[gslb.sites.services]]
name = "web-p1"
ip = "10.0.0.10"
public_ip = "198.51.100.1"

[[gslb.sites]]
name = "P2"
ip = "10.0.0.2"
role = "parent"
location = "US.NY"

[[gslb.sites.services]]
name = "web-p2"
ip = "10.0.0.20"
monitor = true

[[gslb.sites]]
name = "C1"
ip = "10.0.1.1"
role = "child"
parent = "P1"

[[gslb.domains]]
name = "rr.example.com"
method = "round_robin"

[[gslb.domains]]
name = "lc.example.com"
method = "least_connections"
ttl_s = 20

[[gslb.domains]]
name = "rtt.example.com"
method = "rtt"
services = ["web-p1", "web-p2"]

[[gslb.client_locations]]
name = "Europe"
network = "192.0.2.0/24"
location = "EU"
rtt_ms = { P1 = 80, P2 = 30 }

[[gslb.client_locations]]
name = "NewYork"
network = "203.0.113.0/24"
location = "US.NY"
"#;

#[test]
fn the_demo_offers_client_locations_and_answers_each_method() {
    let sim = Simulation::new(&demo(), 42);
    let g = sim.gslb();
    let locs = g.client_locations();
    let names: Vec<&str> = locs.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        ["clients-SiteP1", "clients-SiteP2", "clients-SiteP3"]
    );
    assert_eq!(locs[1].network, "198.18.1.0/24");
    assert_eq!(locs[1].sample_ip, "198.18.1.1");
    assert_eq!(locs[2].nearest_site.as_deref(), Some("SiteP3"));

    // Least connections, answered by the nearest parent, the service with fewest connections.
    let r = g.preview_resolve("apps.example.com", ip(&locs[1].sample_ip));
    assert_eq!(r.outcome, ResolveOutcome::Answered);
    assert_eq!(r.answered_by.as_deref(), Some("SiteP2"));
    assert_eq!(r.client_location.as_deref(), Some("clients-SiteP2"));
    assert_eq!(r.method, Some(GslbMethod::LeastConnections));
    assert_eq!(r.effective_method, Some(GslbMethod::LeastConnections));
    assert_eq!((r.ttl_s, r.ips.len(), r.candidates.len()), (5, 1, 7));
    let min = r
        .candidates
        .iter()
        .filter_map(|c| c.metric)
        .fold(f64::INFINITY, f64::min);
    let chosen: Vec<_> = r.candidates.iter().filter(|c| c.chosen).collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].metric, Some(min));
    assert_eq!(r.ips[0], chosen[0].ip);
    assert!(
        r.reason.contains("SiteP2 answers") && r.reason.contains("has the fewest"),
        "{}",
        r.reason
    );

    // Static proximity: the site at the client's own location.
    let r = g.preview_resolve("STATIC.example.com.", ip("198.18.2.77"));
    assert_eq!(r.ips, ["203.0.113.3"], "{}", r.reason);
    assert_eq!(r.ttl_s, 30);
    assert!(
        r.reason
            .contains("svc-SiteP3 at SiteP3 is nearest to clients-SiteP3 (distance 0)"),
        "{}",
        r.reason
    );

    // Not ours; a client outside every location gets round robin for proximity.
    let r = g.preview_resolve("www.example.org", ip("198.18.0.1"));
    assert_eq!(r.outcome, ResolveOutcome::NotOurs);
    assert!(!g.is_domain("www.example.org") && g.is_domain("Apps.Example.com."));
    let r = g.preview_resolve("static.example.com", ip("8.8.8.8"));
    assert_eq!(r.effective_method, Some(GslbMethod::RoundRobin));
    assert!(
        r.reason.contains("SiteP1 answers: the first up parent"),
        "{}",
        r.reason
    );
}

#[test]
fn dynamic_methods_fall_back_to_round_robin_while_mep_is_down() {
    let mut sim = Simulation::new(&demo(), 42);
    sim.advance_to(SimTime::from_secs(5));
    apply(&mut sim, cut("SiteP1", "SiteP2", false));
    let client = ip("198.18.1.9");
    let before = sim.gslb().preview_resolve("apps.example.com", client);
    assert_eq!(before.effective_method, Some(GslbMethod::LeastConnections));
    sim.advance_to(SimTime::from_secs(16));
    let r = sim.gslb().preview_resolve("apps.example.com", client);
    assert_eq!(r.answered_by.as_deref(), Some("SiteP2"));
    assert_eq!(
        r.effective_method,
        Some(GslbMethod::RoundRobin),
        "{}",
        r.reason
    );
    assert!(
        r.reason.contains(
            "least connections falls back to round robin: MEP to SiteP1 is DOWN from SiteP2's view"
        ),
        "{}",
        r.reason
    );
    // The default service has a monitor bound: SiteP1's service stays in the answer.
    let p1 = r.candidates.iter().find(|c| c.site == "SiteP1");
    assert!(p1.is_some_and(|c| c.up && c.metric.is_none()));
    // SiteP3 still sees SiteP1: its clients keep least connections.
    let r = sim
        .gslb()
        .preview_resolve("apps.example.com", ip("198.18.2.9"));
    assert_eq!(
        r.effective_method,
        Some(GslbMethod::LeastConnections),
        "{}",
        r.reason
    );
}

#[test]
fn round_robin_advances_only_on_real_queries_and_answers_are_logged_per_second() {
    let mut sim = Simulation::new(&gslb(TWO_PARENTS), 1);
    sim.advance_to(SimTime::from_millis(10_200));
    let client = ip("192.0.2.5");
    let preview = sim.gslb().preview_resolve("rr.example.com", client);
    assert_eq!(
        sim.gslb().preview_resolve("rr.example.com", client),
        preview
    );
    let answers: Vec<String> = (0..6)
        .map(|_| sim.resolve_dns("rr.example.com", client).ips.concat())
        .collect();
    assert_eq!(answers[0], preview.ips.concat());
    assert_eq!(
        answers[0..3],
        answers[3..6],
        "three services in turn: {answers:?}"
    );
    assert_eq!(
        answers[..3]
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        3
    );
    assert_eq!(sim.gslb().topology().dns_answered, 6);
    // Logged when the second ends, one event per answer with its count.
    assert_eq!(sim.next_due(), Some(SimTime::from_secs(11)));
    let events = sim.advance_to(SimTime::from_secs(12));
    let logged: Vec<_> = events
        .iter()
        .filter(|e| e.kind == "adns.answered")
        .collect();
    assert_eq!(logged.len(), 3);
    for e in &logged {
        assert_eq!((e.t_ms, e.subject.as_str()), (11_000, "rr.example.com"));
        assert_eq!(e.details["count"], 2);
        assert_eq!(e.details["from_ms"], 10_000);
        assert_eq!(e.details["by"], "P1");
        assert_eq!(e.details["outcome"], "answered");
    }
    assert_eq!(
        engine::Engine::next_wakeup(sim.gslb()),
        None,
        "no GSLB timer left"
    );
}

#[test]
fn rtt_uses_the_parents_metrics_and_unmonitored_services_go_down_with_mep() {
    let mut sim = Simulation::new(&gslb(TWO_PARENTS), 1);
    let europe = ip("192.0.2.5");
    let r = sim.gslb().preview_resolve("rtt.example.com", europe);
    assert_eq!(
        r.answered_by.as_deref(),
        Some("P1"),
        "EU is nearer P1 (EU.FR)"
    );
    assert_eq!(r.ips, ["10.0.0.20"], "{}", r.reason);
    assert!(
        r.reason
            .contains("web-p2 has the lowest RTT to Europe in P1's metrics (30 ms)"),
        "{}",
        r.reason
    );
    let metrics: Vec<Option<f64>> = r.candidates.iter().map(|c| c.metric).collect();
    assert_eq!(metrics, [Some(80.0), Some(30.0)]);
    // MEP P1-P2 down: P2's service (monitored) stays up without metrics; P1's (unmonitored)
    // is DOWN from P2's view.
    apply(&mut sim, cut("P1", "P2", false));
    sim.advance_to(SimTime::from_secs(11));
    let r = sim.gslb().preview_resolve("rtt.example.com", europe);
    assert_eq!(r.effective_method, Some(GslbMethod::RoundRobin));
    let ny = sim
        .gslb()
        .preview_resolve("lc.example.com", ip("203.0.113.9"));
    assert_eq!(ny.answered_by.as_deref(), Some("P2"));
    let p1 = ny.candidates.iter().find(|c| c.service == "web-p1");
    assert!(p1.is_some_and(|c| !c.up), "{ny:?}");
    // C1's default service has a monitor: up, without metrics.
    let c1 = ny.candidates.iter().find(|c| c.service == "svc-C1");
    assert!(c1.is_some_and(|c| c.up && c.metric.is_none()), "{ny:?}");
    assert_eq!(ny.ttl_s, 20);
}

#[test]
fn no_parent_up_means_no_answer_and_it_is_logged() {
    let mut sim = Simulation::new(&gslb(TWO_PARENTS), 1);
    apply(&mut sim, GslbAction::SiteDown { site: "P1".into() });
    apply(&mut sim, GslbAction::SiteDown { site: "P2".into() });
    let r = sim.resolve_dns("rr.example.com", ip("192.0.2.5"));
    assert_eq!(r.outcome, ResolveOutcome::Unavailable);
    assert!(r.answered_by.is_none() && r.ips.is_empty());
    let events = sim.advance_to(SimTime::from_secs(2));
    let e = events.iter().find(|e| e.kind == "adns.answered");
    assert!(
        e.is_some_and(|e| e.details["outcome"] == "unavailable" && e.details["answer"].is_null())
    );
}

#[test]
fn adopted_children_learn_then_count() {
    let mut sim = Simulation::new(&gslb(TWO_PARENTS), 1);
    apply(&mut sim, GslbAction::SiteDown { site: "P1".into() });
    sim.advance_to(SimTime::from_secs(14));
    let c1 = sim.gslb().site("C1");
    assert_eq!(
        c1.as_ref().and_then(|c| c.current_parent.as_deref()),
        Some("P2")
    );
    assert_eq!(c1.as_ref().and_then(|c| c.learning_until_ms), Some(73_000));
    assert_eq!(c1.map(|c| c.mep_status), Some(MepStatus::Inactive));
    let r = sim
        .gslb()
        .preview_resolve("lc.example.com", ip("203.0.113.9"));
    assert_eq!(r.effective_method, Some(GslbMethod::RoundRobin));
    assert!(
        r.reason.contains("C1 is learning after an adoption"),
        "{}",
        r.reason
    );
    assert!(r.candidates.iter().any(|c| c.site == "C1" && c.up));
    let events = sim.advance_to(SimTime::from_secs(80));
    let ended = events.iter().find(|e| e.kind == "child.learning_ended");
    assert!(
        ended.is_some_and(|e| e.t_ms == 73_000 && e.subject == "C1" && e.details["parent"] == "P2")
    );
    let r = sim
        .gslb()
        .preview_resolve("lc.example.com", ip("203.0.113.9"));
    assert_eq!(
        r.effective_method,
        Some(GslbMethod::LeastConnections),
        "{}",
        r.reason
    );
    assert_eq!(
        sim.gslb().site("C1").map(|c| c.mep_status),
        Some(MepStatus::Active)
    );
}

#[test]
fn a_one_way_cut_is_seen_by_one_side_only() {
    let mut sim = Simulation::new(&demo(), 42);
    apply(&mut sim, cut("SiteP1", "SiteP2", true));
    sim.advance_to(SimTime::from_secs(30));
    let topo = sim.gslb().topology();
    let link = topo
        .links
        .iter()
        .find(|l| l.a == "SiteP1" && l.b == "SiteP2")
        .unwrap_or_else(|| panic!("no link"));
    assert!(!link.a_to_b.delivering && !link.a_to_b.seen_up);
    assert!(link.b_to_a.delivering && link.b_to_a.seen_up);
    assert_eq!(link.status, MepStatus::Inactive);
    assert_eq!(link.rtt_ms, None);
    let p2 = sim.gslb().site("SiteP2").unwrap_or_else(|| panic!("P2"));
    assert!(p2.peer_view.contains(&("SiteP1".into(), false)));
    let p1 = sim.gslb().site("SiteP1").unwrap_or_else(|| panic!("P1"));
    assert!(p1.peer_view.contains(&("SiteP2".into(), true)));
    // SiteP3 still hears SiteP1: SiteP1 is ACTIVE.
    assert_eq!(p1.mep_status, MepStatus::Active);
    // P2 sees P1 DOWN and is first in its list: it tries; the child still sees P1 up.
    assert_eq!(
        topo.rejections, 2,
        "Child_Site1 and Child_Site2 refuse SiteP2"
    );
}

#[test]
fn links_name_their_initiator_by_rule() {
    let text = DEMO.replace(
        "name = \"Child_Site3\"\nip = \"10.20.1.1\"\nrole = \"child\"\nparent = \"SiteP2\"",
        "name = \"Child_Site3\"\nip = \"10.20.1.1\"\nrole = \"child\"\nparent = \"SiteP2\"\nversion = \"10.5\"",
    );
    let sc = Scenario::from_toml_str(&text, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    let topo = Simulation::new(&sc, 1).gslb().topology();
    let link = |a: &str, b: &str| {
        topo.links
            .iter()
            .find(|l| l.a == a && l.b == b)
            .unwrap_or_else(|| panic!("{a}-{b}"))
            .clone()
    };
    let pp = link("SiteP2", "SiteP3");
    assert_eq!(
        (pp.kind, pp.initiator.as_str()),
        (LinkKind::ParentParent, "SiteP2")
    );
    assert!(pp.initiator_rule.contains("lower IP"));
    let pc = link("SiteP3", "Child_Site4");
    assert_eq!(
        (pc.kind, pc.initiator.as_str()),
        (LinkKind::ParentChild, "SiteP3")
    );
    assert!(pc.initiator_rule.contains("parent opens"));
    // 10.20.0.1 (parent) < 10.20.1.1 (child on 10.5): the lower IP, here the parent.
    let old = link("SiteP2", "Child_Site3");
    assert!(old.initiator_rule.contains("before 11.1 build 51"));
    assert_eq!(old.initiator, "SiteP2");
    assert_eq!(pc.status, MepStatus::Active);
    assert!(pc.rtt_ms.is_some());
}

#[test]
fn a_child_on_a_release_without_backup_parents_refuses_adoption() {
    let text = DEMO.replace(
        "name = \"Child_Site1\"\nip = \"10.10.1.1\"\nrole = \"child\"\nparent = \"SiteP1\"",
        "name = \"Child_Site1\"\nip = \"10.10.1.1\"\nrole = \"child\"\nparent = \"SiteP1\"\nversion = \"11.1-50.10\"",
    );
    let sc = Scenario::from_toml_str(&text, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&sc, 1);
    apply(
        &mut sim,
        GslbAction::SiteDown {
            site: "SiteP1".into(),
        },
    );
    let events = sim.advance_to(SimTime::from_secs(30));
    let rejected = events
        .iter()
        .find(|e| e.kind == "adoption.rejected" && e.subject == "Child_Site1")
        .unwrap_or_else(|| panic!("no rejection"));
    assert_eq!(
        rejected.details["reason"],
        "Child_Site1 runs 11.1-50.10: backup parents need 11.1 build 51 or later"
    );
    assert!(events
        .iter()
        .any(|e| e.kind == "adoption.accepted" && e.subject == "Child_Site2"));
    assert_eq!(sim.gslb().topology().children_orphaned, 1);
}

#[test]
fn actions_are_checked_against_the_topology_and_its_state() {
    let mut sim = Simulation::new(&demo(), 1);
    let refused = |sim: &mut Simulation, a: GslbAction| sim.apply_now(a, None).err();
    let e = refused(
        &mut sim,
        GslbAction::SiteDown {
            site: "Nowhere".into(),
        },
    );
    assert!(
        matches!(e, Some(ActionError::Unknown { field: "site", .. })),
        "{e:?}"
    );
    let e = refused(
        &mut sim,
        GslbAction::SiteUp {
            site: "SiteP1".into(),
        },
    );
    assert_eq!(
        e.map(|e| e.to_string()).as_deref(),
        Some("site \"SiteP1\" is already up")
    );
    let e = refused(&mut sim, cut("Child_Site1", "Child_Site2", false));
    assert!(
        matches!(e, Some(ActionError::Invalid { field: "to", .. })),
        "{e:?}"
    );
    let e = refused(&mut sim, cut("SiteP1", "SiteP1", false));
    assert!(
        matches!(e, Some(ActionError::Invalid { field: "to", .. })),
        "{e:?}"
    );
    let e = refused(
        &mut sim,
        GslbAction::MepRestore {
            from: "SiteP1".into(),
            to: "SiteP2".into(),
            one_way: false,
        },
    );
    assert!(matches!(e, Some(ActionError::NoChange(_))), "{e:?}");
    let e = refused(
        &mut sim,
        GslbAction::BackupParents {
            site: "Child_Site1".into(),
            backups: vec!["SiteP2".into()],
        },
    );
    assert!(
        matches!(e, Some(ActionError::Invalid { field: "site", .. })),
        "{e:?}"
    );
    let e = refused(
        &mut sim,
        GslbAction::TopologyImport {
            cli: "add gslb site".into(),
        },
    );
    assert!(
        matches!(&e, Some(ActionError::Invalid { field: "cli", message }) if message.starts_with("line 1: expected add gslb site")),
        "{e:?}"
    );
    // Accepted actions carry the actor on every event they cause.
    let events = sim
        .apply_now(cut("SiteP1", "Child_Site1", false), Some("bob".into()))
        .unwrap_or_default();
    let link = events.iter().find(|e| e.kind == "mep.link");
    assert!(link.is_some_and(|e| e.actor.as_deref() == Some("bob") && e.details["change"] == "cut"));
    let e = refused(&mut sim, cut("SiteP1", "Child_Site1", false));
    assert!(matches!(e, Some(ActionError::NoChange(_))), "{e:?}");
}

#[test]
fn views_list_settings_marked_documented_or_assumed_and_the_demo_is_quiet() {
    let sc = demo();
    let mut sim = Simulation::new(&sc, 42);
    let topo = sim.gslb().topology();
    let setting = |key: &str| {
        topo.settings
            .iter()
            .find(|s| s.key == key)
            .map(|s| (s.value.clone(), s.source.clone()))
    };
    assert_eq!(
        setting("mep_keepalive_timeout"),
        Some(("10s".into(), "documented".into()))
    );
    assert_eq!(
        setting("mep_health_interval"),
        Some(("1s".into(), "documented".into()))
    );
    assert_eq!(
        setting("mep_metrics_interval"),
        Some(("5s".into(), "documented".into()))
    );
    assert_eq!(
        setting("learning_time"),
        Some(("0s".into(), "documented".into()))
    );
    assert_eq!(
        setting("adoption_delay"),
        Some(("3s".into(), "assumed".into()))
    );
    assert_eq!(
        setting("mep_port"),
        Some(("3011".into(), "documented".into()))
    );
    let names: Vec<&str> = topo.sites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names[..3], ["SiteP1", "SiteP2", "SiteP3"]);
    assert_eq!(
        (topo.parents_up, topo.parents_total, topo.children_total),
        (3, 3, 4)
    );
    assert_eq!(topo.links.len(), 3 + 4);
    let p1 = &topo.sites[0];
    assert_eq!(p1.children, ["Child_Site1", "Child_Site2"]);
    assert_eq!(p1.services.len(), 1);
    assert_eq!(p1.services[0].ip, "203.0.113.1");
    let c4 = topo.sites.iter().find(|s| s.name == "Child_Site4");
    assert_eq!(
        c4.map(|c| c.backup_parents.clone()),
        Some(vec!["SiteP1".to_owned()])
    );
    // Nothing happens in GSLB without a fault or a query: no event, no wakeup.
    let events = sim.advance_to(SimTime::from_mins(24 * 60));
    assert!(events.iter().all(|e| e.engine != engine::EngineId::Gslb));
}

#[test]
fn least_connections_counts_the_clients_it_sends() {
    let mut sim = Simulation::new(&demo(), 42);
    let client = ip("198.18.0.20");
    let connections = |sim: &Simulation, service: &str| {
        sim.gslb()
            .topology()
            .sites
            .iter()
            .flat_map(|s| s.services.clone())
            .find(|s| s.name == service)
            .map(|s| s.connections)
    };
    let first = sim.resolve_dns("apps.example.com", client);
    let chosen = first
        .candidates
        .iter()
        .find(|c| c.chosen)
        .map(|c| (c.service.clone(), c.metric))
        .unwrap_or_default();
    let after = connections(&sim, &chosen.0).map(f64::from);
    assert_eq!(
        after,
        chosen.1.map(|m| m + 1.0),
        "one more connection on {}",
        chosen.0
    );
    // Keep asking: the answers spread over the services as their counts meet.
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..400 {
        seen.insert(sim.resolve_dns("apps.example.com", client).ips.concat());
    }
    assert!(seen.len() >= 2, "{seen:?}");
    // Previews change nothing.
    let before = connections(&sim, &chosen.0);
    let _ = sim.gslb().preview_resolve("apps.example.com", client);
    assert_eq!(connections(&sim, &chosen.0), before);
}
