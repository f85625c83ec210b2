//! SPEC §3's documented scenarios on the documented topology, exactly (through the
//! simulation and through the guided replays), the return of the original parent, preference
//! among backups, the topology limits, backup-list validation, and the CLI import/export.

use engine::gslb::config::GslbConfig;
use engine::gslb::{export_cli, guided_replay, parse_cli, DOCUMENTED_TOPOLOGY};
use engine::{ActionError, Event, GslbAction, Scenario, SimTime, Simulation};

const DEMO: &str = include_str!("../../scenarios/demo.toml");

/// The documented topology as a scenario, with `actions` (`at` in seconds).
fn scenario(cli: &str, actions: &[(u64, &str)]) -> Scenario {
    let cfg = parse_cli(cli).unwrap_or_else(|e| panic!("{e}"));
    let mut text = String::from("[scenario]\nname = \"gslb\"\n\n");
    text.push_str(
        &toml::to_string(&toml::Table::from_iter([(
            "gslb".to_owned(),
            toml::Value::try_from(&cfg).unwrap_or_else(|e| panic!("{e}")),
        )]))
        .unwrap_or_else(|e| panic!("{e}")),
    );
    for (at, body) in actions {
        text.push_str(&format!("\n[[actions]]\nat = \"{at}s\"\n{body}\n"));
    }
    Scenario::from_toml_str(&text, "gslb.toml").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(s: &Scenario, until_s: u64) -> (Simulation, Vec<Event>) {
    let mut sim = Simulation::new(s, 7);
    let events = sim.advance_to(SimTime::from_secs(until_s));
    (sim, events)
}

fn text(e: &Event, key: &str) -> String {
    match &e.details[key] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(a) => a
            .iter()
            .filter_map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(","),
        serde_json::Value::Null => "-".into(),
        other => other.to_string(),
    }
}

/// The adoption story: (second, subject, kind, key facts) of the adoption events.
fn story(events: &[Event]) -> Vec<(u64, String, String, String)> {
    events
        .iter()
        .filter(|e| e.engine == engine::EngineId::Gslb)
        .filter_map(|e| {
            let facts = match e.kind.as_str() {
                "child.orphaned" => text(e, "parent"),
                "adoption.offered" => {
                    format!("{}: {}", text(e, "down_parent"), text(e, "children"))
                }
                "adoption.deferred" => text(e, "preferred"),
                "adoption.accepted" => text(e, "parent"),
                "adoption.rejected" => text(e, "offered_by"),
                "adoption.failed" => text(e, "parent"),
                "child.migrated" => format!("{} -> {}", text(e, "from"), text(e, "to")),
                _ => return None,
            };
            Some((e.t_ms / 1000, e.subject.clone(), e.kind.clone(), facts))
        })
        .collect()
}

fn s(t: u64, subject: &str, kind: &str, facts: &str) -> (u64, String, String, String) {
    (t, subject.into(), kind.into(), facts.into())
}

fn current_parent(sim: &Simulation, child: &str) -> Option<String> {
    sim.gslb().site(child).and_then(|c| c.current_parent)
}

fn find<'a>(events: &'a [Event], t_s: u64, subject: &str, kind: &str) -> &'a Event {
    events
        .iter()
        .find(|e| e.t_ms == t_s * 1000 && e.subject == subject && e.kind == kind)
        .unwrap_or_else(|| panic!("no {kind} of {subject} at {t_s}s"))
}

/// The replay's events, all steps in order.
fn replay_events(n: u8) -> Vec<Event> {
    let r = guided_replay(n).unwrap_or_else(|| panic!("replay {n}"));
    r.steps.into_iter().flat_map(|s| s.events).collect()
}

