//! VDA registration of SPEC §1 (docs/LHC.md *Registration*): which broker the VDAs of a
//! resource location go to and why, each VDA moving at its own next heartbeat, the counts
//! while they move, lost and rejected registrations, and the purge after an outage.

mod common;

use std::collections::BTreeMap;

use common::lhc::{act, clear, connector, estate, force, of, parse, reached, rl, secs};
use engine::lhc::{VdaQuery, VdaRow};
use engine::{Component, Event, LhcAction, SimTime, Simulation};
use serde_json::json;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const PARIS: &str = "paris";
const CC01: &str = "CC01.paris.example.com";
const CC02: &str = "cc02.paris.example.com";
const CC03: &str = "cc03.paris.example.com";
/// `vda_heartbeat_max` (default 300 s), in ms.
const PERIOD: u64 = 300_000;

fn sim_of(advanced_health_check: bool, tokyo_in_storefront: bool) -> Result<Simulation, String> {
    let s = parse(&estate(advanced_health_check, tokyo_in_storefront, ""))
        .map_err(|e| e.to_string())?;
    Ok(Simulation::new(&s, s.seed()))
}

fn vdas_of(sim: &Simulation, rl: &str) -> Vec<VdaRow> {
    sim.lhc()
        .vdas(&VdaQuery {
            resource_location: Some(rl.into()),
            limit: 1000,
            ..Default::default()
        })
        .rows
}

fn link(rl: &str, connector: Option<&str>, up: bool) -> LhcAction {
    LhcAction::CloudLink {
        resource_location: rl.into(),
        connector: connector.map(str::to_owned),
        up,
    }
}

fn fail(fqdn: &str, component: Option<Component>) -> LhcAction {
    LhcAction::ConnectorFail {
        connector: fqdn.into(),
        component,
    }
}

/// The first heartbeat of a VDA with this phase strictly after `t` (ms).
fn next_beat(t: u64, phase: u64) -> u64 {
    let r = t % PERIOD;
    if phase > r {
        t + phase - r
    } else {
        t + PERIOD - r + phase
    }
}

/// One `registrations.moved`: its moves (from, to, count) and its sample of VDA names.
type Moved = (Vec<(String, String, u64)>, Vec<String>);

/// `registrations.moved` of `rl` per instant: (moves, sample).
fn moved_by_instant(events: &[Event], rl: &str) -> BTreeMap<u64, Moved> {
    of(events, rl, "registrations.moved")
        .into_iter()
        .map(|e| {
            let moves = e.details["moves"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|m| {
                    (
                        m["from"].as_str().unwrap_or_default().to_owned(),
                        m["to"].as_str().unwrap_or_default().to_owned(),
                        m["count"].as_u64().unwrap_or(0),
                    )
                })
                .collect();
            let sample = e.details["sample"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_owned())
                .collect();
            (e.t_ms, (moves, sample))
        })
        .collect()
}

