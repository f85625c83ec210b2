//! Properties of the LHC engine over random sequences of operator actions: at most one
//! elected broker per resource location, every VDA registered with at most one broker, no VDA
//! on a non-elected secondary in HA mode, and determinism.

mod common;

use common::lhc::{estate, parse};
use engine::{Component, Event, LhcAction, SimTime, Simulation, TimedAction};
use proptest::prelude::{prop, prop_assert, prop_assert_eq, proptest, ProptestConfig, Strategy};

const CONNECTORS: [&str; 5] = [
    "cc02.paris.example.com",
    "CC01.paris.example.com",
    "cc03.paris.example.com",
    "cc01.tokyo.example.com",
    "cc02.tokyo.example.com",
];

/// Every action the random sequences pick from.
fn actions() -> Vec<LhcAction> {
    let mut out = Vec::new();
    for rl in ["paris", "tokyo"] {
        let one = if rl == "paris" {
            CONNECTORS[1]
        } else {
            CONNECTORS[3]
        };
        for connector in [None, Some(one.to_owned())] {
            out.push(LhcAction::ForceOutage {
                resource_location: rl.into(),
                connector: connector.clone(),
            });
            out.push(LhcAction::ClearOutage {
                resource_location: rl.into(),
                connector: connector.clone(),
            });
            for up in [false, true] {
                out.push(LhcAction::CloudLink {
                    resource_location: rl.into(),
                    connector: connector.clone(),
                    up,
                });
            }
        }
    }
    for c in CONNECTORS {
        out.push(LhcAction::ConnectorRestart {
            connector: c.into(),
        });
        for component in [
            None,
            Some(Component::Css),
            Some(Component::HaService),
            Some(Component::Rbp),
        ] {
            out.push(LhcAction::ConnectorFail {
                connector: c.into(),
                component,
            });
            out.push(LhcAction::ConnectorRecover {
                connector: c.into(),
                component,
            });
        }
    }
    for resource in ["Word", "Kaikei", "Desktop"] {
        out.push(LhcAction::TestLaunch {
            resource: resource.into(),
            user: None,
        });
    }
    out.push(LhcAction::ConfigChange { description: None });
    for vda in ["PAR-VDI-003", "TYO-VDI-002", "PAR-MS-010"] {
        out.push(LhcAction::VdaLogoff { vda: vda.into() });
    }
    out
}

/// (seconds before the action, action).
fn sequences() -> impl Strategy<Value = Vec<(u64, LhcAction)>> {
    prop::collection::vec((1u64..600, prop::sample::select(actions())), 1..16)
}

fn check(sim: &Simulation) -> Result<(), String> {
    sim.lhc().consistency_check()?;
    for rl in sim.lhc().resource_locations() {
        let connectors = sim.lhc().connectors_of(&rl.id).unwrap_or_default();
        let elected = connectors.iter().filter(|c| c.elected).count();
        if elected > 1 {
            return Err(format!("{}: {elected} elected brokers", rl.id));
        }
        if rl.on_cloud + rl.on_secondary + rl.unregistered != rl.vdas_total {
            return Err(format!("{}: counts do not add up", rl.id));
        }
        if rl.ha_state.is_ha_mode() && rl.secondary.keys().any(|k| Some(k) != rl.elected.as_ref()) {
            return Err(format!(
                "{}: VDAs on a non-elected secondary in HA mode",
                rl.id
            ));
        }
    }
    Ok(())
}

fn timeline(seq: &[(u64, LhcAction)]) -> (Vec<TimedAction>, SimTime) {
    let mut t = 0;
    let mut out = Vec::new();
    for (delay, action) in seq {
        t += delay * 1_000;
        out.push(TimedAction {
            at: SimTime(t),
            actor: Some("prop".into()),
            action: action.clone().into(),
        });
    }
    (out, SimTime(t + 900_000))
}

fn lines(events: &[Event]) -> Vec<String> {
    events.iter().map(Event::to_json_line).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn invariants_hold_at_every_instant(seq in sequences(), ahc in proptest::bool::ANY) {
        let s = parse(&estate(ahc, true, "")).map_err(|e| e.to_string());
        prop_assert!(s.is_ok(), "{:?}", s);
        let Ok(s) = s else { return Ok(()) };
        let mut sim = Simulation::new(&s, 5);
        for (delay, action) in seq {
            let target = SimTime(sim.now().as_millis() + delay * 1_000);
            while sim.next_due().is_some_and(|t| t <= target) {
                sim.step_to_next();
                let checked = check(&sim);
                prop_assert!(checked.is_ok(), "{:?} at {}", checked, sim.now());
            }
            sim.advance_to(target);
            let _ = sim.apply_now(action, None);
            let checked = check(&sim);
            prop_assert!(checked.is_ok(), "{:?} after an action at {}", checked, sim.now());
        }
        sim.advance_to(SimTime(sim.now().as_millis() + 900_000));
        let checked = check(&sim);
        prop_assert!(checked.is_ok(), "{:?}", checked);
    }

    #[test]
    fn same_inputs_same_event_lines(seq in sequences(), seed in 0u64..1_000, cuts in prop::collection::vec(0u64..10_000_000, 0..8)) {
        let Ok(s) = parse(&estate(false, true, "")) else {
            prop_assert!(false, "scenario must parse");
            return Ok(());
        };
        let (timeline, end) = timeline(&seq);
        let run = |cuts: &[u64]| {
            let mut sim = Simulation::new(&s, seed);
            sim.schedule(timeline.clone());
            let mut cuts: Vec<u64> = cuts.iter().copied().filter(|c| *c < end.as_millis()).collect();
            cuts.sort_unstable();
            let mut out = Vec::new();
            for cut in cuts.into_iter().chain([end.as_millis()]) {
                out.extend(lines(&sim.advance_to(SimTime(cut))));
            }
            out
        };
        let whole = run(&[]);
        prop_assert_eq!(&whole, &run(&[]));
        prop_assert_eq!(&whole, &run(&cuts));
        let times: Vec<u64> = whole.iter().filter_map(|l| {
            serde_json::from_str::<Event>(l).ok().map(|e| e.t_ms)
        }).collect();
        prop_assert!(times.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[test]
fn a_different_seed_gives_different_heartbeat_phases() {
    let Ok(s) = parse(&estate(true, true, "")) else {
        panic!("scenario must parse");
    };
    let phases = |seed| {
        let sim = Simulation::new(&s, seed);
        sim.lhc()
            .vdas(&engine::lhc::VdaQuery {
                limit: 1000,
                ..Default::default()
            })
            .rows
            .iter()
            .map(|r| r.heartbeat_phase_ms)
            .collect::<Vec<_>>()
    };
    assert_eq!(phases(1), phases(1));
    assert_ne!(phases(1), phases(2));
    assert!(phases(3).iter().all(|p| p % 1_000 == 0 && *p < 300_000));
}