#[test]
fn scenario_1_p1_down_p2_adopts_then_the_child_returns() {
    let sc = scenario(
        DOCUMENTED_TOPOLOGY,
        &[
            (10, "kind = \"site_down\"\nsite = \"SiteP1\""),
            (60, "kind = \"site_up\"\nsite = \"SiteP1\""),
        ],
    );
    let (sim, events) = run(&sc, 120);
    let want = vec![
        s(20, "Child_Site1", "child.orphaned", "SiteP1"),
        s(20, "SiteP2", "adoption.offered", "SiteP1: Child_Site1"),
        s(20, "SiteP3", "adoption.deferred", "SiteP2"),
        s(23, "Child_Site1", "adoption.accepted", "SiteP2"),
        s(60, "SiteP1", "adoption.offered", "-: Child_Site1"),
        s(63, "Child_Site1", "child.migrated", "SiteP2 -> SiteP1"),
    ];
    assert_eq!(story(&events), want);
    assert_eq!(
        story(&replay_events(1)),
        want,
        "the guided replay tells the same"
    );
    // P2 and P3 both see MEP to P1 DOWN at 20 s (10 s after P1's last packet).
    for peer in ["SiteP1-SiteP2", "SiteP1-SiteP3"] {
        assert_eq!(
            text(find(&events, 20, peer, "mep.link"), "b_sees_a"),
            "down"
        );
    }
    // The reasons say why.
    let offered = find(&events, 20, "SiteP2", "adoption.offered");
    assert!(text(offered, "reason").contains("first in the list"));
    assert_eq!(text(offered, "backups"), "SiteP2,SiteP3");
    let deferred = find(&events, 20, "SiteP3", "adoption.deferred");
    assert!(text(deferred, "reason").contains("SiteP2 is ahead of SiteP3 and up from its view"));
    assert_eq!(deferred.details["view"]["SiteP2"], "up");
    let accepted = find(&events, 23, "Child_Site1", "adoption.accepted");
    assert!(text(accepted, "reason").contains("SiteP1 is DOWN from its view"));
    let back = find(&events, 63, "Child_Site1", "child.migrated");
    assert_eq!(back.details["back_to_original"], true);
    assert!(text(back, "reason").contains("priority"));
    assert_eq!(
        current_parent(&sim, "Child_Site1").as_deref(),
        Some("SiteP1")
    );
    let topo = sim.gslb().topology();
    assert_eq!(
        (topo.adoptions, topo.rejections, topo.children_adopted),
        (1, 0, 0)
    );
}

#[test]
fn scenario_2_only_p1_p2_breaks_and_the_child_rejects_p2() {
    let sc = scenario(
        DOCUMENTED_TOPOLOGY,
        &[(10, "kind = \"mep_cut\"\nfrom = \"SiteP1\"\nto = \"SiteP2\"")],
    );
    let (sim, events) = run(&sc, 120);
    let want = vec![
        s(20, "SiteP2", "adoption.offered", "SiteP1: Child_Site1"),
        s(23, "Child_Site1", "adoption.rejected", "SiteP2"),
    ];
    assert_eq!(story(&events), want);
    assert_eq!(story(&replay_events(2)), want);
    let rejected = find(&events, 23, "Child_Site1", "adoption.rejected");
    assert_eq!(
        text(rejected, "reason"),
        "its parent SiteP1 is still up from Child_Site1's point of view"
    );
    assert_eq!(rejected.details["view"]["SiteP1"], "up");
    assert_eq!(
        current_parent(&sim, "Child_Site1").as_deref(),
        Some("SiteP1")
    );
    assert!(
        events.iter().all(|e| e.subject != "SiteP3"),
        "SiteP3 sees nothing change"
    );
    assert_eq!(sim.gslb().topology().rejections, 1);
}

