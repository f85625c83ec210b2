//! LHC scenarios of SPEC §1: forced outage, restart of the elected broker, recovery,
//! isolation of resource locations, the not-HA-ready resource location, launches.

mod common;

use common::lhc::{act, clear, connector, estate, force, of, parse, reached, rl, secs};
use engine::lhc::HaState;
use engine::{LhcAction, ScenarioError, SimTime, Simulation};

type TestResult<T = ()> = Result<T, Box<dyn std::error::Error>>;

const PARIS: &str = "paris";
const CC01: &str = "CC01.paris.example.com";
const CC02: &str = "cc02.paris.example.com";

/// The demo estate forced into HA at 10 min; returns the simulation at the end of HA
/// Initial + one heartbeat period, with the events so far.
fn paris_in_ha() -> Result<(Simulation, Vec<engine::Event>), ScenarioError> {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let mut events = sim.advance_to(SimTime::from_mins(10));
    events.extend(act(&mut sim, force(PARIS)));
    events.extend(sim.advance_to(SimTime::from_mins(20)));
    Ok((sim, events))
}

#[test]
fn forced_outage_enters_ha_and_moves_every_vda_to_the_elected_secondary() -> TestResult {
    let (mut sim, events) = paris_in_ha()?;
    let pending = reached(&events, PARIS, "pending_ha");
    let initial = reached(&events, PARIS, "ha_initial");
    // Detected at the next health check (10 s grid), HA Initial after pending_ha (60 s).
    assert_eq!(pending, Some(610_000));
    assert_eq!(initial, Some(670_000));
    // Nothing moved before HA Initial.
    assert!(of(&events, PARIS, "registrations.moved")
        .iter()
        .all(|e| e.t_ms > 670_000));
    // Every VDA on the elected secondary within one heartbeat period (300 s).
    let moved: Vec<_> = of(&events, PARIS, "registrations.moved");
    assert!(moved.iter().all(|e| e.t_ms <= 670_000 + 300_000));
    let total: u64 = moved
        .iter()
        .flat_map(|e| e.details["moves"].as_array().cloned().unwrap_or_default())
        .filter(|m| m["to"] == CC01)
        .map(|m| m["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(total, 100);
    let view = rl(&sim, PARIS);
    assert_eq!(view.elected.as_deref(), Some(CC01));
    assert_eq!(view.on_secondary, 100);
    assert_eq!(view.secondary.get(CC01), Some(&100));
    assert_eq!(view.on_cloud + view.unregistered, 0);
    assert_eq!(view.ha_state, HaState::ExtendedHa);
    // The secondary learned the sessions of the VDAs at registration.
    let learned: u64 = moved
        .iter()
        .map(|e| e.details["sessions_learned"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(connector(&sim, CC01).known_sessions, learned);
    assert!(learned > 0);
    // A summary of the counts at each instant they changed, the last one complete.
    let last = of(&events, PARIS, "registrations")
        .pop()
        .map(|e| e.details.value().clone());
    assert_eq!(
        last,
        Some(serde_json::json!({"cloud": 0, "secondary": {CC01: 100}, "unregistered": 0}))
    );
    // The non-StoreFront connector performs no HA detection.
    assert_eq!(connector(&sim, "cc03.paris.example.com").ha_state, None);
    assert!(of(&events, "cc03.paris.example.com", "connector.ha_state").is_empty());
    sim.lhc().consistency_check()?;
    // Tokyo is untouched.
    assert_eq!(rl(&sim, "tokyo").on_cloud, 40);
    let _ = sim.advance_to(SimTime::from_mins(21));
    Ok(())
}

#[test]
fn restarting_the_elected_broker_moves_vdas_and_they_come_back() -> TestResult {
    let (mut sim, _) = paris_in_ha()?;
    let restart = act(
        &mut sim,
        LhcAction::ConnectorRestart {
            connector: "cc01.PARIS.example.com".into(),
        },
    );
    let election = of(&restart, PARIS, "election");
    assert_eq!(election.len(), 1);
    assert_eq!(election[0].details["elected"], CC02);
    assert_eq!(election[0].details["change"], "re_election");
    assert_eq!(
        election[0].details["excluded"][0]["reason"],
        "connector restarting"
    );
    assert_eq!(election[0].actor.as_deref(), Some("tester"));
    let dropped = of(&restart, CC01, "registrations.dropped");
    assert_eq!(dropped[0].details["count"], 100);
    // The restart lasts 2 min: some VDAs reach cc02 meanwhile.
    let during = sim.advance_to(secs(22 * 60 - 1));
    let on_cc02 = rl(&sim, PARIS).secondary.get(CC02).copied().unwrap_or(0);
    assert!(on_cc02 > 0);
    assert!(of(&during, PARIS, "registrations.moved")
        .iter()
        .all(|e| e.details["moves"][0]["to"] == CC02));
    // cc01 comes back, is first again: take-back, cc02 drops and then rejects.
    let back = sim.advance_to(SimTime::from_mins(28));
    let take_back = of(&back, PARIS, "election");
    assert_eq!(take_back[0].details["change"], "take_back");
    assert_eq!(take_back[0].details["elected"], CC01);
    assert_eq!(
        take_back[0].details["candidates"],
        serde_json::json!([CC01, CC02, "cc03.paris.example.com"])
    );
    let dropped: u64 = of(&back, CC02, "registrations.dropped")
        .iter()
        .map(|e| e.details["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(dropped, u64::from(on_cc02));
    let rejected: u64 = of(&back, CC02, "registrations.rejected")
        .iter()
        .map(|e| e.details["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(
        rejected,
        u64::from(on_cc02),
        "each VDA that was on cc02 is rejected once"
    );
    let view = rl(&sim, PARIS);
    assert_eq!(view.secondary.get(CC01), Some(&100));
    assert_eq!(view.elected.as_deref(), Some(CC01));
    sim.lhc().consistency_check()?;
    Ok(())
}

#[test]
fn restarting_a_non_elected_connector_has_no_impact() -> TestResult {
    let (mut sim, _) = paris_in_ha()?;
    let events = act(
        &mut sim,
        LhcAction::ConnectorRestart {
            connector: CC02.into(),
        },
    );
    let election = of(&events, PARIS, "election");
    assert_eq!(election[0].details["change"], "unchanged");
    assert!(events.iter().all(|e| e.kind != "registrations.dropped"));
    let later = sim.advance_to(SimTime::from_mins(30));
    assert!(later.iter().all(|e| !e.kind.starts_with("registrations")));
    assert_eq!(rl(&sim, PARIS).secondary.get(CC01), Some(&100));
    Ok(())
}

#[test]
fn clearing_the_outage_recovers_and_purges_the_leftover_registrations() -> TestResult {
    let (mut sim, _) = paris_in_ha()?;
    let cleared = act(&mut sim, clear(PARIS));
    assert_eq!(of(&cleared, CC01, "connector.outage_cleared").len(), 1);
    let events = sim.advance_to(SimTime::from_mins(40));
    let recovery = reached(&events, PARIS, "pending_recovery");
    let normal = reached(&events, PARIS, "working_normally");
    assert_eq!(
        recovery,
        Some(1_210_000),
        "next health check after the clear at 20 min"
    );
    assert_eq!(normal, Some(1_210_000 + 180_000), "after pending_recovery");
    let back: Vec<_> = of(&events, PARIS, "registrations.moved");
    assert!(back
        .iter()
        .all(|e| e.t_ms > 1_390_000 && e.t_ms <= 1_390_000 + 300_000));
    assert!(back.iter().all(|e| e.details["moves"][0]["to"] == "cloud"));
    let purged = of(&events, CC01, "registrations.purged");
    assert_eq!(purged.len(), 1);
    assert_eq!(purged[0].details["purged"], 100);
    assert!(purged[0].t_ms >= back.last().map_or(0, |e| e.t_ms));
    let view = rl(&sim, PARIS);
    assert_eq!(view.on_cloud, 100);
    assert_eq!(view.ha_state, HaState::WorkingNormally);
    let cc01 = connector(&sim, CC01);
    assert_eq!((cc01.registrations, cc01.leftover_registrations), (0, 0));
    sim.lhc().consistency_check()?;
    Ok(())
}

#[test]
fn an_outage_in_one_resource_location_leaves_the_other_on_the_cloud() -> TestResult {
    let (mut sim, events) = paris_in_ha()?;
    assert!(events
        .iter()
        .filter(|e| e.t_ms > 0)
        .all(|e| e.subject != "tokyo" && e.details["resource_location"] != "tokyo"));
    let tokyo = rl(&sim, "tokyo");
    assert_eq!(
        (tokyo.on_cloud, tokyo.on_secondary, tokyo.unregistered),
        (40, 0, 0)
    );
    assert_eq!(tokyo.ha_state, HaState::WorkingNormally);
    // No cross-zone brokering: Paris VDAs only on Paris connectors.
    let page = sim.lhc().vdas(&engine::lhc::VdaQuery {
        resource_location: Some(PARIS.into()),
        broker: Some(engine::lhc::BrokerFilter::Secondary { fqdn: None }),
        limit: 1000,
        ..Default::default()
    });
    assert_eq!(page.total, 100);
    assert!(page.rows.iter().all(|r| matches!(&r.broker,
        engine::lhc::Broker::Secondary { fqdn } if fqdn.ends_with(".paris.example.com"))));
    let none = sim.lhc().vdas(&engine::lhc::VdaQuery {
        broker: Some(engine::lhc::BrokerFilter::Secondary {
            fqdn: Some("cc01.tokyo.example.com".into()),
        }),
        ..Default::default()
    });
    assert_eq!(none.total, 0);
    let _ = act(&mut sim, clear(PARIS));
    Ok(())
}

#[test]
fn a_resource_location_that_is_not_ha_ready_loses_its_vdas_in_an_outage() -> TestResult {
    let s = parse(&estate(true, false, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let start = sim.advance_to(SimTime::ZERO);
    let warning = of(&start, "tokyo", "rl.warning");
    assert_eq!(warning[0].details["code"], "not_ha_ready");
    assert!(rl(&sim, "tokyo")
        .warnings
        .iter()
        .any(|w| w.code == "not_ha_ready"));
    assert!(!rl(&sim, "tokyo").ha_ready);
    let _ = act(&mut sim, force("tokyo"));
    let events = sim.advance_to(secs(301));
    let view = rl(&sim, "tokyo");
    assert_eq!(view.unregistered, 40, "capacity lost");
    assert_eq!(view.ha_state, HaState::WorkingNormally, "no HA detection");
    assert!(of(&events, "tokyo", "rl.ha_state").is_empty());
    let moved = of(&events, "tokyo", "registrations.moved");
    assert!(moved[0].details["reason"]
        .as_str()
        .is_some_and(|r| r.contains("not HA-ready")));
    // Clearing it brings them back to the cloud.
    let _ = act(&mut sim, clear("tokyo"));
    let _ = sim.advance_to(secs(700));
    assert_eq!(rl(&sim, "tokyo").on_cloud, 40);
    Ok(())
}

/// Both resource locations in HA, then `n` launches of the Japanese app.
fn launches(ahc: bool, n: usize) -> TestResult<Vec<engine::Event>> {
    let s = parse(&estate(ahc, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let _ = sim.advance_to(SimTime::from_mins(1));
    let _ = act(&mut sim, force(PARIS));
    let _ = act(&mut sim, force("tokyo"));
    let _ = sim.advance_to(SimTime::from_mins(10));
    assert!(rl(&sim, "tokyo").ha_state.is_ha_mode());
    let mut out = Vec::new();
    for i in 0..n {
        out.extend(act(
            &mut sim,
            LhcAction::TestLaunch {
                resource: "Kaikei".into(),
                user: Some(format!("user{i}")),
            },
        ));
    }
    sim.lhc().consistency_check()?;
    Ok(out)
}

#[test]
fn without_advanced_health_check_a_launch_can_land_where_it_cannot_be_served() -> TestResult {
    let events = launches(false, 6)?;
    let failed: Vec<_> = events
        .iter()
        .filter(|e| e.kind == "launch.failed")
        .collect();
    let ok: Vec<_> = events
        .iter()
        .filter(|e| e.kind == "launch.succeeded")
        .collect();
    assert!(!failed.is_empty() && !ok.is_empty(), "{events:?}");
    assert!(failed.iter().all(|e| e.subject == PARIS
        && e.details["reason"].as_str().is_some_and(
            |r| r.contains("not published in paris") && r.contains("AdvancedHealthCheck")
        )));
    assert!(ok
        .iter()
        .all(|e| e.subject == "tokyo" && e.details["broker"] == "cc01.tokyo.example.com"));
    Ok(())
}

#[test]
fn with_advanced_health_check_the_launch_is_routed_to_a_resource_location_that_has_it() -> TestResult
{
    let events = launches(true, 6)?;
    let ok: Vec<_> = events
        .iter()
        .filter(|e| e.kind == "launch.succeeded")
        .collect();
    assert_eq!(ok.len(), 6, "{events:?}");
    assert!(ok.iter().all(|e| e.subject == "tokyo"
        && e.details["vda"]
            .as_str()
            .is_some_and(|v| v.starts_with("TYO-MS-"))
        && e.details["route"]
            .as_str()
            .is_some_and(|r| r.starts_with("AdvancedHealthCheck:"))));
    Ok(())
}

#[test]
fn in_normal_operation_the_cloud_broker_serves_launches_from_anywhere() -> TestResult {
    let s = parse(&estate(false, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    for _ in 0..5 {
        let events = act(
            &mut sim,
            LhcAction::TestLaunch {
                resource: "Kaikei".into(),
                user: None,
            },
        );
        let e = events.iter().find(|e| e.kind.starts_with("launch."));
        assert!(e.is_some_and(|e| e.kind == "launch.succeeded"
            && e.details["broker"] == "cloud"
            && e.details["vda_resource_location"] == "tokyo"
            && e.details["user"] == "test-user"));
    }
    Ok(())
}

#[test]
fn a_forced_outage_on_some_connectors_only_is_a_warning_and_no_outage() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let events = act(
        &mut sim,
        LhcAction::ForceOutage {
            resource_location: PARIS.into(),
            connector: Some(CC02.into()),
        },
    );
    let warning = of(&events, PARIS, "rl.warning");
    assert_eq!(warning[0].details["code"], "partial_forced_outage");
    assert_eq!(warning[0].details["forced"], serde_json::json!([CC02]));
    assert!(rl(&sim, PARIS)
        .warnings
        .iter()
        .any(|w| w.code == "partial_forced_outage"));
    let later = sim.advance_to(SimTime::from_mins(15));
    // The forced connector goes into HA by itself; the resource location does not.
    assert_eq!(connector(&sim, CC02).ha_state, Some(HaState::ExtendedHa));
    assert!(reached(&later, PARIS, "pending_ha").is_none());
    assert_eq!(rl(&sim, PARIS).on_cloud, 100);
    Ok(())
}

#[test]
fn losing_the_cloud_link_triggers_ha_after_cloud_lost_after() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let _ = sim.advance_to(secs(95));
    let _ = act(
        &mut sim,
        LhcAction::CloudLink {
            resource_location: PARIS.into(),
            connector: None,
            up: false,
        },
    );
    let events = sim.advance_to(SimTime::from_mins(10));
    let lost = of(&events, CC01, "connector.cloud_lost");
    assert_eq!(lost[0].t_ms, 155_000);
    assert_eq!(reached(&events, PARIS, "pending_ha"), Some(160_000));
    assert_eq!(reached(&events, PARIS, "ha_initial"), Some(220_000));
    let check = of(&events, CC01, "connector.ha_state");
    assert!(check[0].details["failed_checks"][0]
        .as_str()
        .is_some_and(|f| f.starts_with("cloud broker unreachable for 1m")));
    assert_eq!(rl(&sim, PARIS).secondary.get(CC01), Some(&100));
    let _ = act(
        &mut sim,
        LhcAction::CloudLink {
            resource_location: PARIS.into(),
            connector: None,
            up: true,
        },
    );
    let _ = sim.advance_to(SimTime::from_mins(25));
    assert_eq!(rl(&sim, PARIS).on_cloud, 100);
    assert_eq!(rl(&sim, PARIS).ha_state, HaState::WorkingNormally);
    Ok(())
}

#[test]
fn a_failed_ha_service_is_excluded_from_the_election() -> TestResult {
    let (mut sim, _) = paris_in_ha()?;
    let events = act(
        &mut sim,
        LhcAction::ConnectorFail {
            connector: CC01.into(),
            component: Some(engine::Component::HaService),
        },
    );
    let election = of(&events, PARIS, "election");
    assert_eq!(election[0].details["elected"], CC02);
    assert_eq!(
        election[0].details["excluded"],
        serde_json::json!([{"connector": CC01, "reason": "High Availability Service failed"}])
    );
    let _ = sim.advance_to(SimTime::from_mins(26));
    assert_eq!(rl(&sim, PARIS).secondary.get(CC02), Some(&100));
    let view = connector(&sim, CC01);
    assert!(!view.components.ha_service && view.election_rank.is_none());
    let _ = act(
        &mut sim,
        LhcAction::ConnectorRecover {
            connector: CC01.into(),
            component: None,
        },
    );
    let _ = sim.advance_to(SimTime::from_mins(32));
    assert_eq!(rl(&sim, PARIS).secondary.get(CC01), Some(&100));
    assert_eq!(connector(&sim, CC01).election_rank, Some(1));
    sim.lhc().consistency_check()?;
    Ok(())
}

#[test]
fn every_connector_down_in_ha_leaves_the_vdas_unregistered() -> TestResult {
    let (mut sim, _) = paris_in_ha()?;
    for fqdn in [CC01, CC02, "cc03.paris.example.com"] {
        let _ = act(
            &mut sim,
            LhcAction::ConnectorFail {
                connector: fqdn.into(),
                component: None,
            },
        );
    }
    let view = rl(&sim, PARIS);
    assert_eq!(
        (view.unregistered, view.elected, view.connectors_up),
        (100, None, 0)
    );
    assert!(!view.adc_vip_up);
    let _ = sim.advance_to(SimTime::from_mins(30));
    assert_eq!(rl(&sim, PARIS).unregistered, 100);
    sim.lhc().consistency_check()?;
    Ok(())
}