/// The distinct `reason`s of the `registrations.moved` events of `rl`.
fn move_reasons(events: &[Event], rl: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in of(events, rl, "registrations.moved") {
        let r = e.details["reason"].as_str().unwrap_or_default().to_owned();
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

#[test]
fn each_vda_moves_at_its_own_next_heartbeat_after_the_change() -> TestResult {
    // Tokyo is not HA-ready: cutting its cloud links unregisters its VDAs at once (no HA
    // detection), restoring them brings the VDAs back to the cloud.
    let mut sim = sim_of(true, false)?;
    let rows = vdas_of(&sim, "tokyo");
    assert_eq!(rows.len(), 40);
    // The change falls on one VDA's heartbeat instant: that VDA moves a whole period later.
    let t0 = PERIOD + rows[0].heartbeat_phase_ms;
    let mut want: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for r in &rows {
        want.entry(next_beat(t0, r.heartbeat_phase_ms))
            .or_default()
            .push(r.name.clone());
    }
    assert!(want
        .get(&(t0 + PERIOD))
        .is_some_and(|v| v.contains(&rows[0].name)));
    sim.advance_to(SimTime(t0));
    let mut events = act(&mut sim, link("tokyo", None, false));
    let view = rl(&sim, "tokyo");
    assert_eq!(view.next_broker, "unregistered");
    assert_eq!((view.on_cloud, view.reregistering), (40, 40));
    // Half-way: the VDAs whose heartbeat came have moved, the others are still moving.
    let half = t0 + PERIOD / 2;
    events.extend(sim.advance_to(SimTime(half)));
    let done: usize = want.range(..=half).map(|(_, v)| v.len()).sum();
    assert!(done > 0 && done < 40, "{done}");
    let view = rl(&sim, "tokyo");
    let done = u32::try_from(done)?;
    assert_eq!(
        (view.on_cloud, view.unregistered, view.reregistering),
        (40 - done, done, 40 - done)
    );
    events.extend(sim.advance_to(SimTime(t0 + PERIOD)));
    let got = moved_by_instant(&events, "tokyo");
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (t, names) in &want {
        let (moves, sample) = &got[t];
        let n = u64::try_from(names.len())?;
        assert_eq!(
            moves,
            &vec![("cloud".to_owned(), "unregistered".to_owned(), n)],
            "at {t}"
        );
        assert_eq!(sample.len(), names.len().min(3), "at {t}");
        assert!(
            sample.iter().all(|s| names.contains(s)),
            "at {t}: {sample:?}"
        );
    }
    assert_eq!(
        move_reasons(&events, "tokyo"),
        ["no connector relays to the cloud broker and the resource location is not HA-ready (no connector configured in StoreFront): VDAs cannot register"]
    );
    let view = rl(&sim, "tokyo");
    assert_eq!((view.unregistered, view.reregistering), (40, 0));
    // The links come back 7 s later: every VDA back to the cloud at its next heartbeat, no
    // secondary held any of them (nothing to purge).
    let t1 = t0 + PERIOD + 7_000;
    sim.advance_to(SimTime(t1));
    let mut back = act(&mut sim, link("tokyo", None, true));
    assert_eq!(rl(&sim, "tokyo").next_broker, "cloud");
    back.extend(sim.advance_to(SimTime(t1 + PERIOD)));
    let got = moved_by_instant(&back, "tokyo");
    let mut want_back: BTreeMap<u64, u64> = BTreeMap::new();
    for r in &rows {
        *want_back
            .entry(next_beat(t1, r.heartbeat_phase_ms))
            .or_default() += 1;
    }
    let counts: BTreeMap<u64, u64> = got
        .iter()
        .map(|(t, (moves, _))| (*t, moves.iter().map(|m| m.2).sum()))
        .collect();
    assert_eq!(counts, want_back);
    assert_eq!(
        move_reasons(&back, "tokyo"),
        ["VDAs register with the cloud broker through a Remote Broker Provider at their next heartbeat"]
    );
    assert!(back.iter().all(|e| e.kind != "registrations.purged"));
    assert_eq!(rl(&sim, "tokyo").on_cloud, 40);
    Ok(())
}

#[test]
fn without_a_running_storefront_connector_nor_a_cloud_relay_the_vdas_are_unregistered() -> TestResult
{
    let mut sim = sim_of(true, true)?;
    sim.advance_to(secs(100));
    // No connector relays to the cloud any more, but the cloud is not lost yet: HA
    // detection will decide, the VDAs stay where they are.
    let cut = act(&mut sim, link(PARIS, None, false));
    assert_eq!(rl(&sim, PARIS).next_broker, "hold");
    assert!(of(&cut, PARIS, "registrations.moved").is_empty());
    sim.advance_to(secs(120));
    assert_eq!(rl(&sim, PARIS).on_cloud, 100);
    // Both StoreFront-configured connectors go down; cc03 (not in StoreFront) still runs but
    // cannot enter HA mode: nothing can broker the VDAs.
    act(&mut sim, fail(CC01, None));
    act(&mut sim, fail(CC02, None));
    let view = rl(&sim, PARIS);
    assert_eq!(view.next_broker, "unregistered");
    assert_eq!(view.connectors_up, 1);
    let events = sim.advance_to(secs(120 + 300));
    let view = rl(&sim, PARIS);
    assert_eq!((view.on_cloud, view.unregistered), (0, 100));
    assert_eq!(
        move_reasons(&events, PARIS),
        ["no connector relays to the cloud broker and no StoreFront-configured connector runs to enter HA mode: VDAs cannot register"]
    );
    assert!(reached(&events, PARIS, "pending_ha").is_none());
    sim.lhc().consistency_check()?;
    Ok(())
}

#[test]
fn an_outage_moves_the_vdas_to_the_secondary_and_the_recovery_back_with_a_purge() -> TestResult {
    let mut sim = sim_of(true, true)?;
    sim.advance_to(SimTime::from_mins(10));
    act(&mut sim, force(PARIS));
    let outage = sim.advance_to(SimTime::from_mins(20));
    assert_eq!(reached(&outage, PARIS, "ha_initial"), Some(670_000));
    assert_eq!(
        move_reasons(&outage, PARIS),
        [format!("HA mode (HA Initial): VDAs register with the elected secondary broker {CC01} at their next heartbeat")]
    );
    let held = connector(&sim, CC01);
    assert_eq!(held.registrations, 100);
    act(&mut sim, clear(PARIS));
    let recovery = sim.advance_to(SimTime::from_mins(40));
    assert_eq!(
        reached(&recovery, PARIS, "working_normally"),
        Some(1_390_000)
    );
    assert_eq!(
        move_reasons(&recovery, PARIS),
        ["brokering is back with the cloud broker: VDAs re-register with it through a Remote Broker Provider at their next heartbeat"]
    );
    // Leftovers grow as the VDAs leave; only the secondary that held them purges, once.
    let purged: Vec<&Event> = recovery
        .iter()
        .filter(|e| e.kind == "registrations.purged")
        .collect();
    assert_eq!(purged.len(), 1, "{purged:?}");
    assert_eq!(purged[0].subject, CC01);
    assert_eq!(
        purged[0].details,
        json!({
            "purged": 100,
            "reason": "every VDA re-registered with the cloud broker: the secondary broker deletes the registrations left over from the outage",
            "resource_location": PARIS,
        })
    );
    let last_move = of(&recovery, PARIS, "registrations.moved")
        .last()
        .map_or(0, |e| e.t_ms);
    assert_eq!(purged[0].t_ms, last_move, "when the sweep back completes");
    let cc01 = connector(&sim, CC01);
    assert_eq!(
        (
            cc01.registrations,
            cc01.leftover_registrations,
            cc01.known_sessions
        ),
        (0, 0, 0)
    );
    // Nothing is left to do: the estate schedules no more work.
    assert_eq!(sim.next_due(), None);
    Ok(())
}

#[test]
fn with_every_ha_service_down_an_outage_leaves_the_vdas_unregistered_until_one_recovers(
) -> TestResult {
    let mut sim = sim_of(true, true)?;
    sim.advance_to(SimTime::from_mins(5));
    for c in [CC01, CC02, CC03] {
        act(&mut sim, fail(c, Some(Component::HaService)));
    }
    assert_eq!(rl(&sim, PARIS).elected, None);
    act(&mut sim, force(PARIS));
    let events = sim.advance_to(SimTime::from_mins(20));
    assert!(rl(&sim, PARIS).ha_state.is_ha_mode());
    assert_eq!(rl(&sim, PARIS).next_broker, "unregistered");
    assert_eq!(rl(&sim, PARIS).unregistered, 100);
    assert_eq!(
        move_reasons(&events, PARIS),
        ["HA mode but no secondary broker is elected (every High Availability Service is down): VDAs cannot register"]
    );
    act(
        &mut sim,
        LhcAction::ConnectorRecover {
            connector: CC02.into(),
            component: Some(Component::HaService),
        },
    );
    assert_eq!(rl(&sim, PARIS).next_broker, CC02);
    let events = sim.advance_to(SimTime::from_mins(26));
    assert_eq!(
        move_reasons(&events, PARIS),
        [format!("HA mode (Extended HA): VDAs register with the elected secondary broker {CC02} at their next heartbeat")]
    );
    assert_eq!(rl(&sim, PARIS).secondary.get(CC02), Some(&100));
    Ok(())
}

#[test]
fn a_restarting_broker_drops_its_registrations_and_rejects_nothing_while_down() -> TestResult {
    let mut sim = sim_of(true, true)?;
    sim.advance_to(SimTime::from_mins(10));
    act(&mut sim, force(PARIS));
    sim.advance_to(SimTime::from_mins(20));
    let sessions = connector(&sim, CC01).known_sessions;
    assert!(sessions > 0);
    let restart = act(
        &mut sim,
        LhcAction::ConnectorRestart {
            connector: CC01.into(),
        },
    );
    let dropped = of(&restart, CC01, "registrations.dropped");
    assert_eq!(dropped.len(), 1);
    assert_eq!(
        dropped[0].details,
        json!({
            "count": 100,
            "reason": "connector restarting: its secondary broker loses the registrations it held",
            "resource_location": PARIS,
            "sessions": sessions,
        })
    );
    let view = rl(&sim, PARIS);
    assert_eq!((view.unregistered, view.on_secondary), (100, 0));
    // While cc01 restarts (2 min) its former VDAs go straight to cc02: a connector that is
    // not running rejects nothing.
    let during = sim.advance_to(secs(22 * 60 - 1));
    assert!(of(&during, CC01, "registrations.rejected").is_empty());
    let flows: Vec<(String, String)> = moved_by_instant(&during, PARIS)
        .values()
        .flat_map(|(m, _)| m.iter().map(|(f, t, _)| (f.clone(), t.clone())))
        .collect();
    assert!(!flows.is_empty());
    assert!(flows
        .iter()
        .all(|f| f == &("unregistered".to_owned(), CC02.to_owned())));
    let on_cc02 = rl(&sim, PARIS).secondary.get(CC02).copied().unwrap_or(0);
    // cc01 comes back and takes over: cc02's VDAs are dropped, then rejected by cc02 at
    // their next heartbeat and registered with cc01.
    let back = sim.advance_to(SimTime::from_mins(28));
    let rejected = of(&back, CC02, "registrations.rejected");
    assert!(!rejected.is_empty());
    let total: u64 = rejected
        .iter()
        .map(|e| e.details["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(total, u64::from(on_cc02));
    assert_eq!(
        rejected[0].details["reason"],
        "not the elected secondary broker: in HA mode it actively rejects VDA registrations"
    );
    assert_eq!(rejected[0].details["elected"], CC01);
    assert_eq!(rejected[0].details["resource_location"], PARIS);
    assert!(of(&back, CC01, "registrations.rejected").is_empty());
    assert_eq!(rl(&sim, PARIS).secondary.get(CC01), Some(&100));
    // The summary lists only the secondaries that hold registrations.
    let last = of(&back, PARIS, "registrations")
        .pop()
        .map(|e| e.details.value().clone());
    assert_eq!(
        last,
        Some(json!({"cloud": 0, "secondary": {CC01: 100}, "unregistered": 0}))
    );
    Ok(())
}

#[test]
fn an_estate_at_rest_moves_nothing_and_schedules_no_heartbeat() -> TestResult {
    let mut sim = sim_of(true, false)?;
    // Something happens in Paris that does not change where its VDAs go.
    sim.advance_to(secs(10));
    act(&mut sim, fail(CC03, Some(Component::Css)));
    // (Its health check runs at the next 10 s grid instant.)
    sim.advance_to(secs(20));
    let paris = rl(&sim, PARIS);
    assert_eq!((paris.next_broker.as_str(), paris.on_cloud), ("cloud", 100));
    assert_eq!(paris.reregistering, 0);
    assert_eq!(
        engine::Engine::next_wakeup(sim.lhc()),
        None,
        "no VDA heartbeat to schedule"
    );
    // Tokyo loses its VDAs; once they are all unregistered, a change that does not move
    // them leaves nothing to do either.
    act(&mut sim, link("tokyo", None, false));
    sim.advance_to(secs(400));
    assert_eq!(rl(&sim, "tokyo").unregistered, 40);
    assert_eq!(sim.next_due(), None);
    act(
        &mut sim,
        fail("cc01.tokyo.example.com", Some(Component::Css)),
    );
    sim.advance_to(secs(410));
    let tokyo = rl(&sim, "tokyo");
    assert_eq!(
        (
            tokyo.next_broker.as_str(),
            tokyo.unregistered,
            tokyo.reregistering
        ),
        ("unregistered", 40, 0)
    );
    assert_eq!(engine::Engine::next_wakeup(sim.lhc()), None);
    Ok(())
}