#[test]
fn scenario_3_p3_adopts_then_the_child_migrates_to_p2() {
    let sc = scenario(
        DOCUMENTED_TOPOLOGY,
        &[
            (10, "kind = \"mep_cut\"\nfrom = \"SiteP3\"\nto = \"SiteP2\""),
            (10, "kind = \"mep_cut\"\nfrom = \"SiteP1\"\nto = \"SiteP3\""),
            (
                10,
                "kind = \"mep_cut\"\nfrom = \"SiteP1\"\nto = \"Child_Site1\"",
            ),
            (40, "kind = \"mep_cut\"\nfrom = \"SiteP1\"\nto = \"SiteP2\""),
        ],
    );
    let (sim, events) = run(&sc, 120);
    let want = vec![
        s(20, "Child_Site1", "child.orphaned", "SiteP1"),
        s(20, "SiteP3", "adoption.offered", "SiteP1: Child_Site1"),
        s(23, "Child_Site1", "adoption.accepted", "SiteP3"),
        s(50, "SiteP2", "adoption.offered", "SiteP1: Child_Site1"),
        s(53, "Child_Site1", "child.migrated", "SiteP3 -> SiteP2"),
    ];
    assert_eq!(story(&events), want);
    assert_eq!(story(&replay_events(3)), want);
    // Until the P1-P2 cut SiteP2 takes no action: it still sees P1.
    assert!(events
        .iter()
        .filter(|e| e.t_ms < 40_000)
        .all(|e| e.subject != "SiteP2" && e.subject != "SiteP1-SiteP2"));
    let offered = find(&events, 20, "SiteP3", "adoption.offered");
    assert_eq!(offered.details["view"]["SiteP2"], "down");
    assert!(text(offered, "reason").contains("SiteP2 DOWN"));
    let migrated = find(&events, 53, "Child_Site1", "child.migrated");
    assert_eq!(
        text(migrated, "reason"),
        "SiteP2 is preferred over SiteP3 in SiteP1's backup list [SiteP2, SiteP3]"
    );
    assert_eq!(migrated.details["back_to_original"], false);
    assert_eq!(
        current_parent(&sim, "Child_Site1").as_deref(),
        Some("SiteP2")
    );
    let topo = sim.gslb().topology();
    assert_eq!((topo.adoptions, topo.children_adopted), (2, 1));
}

#[test]
fn guided_replays_have_titled_steps_with_snapshots() {
    for n in 1..=3 {
        let r = guided_replay(n).unwrap_or_else(|| panic!("replay {n}"));
        assert_eq!(r.number, n);
        assert_eq!(r.cli, DOCUMENTED_TOPOLOGY);
        assert!(r.steps.len() >= 4);
        assert!(r.steps.windows(2).all(|w| w[0].at_ms < w[1].at_ms));
        assert!(r
            .steps
            .iter()
            .all(|s| !s.title.is_empty() && !s.expected.is_empty()));
        let last = r.steps.last().map(|s| &s.topology);
        let child = last.and_then(|t| t.sites.iter().find(|s| s.name == "Child_Site1"));
        let want = ["SiteP1", "SiteP1", "SiteP2"][usize::from(n) - 1];
        assert_eq!(child.and_then(|c| c.current_parent.as_deref()), Some(want));
    }
    assert!(guided_replay(0).is_none());
    assert!(guided_replay(4).is_none());
}

const FIVE_CHILDREN: &str = "\
add gslb site P1 10.0.0.1
add gslb site P2 10.0.0.2
add gslb site P3 10.0.0.3
add gslb site C1 10.0.1.1 -parentSite P1
add gslb site C2 10.0.1.2 -parentSite P1
add gslb site C3 10.0.1.3 -parentSite P1
add gslb site C4 10.0.1.4 -parentSite P1
add gslb site C5 10.0.1.5 -parentSite P1
add gslb site D1 10.0.2.1 -parentSite P2
set gslb site P1 -backupParentlist P2 P3
set gslb site P2 -backupParentlist P3
";

