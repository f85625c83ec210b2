//! The HA state machine of a connector through the engine (SPEC §1 *HA states*): every
//! transition an operator can provoke, when it happens on the health-check grid, and the
//! `reason` and failed checks its `connector.ha_state` event gives.

mod common;

use common::lhc::{act, clear, estate, force, of, parse, secs};
use engine::{Component, Event, LhcAction, SimTime, Simulation};
use serde_json::json;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const PARIS: &str = "paris";
const CC01: &str = "CC01.paris.example.com";
const CC02: &str = "cc02.paris.example.com";

fn paris() -> Result<Simulation, String> {
    let s = parse(&estate(true, true, "")).map_err(|e| e.to_string())?;
    Ok(Simulation::new(&s, s.seed()))
}

/// (time, from, to, reason) of the `connector.ha_state` events of `fqdn`.
fn transitions(events: &[Event], fqdn: &str) -> Vec<(u64, String, String, String)> {
    of(events, fqdn, "connector.ha_state")
        .into_iter()
        .map(|e| {
            let s = |k: &str| e.details[k].as_str().unwrap_or_default().to_owned();
            (e.t_ms, s("from"), s("to"), s("reason"))
        })
        .collect()
}

fn row(t: u64, from: &str, to: &str, reason: &str) -> (u64, String, String, String) {
    (t, from.to_owned(), to.to_owned(), reason.to_owned())
}

fn link(up: bool) -> LhcAction {
    LhcAction::CloudLink {
        resource_location: PARIS.into(),
        connector: None,
        up,
    }
}

#[test]
fn a_forced_outage_and_its_clearing_walk_the_whole_cycle() -> TestResult {
    let mut sim = paris()?;
    sim.advance_to(SimTime::from_mins(10));
    let mut events = act(&mut sim, force(PARIS));
    events.extend(sim.advance_to(SimTime::from_mins(20)));
    events.extend(act(&mut sim, clear(PARIS)));
    events.extend(sim.advance_to(SimTime::from_mins(30)));
    assert_eq!(
        transitions(&events, CC01),
        [
            row(
                610_000,
                "working_normally",
                "pending_ha",
                "a component failed to report healthy"
            ),
            row(
                670_000,
                "pending_ha",
                "ha_initial",
                "outage forced (OutageModeForced = 1) and pending_ha elapsed"
            ),
            row(
                970_000,
                "ha_initial",
                "extended_ha",
                "end of HA Initial: some check fails"
            ),
            row(
                1_210_000,
                "extended_ha",
                "pending_recovery",
                "all checks pass"
            ),
            row(
                1_390_000,
                "pending_recovery",
                "working_normally",
                "all checks passed for the whole pending_recovery period"
            ),
        ]
    );
    let first = of(&events, CC01, "connector.ha_state");
    assert_eq!(
        first[0].details["failed_checks"],
        json!(["outage forced (OutageModeForced = 1)"])
    );
    assert_eq!(first[0].details["resource_location"], PARIS);
    assert_eq!(first[4].details["failed_checks"], json!([]));
    Ok(())
}

#[test]
fn a_lost_cloud_is_an_outage_and_a_check_failing_in_recovery_goes_back_to_extended_ha() -> TestResult
{
    let mut sim = paris()?;
    sim.advance_to(secs(95));
    let mut events = act(&mut sim, link(false));
    // Lost at 155 s, Pending HA at 160 s, HA Initial after pending_ha (220 s); the link is
    // back before HA Initial ends (520 s): Pending Recovery.
    events.extend(sim.advance_to(secs(400)));
    events.extend(act(&mut sim, link(true)));
    events.extend(sim.advance_to(secs(600)));
    // Lost again during Pending Recovery.
    events.extend(act(&mut sim, link(false)));
    events.extend(sim.advance_to(secs(700)));
    assert_eq!(
        transitions(&events, CC02),
        [
            row(160_000, "working_normally", "pending_ha", "a component failed to report healthy"),
            row(220_000, "pending_ha", "ha_initial", "health checks kept failing for pending_ha and no connector of the resource location reaches the cloud broker"),
            row(520_000, "ha_initial", "pending_recovery", "end of HA Initial: all checks pass"),
            row(670_000, "pending_recovery", "extended_ha", "a check failed during Pending Recovery"),
        ]
    );
    Ok(())
}

#[test]
fn a_failure_the_peers_do_not_share_ends_with_a_full_health_check() -> TestResult {
    let mut sim = paris()?;
    sim.advance_to(secs(95));
    let mut events = act(
        &mut sim,
        LhcAction::ConnectorFail {
            connector: CC02.into(),
            component: Some(Component::Rbp),
        },
    );
    // cc01 still reaches the cloud broker: cc02 waits in Pending HA however long it fails.
    events.extend(sim.advance_to(secs(900)));
    events.extend(act(
        &mut sim,
        LhcAction::ConnectorRecover {
            connector: CC02.into(),
            component: Some(Component::Rbp),
        },
    ));
    events.extend(sim.advance_to(secs(1000)));
    assert_eq!(
        transitions(&events, CC02),
        [
            row(
                100_000,
                "working_normally",
                "pending_ha",
                "a component failed to report healthy"
            ),
            row(
                910_000,
                "pending_ha",
                "working_normally",
                "full health check passed"
            ),
        ]
    );
    assert_eq!(
        of(&events, CC02, "connector.ha_state")[0].details["failed_checks"],
        json!(["Remote Broker Provider failed"])
    );
    assert!(transitions(&events, CC01).is_empty());
    assert!(of(&events, PARIS, "rl.ha_state")
        .iter()
        .all(|e| e.details["to"] != "ha_initial"));
    Ok(())
}
