//! Alert rules evaluated on runs: each condition of the issue's examples fires on a scenario
//! that makes it hold (after its hold time, with its why) and resolves when it stops
//! holding; a rule removed resolves its alerts.

mod common;

use engine::alerts::{AlertBook, AlertChange, AlertRule, AlertSeverity, Condition};
use engine::lhc::HaState;
use engine::{EngineId, Scenario, SimTime, Simulation};

fn sim(src: &str) -> Simulation {
    match Scenario::from_toml_str(src, "alerts.toml") {
        Ok(s) => Simulation::new(&s, s.seed()),
        Err(e) => panic!("{e}"),
    }
}

fn rule(name: &str, condition: Condition) -> AlertRule {
    AlertRule {
        name: name.to_owned(),
        severity: AlertSeverity::Warning,
        condition,
    }
}

/// Advances to each minute in `minutes` and evaluates: (minute, fired subjects, resolved
/// subjects) at each.
fn watch(
    sim: &mut Simulation,
    book: &mut AlertBook,
    rules: &[AlertRule],
    minutes: impl IntoIterator<Item = u64>,
) -> Vec<(u64, Vec<String>, Vec<String>)> {
    minutes
        .into_iter()
        .map(|m| {
            sim.advance_to(SimTime::from_mins(m));
            let changes = book.evaluate(sim, rules);
            let fired = changes
                .iter()
                .filter_map(|c| match c {
                    AlertChange::Fired(a) => Some(a.subject.clone()),
                    AlertChange::Resolved { .. } => None,
                })
                .collect();
            let resolved = changes
                .iter()
                .filter_map(|c| match c {
                    AlertChange::Resolved { alert, .. } => Some(alert.subject.clone()),
                    AlertChange::Fired(_) => None,
                })
                .collect();
            (m, fired, resolved)
        })
        .collect()
}

fn first_fired(log: &[(u64, Vec<String>, Vec<String>)], subject: &str) -> Option<u64> {
    log.iter()
        .find(|(_, f, _)| f.iter().any(|s| s == subject))
        .map(|(m, _, _)| *m)
}

fn first_resolved(log: &[(u64, Vec<String>, Vec<String>)], subject: &str) -> Option<u64> {
    log.iter()
        .find(|(_, _, r)| r.iter().any(|s| s == subject))
        .map(|(m, _, _)| *m)
}

#[test]
fn a_resource_location_in_extended_ha_alerts_after_its_hold_time_and_resolves_after_recovery() {
    let extra = r#"
[[actions]]
at = "1m"
kind = "force_outage"
resource_location = "paris"

[[actions]]
at = "40m"
kind = "clear_outage"
resource_location = "paris"
"#;
    let mut run = sim(&common::lhc::estate(false, true, extra));
    let rules = [rule(
        "extended",
        Condition::HaState {
            state: HaState::ExtendedHa,
            for_min: 10,
        },
    )];
    let mut book = AlertBook::default();
    let log = watch(&mut run, &mut book, &rules, 1..=60);
    let extended_at = first_fired(&log, "paris").unwrap_or(0);
    // Extended HA begins after Pending HA and HA Initial (~6-7 min); the alert 10 min later.
    assert!(
        (15..=20).contains(&extended_at),
        "fired at minute {extended_at}: {log:?}"
    );
    assert!(
        first_resolved(&log, "paris").is_some_and(|m| m > 40),
        "{log:?}"
    );
    assert_eq!(first_fired(&log, "tokyo"), None);
}

#[test]
fn a_cloud_link_that_flaps_raises_the_anything_flapping_alert() {
    let extra = common::attention::flapping_cloud_link("paris", 6);
    let mut run = sim(&common::lhc::estate(false, true, &extra));
    let rules = [
        rule("anything flapping", Condition::Flapping { engine: None }),
        rule(
            "gslb flapping",
            Condition::Flapping {
                engine: Some(EngineId::Gslb),
            },
        ),
    ];
    let mut book = AlertBook::default();
    let log = watch(&mut run, &mut book, &rules, 1..=180);
    assert!(
        first_fired(&log, "paris").is_some_and(|m| m < 60),
        "{log:?}"
    );
    assert!(
        first_resolved(&log, "paris").is_some_and(|m| m > 60),
        "{log:?}"
    );
    assert!(
        book.active().next().is_none(),
        "nothing left firing at the end"
    );
    // Only the any-engine rule fired.
    let fired: usize = log.iter().map(|(_, f, _)| f.len()).sum();
    assert_eq!(fired, 1, "{log:?}");
}