#[test]
fn when_the_parent_returns_every_child_migrates_back() {
    let sc = scenario(
        FIVE_CHILDREN,
        &[
            (10, "kind = \"site_down\"\nsite = \"P1\""),
            (100, "kind = \"site_up\"\nsite = \"P1\""),
        ],
    );
    let mut sim = Simulation::new(&sc, 1);
    sim.advance_to(SimTime::from_secs(30));
    let kids = ["C1", "C2", "C3", "C4", "C5"];
    for c in kids {
        assert_eq!(
            current_parent(&sim, c).as_deref(),
            Some("P2"),
            "{c} adopted"
        );
    }
    assert_eq!(sim.gslb().site("P2").map(|p| p.children.len()), Some(6));
    let events = sim.advance_to(SimTime::from_secs(200));
    let back: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind == "child.migrated")
        .collect();
    assert_eq!(back.len(), 5);
    assert!(back.iter().all(|e| e.t_ms == 103_000
        && e.details["to"] == "P1"
        && e.details["back_to_original"] == true));
    for c in kids {
        assert_eq!(current_parent(&sim, c).as_deref(), Some("P1"), "{c} back");
    }
    let topo = sim.gslb().topology();
    assert_eq!((topo.children_adopted, topo.children_orphaned), (0, 0));
    assert_eq!(current_parent(&sim, "D1").as_deref(), Some("P2"));
}

#[test]
fn a_preferred_backup_that_returns_takes_the_children_over() {
    // P2 (first backup) is down when P1 fails: P3 adopts. When P2 is back it adopts too,
    // and the children move to it; P3 then defers.
    let sc = scenario(
        FIVE_CHILDREN,
        &[
            (10, "kind = \"site_down\"\nsite = \"P2\""),
            (30, "kind = \"site_down\"\nsite = \"P1\""),
            (60, "kind = \"site_up\"\nsite = \"P2\""),
        ],
    );
    let (sim, events) = run(&sc, 120);
    let st = story(&events);
    assert!(
        st.contains(&s(40, "P3", "adoption.offered", "P1: C1,C2,C3,C4,C5")),
        "{st:?}"
    );
    assert!(
        st.contains(&s(43, "C1", "adoption.accepted", "P3")),
        "{st:?}"
    );
    // P2 starts at 60 s, hears P3 at 61 s, confirms P1 silent at 70 s: it adopts.
    assert!(
        st.contains(&s(61, "P3", "adoption.deferred", "P2")),
        "{st:?}"
    );
    assert!(
        st.contains(&s(70, "P2", "adoption.offered", "P1: C1,C2,C3,C4,C5")),
        "{st:?}"
    );
    assert!(
        st.contains(&s(73, "C5", "child.migrated", "P3 -> P2")),
        "{st:?}"
    );
    for c in ["C1", "C2", "C3", "C4", "C5"] {
        assert_eq!(current_parent(&sim, c).as_deref(), Some("P2"));
    }
}

#[test]
fn with_no_backup_up_children_stay_orphaned_until_one_comes() {
    let sc = scenario(
        FIVE_CHILDREN,
        &[
            (5, "kind = \"site_down\"\nsite = \"P2\""),
            (5, "kind = \"site_down\"\nsite = \"P3\""),
            (10, "kind = \"site_down\"\nsite = \"P1\""),
            (200, "kind = \"site_up\"\nsite = \"P3\""),
        ],
    );
    let mut sim = Simulation::new(&sc, 3);
    sim.advance_to(SimTime::from_secs(150));
    assert_eq!(sim.gslb().topology().children_orphaned, 6, "C1..C5 and D1");
    let events = sim.advance_to(SimTime::from_secs(300));
    // P3 starts at 200 s and confirms P1 and P2 silent at 210 s; it is P1's second backup
    // (P2 is down) and P2's first.
    let st = story(&events);
    assert!(
        st.contains(&s(210, "P3", "adoption.offered", "P1: C1,C2,C3,C4,C5")),
        "{st:?}"
    );
    assert!(
        st.contains(&s(210, "P3", "adoption.offered", "P2: D1")),
        "{st:?}"
    );
    let topo = sim.gslb().topology();
    assert_eq!((topo.children_orphaned, topo.children_adopted), (0, 6));
}

fn big(parents: usize, children: usize) -> String {
    let mut t = String::from("[scenario]\nname = \"big\"\n");
    for p in 0..parents {
        t.push_str(&format!(
            "\n[[gslb.sites]]\nname = \"P{p}\"\nip = \"10.0.{p}.1\"\nrole = \"parent\"\n"
        ));
    }
    for c in 0..children {
        t.push_str(&format!(
            "\n[[gslb.sites]]\nname = \"C{c}\"\nip = \"10.1.{}.{}\"\nrole = \"child\"\nparent = \"P{}\"\n",
            c / 250,
            c % 250 + 1,
            c % parents.max(1)
        ));
    }
    t
}

#[test]
fn thirty_two_parents_and_1024_children_are_accepted_one_more_is_refused() {
    let ok = Scenario::from_toml_str(&big(32, 1024), "big.toml");
    let ok = ok.unwrap_or_else(|e| panic!("{e}"));
    let sim = Simulation::new(&ok, 1);
    let topo = sim.gslb().topology();
    assert_eq!((topo.parents_total, topo.children_total), (32, 1024));
    assert_eq!(topo.links.len(), 32 * 31 / 2 + 1024);

    let err = Scenario::from_toml_str(&big(33, 0), "big.toml").map_err(|e| e.to_string());
    assert!(
        err.as_ref().is_err_and(|e| e.contains(
            "gslb.sites[32].role: too many parent sites: a parent-child topology has at most 32"
        )),
        "{err:?}"
    );
    let err = Scenario::from_toml_str(&big(32, 1025), "big.toml").map_err(|e| e.to_string());
    assert!(
        err.as_ref().is_err_and(|e| e.contains(
            "gslb.sites[1056].role: too many child sites: a parent-child topology has at most 1024"
        )),
        "{err:?}"
    );

    // The same limits on CLI import, with the line of the site too many.
    let cli = export_cli(&ok.gslb);
    let cfg = parse_cli(&cli).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cfg, ok.gslb);
    let extra_parent = cli.replace(
        "add gslb site C0 ",
        "add gslb site P32 10.9.9.9\nadd gslb site C0 ",
    );
    let err = parse_cli(&extra_parent).err();
    let line = extra_parent
        .lines()
        .position(|l| l.starts_with("add gslb site P32 "))
        .map(|i| i + 1);
    assert_eq!(err.as_ref().map(|e| e.line), line);
    assert!(err.is_some_and(|e| e.message.starts_with("too many parent sites")));
    let extra_child = format!("{cli}add gslb site C1024 10.9.9.9 -parentSite P0\n");
    let err = parse_cli(&extra_child).err();
    assert_eq!(
        err.as_ref().map(|e| e.line),
        Some(extra_child.lines().count())
    );
    assert!(err.is_some_and(|e| e.message.starts_with("too many child sites")));
}