#[test]
fn an_orphaned_child_alerts_at_once() {
    let src = r#"
[scenario]
name = "orphan"

[[gslb.sites]]
name = "P1"
ip = "10.0.0.1"
role = "parent"

[[gslb.sites]]
name = "C1"
ip = "10.0.1.1"
role = "child"
parent = "P1"

[[actions]]
at = "2m"
kind = "site_down"
site = "P1"

[[actions]]
at = "10m"
kind = "site_up"
site = "P1"
"#;
    let mut run = sim(src);
    let rules = [rule("orphan", Condition::ChildOrphaned {})];
    let mut book = AlertBook::default();
    let log = watch(&mut run, &mut book, &rules, 1..=20);
    assert!(
        first_fired(&log, "C1").is_some_and(|m| (2..=4).contains(&m)),
        "{log:?}"
    );
    assert!(
        first_resolved(&log, "C1").is_some_and(|m| m >= 10),
        "{log:?}"
    );
}

#[test]
fn a_server_held_at_full_load_alerts_after_two_samples() {
    let tail = r#"
[[actions]]
at = "1m"
kind = "counter_spike"
server = "s5"
counter = "cpu"
percent = 100
duration = "40m"
"#;
    let mut run = sim(&common::lms::farm("", tail));
    let rules = [rule(
        "full",
        Condition::ServerLoad {
            load: 10_000,
            samples: 2,
        },
    )];
    let mut book = AlertBook::default();
    let log = watch(&mut run, &mut book, &rules, 1..=60);
    // Two samples of the farm's 5-minute interval: ten minutes at 10000.
    let fired = first_fired(&log, "s5");
    assert!(fired.is_some_and(|m| (11..=14).contains(&m)), "{log:?}");
    assert!(
        first_resolved(&log, "s5").is_some_and(|m| m > 40),
        "{log:?}"
    );
}

#[test]
fn a_cluster_at_its_maximum_alerts_and_a_removed_rule_resolves_its_alerts() {
    let src = common::attention::one_cluster(
        3,
        10,
        "\n[[actions]]\nat = \"1m\"\nkind = \"load_inject\"\ngroup = \"g\"\nlevel = 900\n",
    );
    let mut run = sim(&src);
    let rules = vec![rule("max", Condition::AtMaxNodes {})];
    let mut book = AlertBook::default();
    let log = watch(&mut run, &mut book, &rules, 1..=60);
    assert!(first_fired(&log, "g/a").is_some(), "{log:?}");
    let changes = book.evaluate(&run, &[]);
    match changes.as_slice() {
        [AlertChange::Resolved { alert, reason, .. }] => {
            assert_eq!(alert.subject, "g/a");
            assert_eq!(reason, "the rule was removed or changed");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unregistered_vdas_above_the_percentage_alert() {
    let extra = r#"
[[actions]]
at = "1m"
kind = "connector_fail"
connector = "cc01.tokyo.example.com"

[[actions]]
at = "1m"
kind = "connector_fail"
connector = "cc02.tokyo.example.com"
"#;
    let mut run = sim(&common::lhc::estate(false, true, extra));
    let rules = [rule(
        "unregistered",
        Condition::VdasUnregistered { pct: 5.0 },
    )];
    let mut book = AlertBook::default();
    let log = watch(&mut run, &mut book, &rules, 1..=20);
    assert!(first_fired(&log, "tokyo").is_some(), "{log:?}");
    assert_eq!(first_fired(&log, "paris"), None, "{log:?}");
}

#[test]
fn a_restored_book_neither_fires_again_nor_keeps_what_no_longer_holds() {
    let extra = r#"
[[actions]]
at = "1m"
kind = "force_outage"
resource_location = "paris"

[[actions]]
at = "40m"
kind = "clear_outage"
resource_location = "paris"
"#;
    let mut run = sim(&common::lhc::estate(false, true, extra));
    let rules = [rule(
        "extended",
        Condition::HaState {
            state: HaState::ExtendedHa,
            for_min: 0,
        },
    )];
    let mut book = AlertBook::default();
    let log = watch(&mut run, &mut book, &rules, 1..=30);
    assert!(first_fired(&log, "paris").is_some(), "{log:?}");
    // A console restarts with the alerts it had stored: the one still holding stays quiet.
    let stored: Vec<_> = book.active().cloned().collect();
    let mut restored = AlertBook::restore(stored.clone());
    assert_eq!(restored.evaluate(&run, &rules), Vec::new());
    assert_eq!(restored.active().cloned().collect::<Vec<_>>(), stored);
    // After the recovery it resolves, as the original book would.
    let log = watch(&mut run, &mut restored, &rules, 31..=60);
    assert!(
        first_resolved(&log, "paris").is_some_and(|m| m > 40),
        "{log:?}"
    );
    assert_eq!(first_fired(&log, "paris"), None, "{log:?}");
}