#[test]
fn a_backup_list_naming_a_child_or_an_unknown_site_is_refused_everywhere() {
    // In a scenario file.
    let file = |list: &str| {
        format!(
            "[scenario]\nname = \"b\"\n[[gslb.sites]]\nname = \"P1\"\nip = \"10.0.0.1\"\nrole = \"parent\"\nbackup_parents = {list}\n[[gslb.sites]]\nname = \"P2\"\nip = \"10.0.0.2\"\nrole = \"parent\"\n[[gslb.sites]]\nname = \"C1\"\nip = \"10.0.1.1\"\nrole = \"child\"\nparent = \"P1\"\n"
        )
    };
    for (list, want) in [
        (
            "[\"C1\"]",
            "gslb.sites[0].backup_parents[0]: \"C1\" is not a parent site (parents: P1, P2)",
        ),
        (
            "[\"P9\"]",
            "gslb.sites[0].backup_parents[0]: \"P9\" is not a parent site (parents: P1, P2)",
        ),
    ] {
        let err = Scenario::from_toml_str(&file(list), "b.toml").map_err(|e| e.to_string());
        assert!(err.as_ref().is_err_and(|e| e.ends_with(want)), "{err:?}");
    }
    // As an operator action, at run time: refused, nothing changes.
    let demo = Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&demo, 1);
    sim.advance_to(SimTime::from_secs(1));
    let cases = [
        (
            vec!["Child_Site2"],
            "backups: \"Child_Site2\" is not a parent site (parents: SiteP1, SiteP2, SiteP3)",
        ),
        (
            vec!["SiteP9"],
            "backups: \"SiteP9\" is not a parent site (parents: SiteP1, SiteP2, SiteP3)",
        ),
        (
            vec!["SiteP1"],
            "backups: a site cannot be its own backup parent (\"SiteP1\")",
        ),
        (
            vec!["SiteP2", "SiteP2"],
            "backups: duplicate backup parent \"SiteP2\"",
        ),
        (
            vec!["SiteP2"; 6],
            "backups: at most 5 backup parents; got 6",
        ),
    ];
    for (backups, want) in cases {
        let action = GslbAction::BackupParents {
            site: "SiteP1".into(),
            backups: backups.iter().map(|b| (*b).to_owned()).collect(),
        };
        let err = sim.apply_now(action, Some("alice".into()));
        assert!(
            matches!(
                err,
                Err(ActionError::Invalid {
                    field: "backups",
                    ..
                })
            ),
            "{err:?}"
        );
        assert_eq!(err.map_err(|e| e.to_string()).err().as_deref(), Some(want));
    }
    let unknown = sim.apply_now(
        GslbAction::BackupParents {
            site: "Nowhere".into(),
            backups: vec![],
        },
        None,
    );
    assert!(
        matches!(unknown, Err(ActionError::Unknown { field: "site", .. })),
        "{unknown:?}"
    );
    assert_eq!(
        sim.gslb().site("SiteP1").map(|s| s.backup_parents),
        Some(vec!["SiteP2".to_owned(), "SiteP3".to_owned()])
    );
    // On CLI import, at its line.
    let err = parse_cli("add gslb site P1 10.0.0.1\nadd gslb site C1 10.0.1.1 -parentSite P1\nset gslb site P1 -backupParentlist C1\n").err();
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some("line 3: \"C1\" is not a parent site (parents: P1)")
    );
}

#[test]
fn a_new_backup_list_is_sent_to_the_children_and_used() {
    let sc = scenario(
        FIVE_CHILDREN,
        &[
            (
                5,
                "kind = \"backup_parents\"\nsite = \"P1\"\nbackups = [\"P3\", \"P2\"]",
            ),
            (10, "kind = \"site_down\"\nsite = \"P1\""),
        ],
    );
    let (sim, events) = run(&sc, 60);
    let sent = find(&events, 5, "P1", "backup_list.sent");
    assert_eq!(text(sent, "backups"), "P3,P2");
    assert_eq!(text(sent, "previous"), "P2,P3");
    assert_eq!(text(sent, "children"), "C1,C2,C3,C4,C5");
    assert_eq!(
        sim.gslb().site("C1").map(|c| c.backup_parents),
        Some(vec!["P3".to_owned(), "P2".to_owned()])
    );
    let st = story(&events);
    assert!(
        st.contains(&s(20, "P3", "adoption.offered", "P1: C1,C2,C3,C4,C5")),
        "{st:?}"
    );
    assert!(
        st.contains(&s(20, "P2", "adoption.deferred", "P3")),
        "{st:?}"
    );
    assert_eq!(current_parent(&sim, "C3").as_deref(), Some("P3"));
    // `unset` (an empty list): nobody adopts any more.
    let sc = scenario(
        FIVE_CHILDREN,
        &[
            (5, "kind = \"backup_parents\"\nsite = \"P1\"\nbackups = []"),
            (10, "kind = \"site_down\"\nsite = \"P1\""),
        ],
    );
    let (sim, _) = run(&sc, 60);
    assert_eq!(sim.gslb().topology().children_orphaned, 5);
    assert_eq!(
        sim.gslb()
            .export_cli()
            .lines()
            .filter(|l| l.starts_with("set gslb site P1"))
            .count(),
        0
    );
}

#[test]
fn the_demo_topology_round_trips_through_the_cli() {
    let demo = Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    let cli = export_cli(&demo.gslb);
    assert!(
        cli.contains("add gslb site Child_Site1 10.10.1.1 -parentSite SiteP1\n"),
        "{cli}"
    );
    assert!(
        cli.contains("set gslb site SiteP1 -backupParentlist SiteP2 SiteP3\n"),
        "{cli}"
    );
    assert!(
        cli.contains("# switchyard: site Child_Site4 -version 13.1\n"),
        "{cli}"
    );
    assert!(
        cli.contains("bind gslb vserver vs_apps.example.com -domainName apps.example.com -TTL 5\n"),
        "{cli}"
    );
    let back: GslbConfig = parse_cli(&cli).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, demo.gslb);
    let sim = Simulation::new(&demo, 1);
    assert_eq!(sim.gslb().export_cli(), cli);
}

#[test]
fn importing_a_topology_replaces_it_and_later_actions_name_the_new_sites() {
    let mut text = DEMO.to_owned();
    text.push_str(&format!(
        "\n[[actions]]\nat = \"1m\"\nkind = \"topology_import\"\ncli = '''\n{FIVE_CHILDREN}'''\n\n[[actions]]\nat = \"2m\"\nkind = \"site_down\"\nsite = \"P1\"\n"
    ));
    let sc = Scenario::from_toml_str(&text, "import.toml").unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&sc, 1);
    let events = sim.advance_to(SimTime::from_mins(3));
    let imported = events
        .iter()
        .find(|e| e.kind == "topology.imported")
        .unwrap_or_else(|| panic!("no import"));
    assert_eq!(imported.t_ms, 60_000);
    assert_eq!(
        (
            imported.details["parents"].as_u64(),
            imported.details["children"].as_u64()
        ),
        (Some(3), Some(6))
    );
    assert!(events.iter().all(|e| e.kind != "action.rejected"));
    assert_eq!(current_parent(&sim, "C1").as_deref(), Some("P2"));
    assert!(sim.gslb().site("SiteP1").is_none());
    // An action naming a site that exists in neither topology is refused when loading.
    let bad = format!("{DEMO}\n[[actions]]\nat = \"2m\"\nkind = \"site_down\"\nsite = \"P1\"\n");
    let err = Scenario::from_toml_str(&bad, "bad.toml").map_err(|e| e.to_string());
    assert!(err.is_err_and(|e| e.contains("actions[") && e.contains("unknown site \"P1\"")));
    // A bad CLI text is refused at its line.
    let bad = format!("{DEMO}\n[[actions]]\nat = \"2m\"\nkind = \"topology_import\"\ncli = \"add gslb site X 1.2.3\"\n");
    let err = Scenario::from_toml_str(&bad, "bad.toml").map_err(|e| e.to_string());
    assert!(err.is_err_and(|e| e.contains("cli: line 1: \"1.2.3\" is not an IP address")));
}

#[test]
fn event_examples_in_the_gslb_doc_are_real_output() {
    const DOC: &str = include_str!("../../docs/GSLB.md");
    let produced: Vec<String> = (1..=3)
        .flat_map(replay_events)
        .map(|e| e.to_json_line())
        .collect();
    let examples: Vec<&str> = DOC.lines().filter(|l| l.starts_with("{\"t_ms\"")).collect();
    assert!(examples.len() >= 2);
    for line in examples {
        assert!(
            produced.iter().any(|p| p == line),
            "not produced by the replays: {line}"
        );
    }
}
