//! A snapshot restores a simulation with the same future: the events of a run cut by a
//! snapshot and a restore are those of the same run uninterrupted, byte for byte, whatever
//! the instant of the cut, the scheduled actions and the operator actions applied before it.
//! Bad input is refused with an error, never a panic.

use engine::{
    parse_actions, Event, Scenario, SimTime, Simulation, SnapshotError, TimedAction,
    SNAPSHOT_VERSION,
};
use proptest::prelude::{prop_assert_eq, proptest, ProptestConfig};

const DEMO: &str = include_str!("../../scenarios/demo.toml");
const AUTOSCALE_SEED: &str = include_str!("../../scenarios/autoscale-seed.toml");
/// One action of every kind, valid against the demo estate.
const EVERY_ACTION: &str = include_str!("data/every-action.toml");

const HOUR_MS: u64 = 3_600_000;

fn scenario(src: &str, name: &str) -> Scenario {
    Scenario::from_toml_str(src, name).unwrap_or_else(|e| panic!("{e}"))
}

fn demo() -> Scenario {
    scenario(DEMO, "scenarios/demo.toml")
}

fn every_action(demo: &Scenario) -> Vec<TimedAction> {
    parse_actions(EVERY_ACTION, "every-action.toml", demo).unwrap_or_else(|e| panic!("{e}"))
}

fn json(events: Vec<Event>) -> Vec<String> {
    events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap_or_else(|err| panic!("{err}")))
        .collect()
}

/// What happens at a cut: operator actions applied now, then (or not) a snapshot and a
/// restore.
struct Cut<'a> {
    at: SimTime,
    apply_now: &'a [TimedAction],
}

/// A run of `scenario` with `timeline` scheduled, to `until`, stopping at each cut to apply
/// its operator actions and, when `restore` is set, to go on from a restored snapshot.
/// Returns every event (and every refused operator action) as JSON lines.
fn run(
    scenario: &Scenario,
    seed: u64,
    timeline: &[TimedAction],
    cuts: &[Cut<'_>],
    until: SimTime,
    restore: bool,
) -> Vec<String> {
    let mut sim = Simulation::new(scenario, seed);
    sim.schedule(timeline.to_vec());
    let mut out = Vec::new();
    for cut in cuts {
        out.extend(json(sim.advance_to(cut.at)));
        for timed in cut.apply_now {
            match sim.apply_now(timed.action.clone(), timed.actor.clone()) {
                Ok(events) => out.extend(json(events)),
                Err(err) => out.push(format!("refused {}: {err}", timed.action.kind())),
            }
        }
        if restore {
            let snapshot = sim.snapshot();
            sim = Simulation::restore(snapshot.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    out.extend(json(sim.advance_to(until)));
    out
}

/// Asserts that cutting `scenario`'s run by a snapshot at each instant changes nothing.
fn same_future(scenario: &Scenario, timeline: &[TimedAction], instants: &[u64], until: SimTime) {
    let seed = scenario.seed();
    let whole = json(Simulation::new(scenario, seed).advance_to(until));
    let mut with_timeline = Simulation::new(scenario, seed);
    with_timeline.schedule(timeline.to_vec());
    let whole_with_timeline = json(with_timeline.advance_to(until));
    for &t in instants {
        let cut = [Cut {
            at: SimTime(t),
            apply_now: &[],
        }];
        assert_eq!(
            run(scenario, seed, &[], &cut, until, true),
            whole,
            "cut at {t} ms"
        );
        assert_eq!(
            run(scenario, seed, timeline, &cut, until, true),
            whole_with_timeline,
            "cut at {t} ms, with the timeline"
        );
    }
}

/// Every instant of `actions`, and the millisecond after it.
fn at_and_after(actions: &[TimedAction]) -> Vec<u64> {
    let mut out: Vec<u64> = actions
        .iter()
        .flat_map(|a| [a.at.as_millis(), a.at.as_millis() + 1])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn demo_cut_anywhere_has_the_future_of_the_uninterrupted_run() {
    let demo = demo();
    let timeline = every_action(&demo);
    let mut instants = at_and_after(&demo.actions);
    instants.extend(at_and_after(&timeline));
    instants.extend([0, 1, 37_123, 3 * HOUR_MS, 6 * HOUR_MS + 1]);
    instants.sort_unstable();
    instants.dedup();
    assert!(demo.seed() == 42 && instants.len() > 80);
    same_future(&demo, &timeline, &instants, SimTime(8 * HOUR_MS));
}

#[test]
fn demo_over_a_day_with_operator_actions_applied_before_each_snapshot() {
    let demo = demo();
    let operator = every_action(&demo);
    let timeline = &operator[..operator.len() / 2];
    // Every kind applied now at one instant or another, at and right after scheduled ones.
    let (first, second) = operator.split_at(operator.len() / 3);
    let (second, third) = second.split_at(second.len() / 2);
    let cuts = [
        Cut {
            at: SimTime::from_mins(12),
            apply_now: first,
        },
        Cut {
            at: SimTime::from_mins(30).saturating_add(engine::SimDuration(1)),
            apply_now: second,
        },
        Cut {
            at: SimTime::from_mins(90),
            apply_now: third,
        },
        Cut {
            at: SimTime(13 * HOUR_MS + 7),
            apply_now: &[],
        },
    ];
    let until = SimTime(24 * HOUR_MS);
    let reference = run(&demo, 42, timeline, &cuts, until, false);
    let refused = reference
        .iter()
        .filter(|l| l.starts_with("refused"))
        .count();
    assert!(
        refused * 10 < operator.len(),
        "{refused} operator actions refused"
    );
    assert!(reference.iter().any(|l| l.contains("\"actor\":\"carol\"")));
    assert_eq!(run(&demo, 42, timeline, &cuts, until, true), reference);
}

#[test]
fn autoscale_seed_cut_at_every_minute_boundary() {
    let seed = scenario(AUTOSCALE_SEED, "scenarios/autoscale-seed.toml");
    let mut instants: Vec<u64> = (0..=40)
        .flat_map(|m| [m * 60_000, m * 60_000 + 1])
        .collect();
    instants.extend(at_and_after(&seed.actions));
    instants.sort_unstable();
    instants.dedup();
    same_future(&seed, &[], &instants, SimTime::from_mins(120));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random snapshot instants (several per run, each restored from the last restore) and
    /// random subsets of the actions, scheduled or applied now.
    #[test]
    fn random_cuts_and_actions(
        instants in proptest::collection::vec(0u64..4 * HOUR_MS, 1..5),
        scheduled in proptest::collection::vec(proptest::bool::ANY, 42),
        now in proptest::collection::vec(0usize..42, 0..6),
    ) {
        let demo = demo();
        let every = every_action(&demo);
        let timeline: Vec<TimedAction> = every
            .iter()
            .zip(&scheduled)
            .filter(|(_, keep)| **keep)
            .map(|(a, _)| a.clone())
            .collect();
        let mut instants = instants;
        instants.sort_unstable();
        let operator: Vec<TimedAction> = now.iter().filter_map(|i| every.get(*i).cloned()).collect();
        let cuts: Vec<Cut<'_>> = instants
            .iter()
            .enumerate()
            .map(|(i, t)| Cut {
                at: SimTime(*t),
                // The operator actions at the first cut only.
                apply_now: if i == 0 { &operator[..] } else { &[] },
            })
            .collect();
        let until = SimTime(5 * HOUR_MS);
        prop_assert_eq!(
            run(&demo, 42, &timeline, &cuts, until, true),
            run(&demo, 42, &timeline, &cuts, until, false)
        );
    }
}

fn demo_snapshot_bytes() -> Vec<u8> {
    let demo = demo();
    let mut sim = Simulation::new(&demo, 42);
    sim.schedule(every_action(&demo));
    sim.advance_to(SimTime::from_mins(45));
    sim.snapshot().into_bytes()
}

fn decode_error(bytes: &[u8]) -> String {
    match Simulation::restore(bytes) {
        Err(SnapshotError::Decode(message)) => message,
        Err(other) => panic!("a decode error was expected: {other}"),
        Ok(_) => panic!("{} bytes should not restore", bytes.len()),
    }
}

#[test]
fn bad_input_is_an_error_never_a_panic() {
    let good = demo_snapshot_bytes();
    assert!(Simulation::restore(&good).is_ok());
    assert!(decode_error(&[]).contains("wrong magic"));
    assert!(decode_error(b"SWYD").contains("wrong magic"));
    assert!(decode_error(b"not a snapshot at all, just text").contains("wrong magic"));
    let mut magic = good.clone();
    magic[0] ^= 0x20;
    assert!(decode_error(&magic).contains("wrong magic"));
    for tenth in 0..10 {
        let len = good.len() * tenth / 10;
        let message = decode_error(&good[..len]);
        assert!(!message.is_empty(), "truncated at {len}");
    }
    assert!(decode_error(&good[..good.len() - 1]).contains("checksum"));
    let mut longer = good.clone();
    longer.push(0);
    assert!(decode_error(&longer).contains("checksum"));
    for at in [20, good.len() / 3, good.len() / 2, good.len() - 1] {
        let mut flipped = good.clone();
        flipped[at] ^= 0x01;
        assert!(
            decode_error(&flipped).contains("checksum"),
            "bit flip at {at}"
        );
    }
}

#[test]
fn another_version_is_refused_by_number() {
    let mut bytes = demo_snapshot_bytes();
    for found in [0, SNAPSHOT_VERSION + 1, u32::MAX] {
        bytes[8..12].copy_from_slice(&found.to_le_bytes());
        let err = Simulation::restore(&bytes).err();
        assert_eq!(
            err,
            Some(SnapshotError::Version {
                found,
                expected: SNAPSHOT_VERSION
            })
        );
        let text = err.map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            text,
            format!("snapshot format {found}, this build reads {SNAPSHOT_VERSION}")
        );
    }
}

#[test]
fn a_well_formed_body_that_is_not_a_simulation_is_a_decode_error() {
    // Right magic, version and checksum, wrong content: decoding itself refuses it.
    let bodies: [&[u8]; 4] = [
        &[],
        &[0xc0],
        &[0x81, 0xa1, b'x', 0x01],
        &[0xdd, 0xff, 0xff, 0xff, 0xff],
    ];
    for body in bodies {
        let mut bytes = b"SWYDSNAP".to_vec();
        bytes.extend_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&engine::snapshot::checksum(body).to_le_bytes());
        bytes.extend_from_slice(body);
        assert!(!decode_error(&bytes).is_empty(), "{body:?}");
    }
    // Every truncation of a real body, re-summed so that the decoder sees it.
    let good = demo_snapshot_bytes();
    let body = &good[20..];
    for tenth in 0..10 {
        let cut = &body[..body.len() * tenth / 10];
        let mut bytes = good[..12].to_vec();
        bytes.extend_from_slice(&engine::snapshot::checksum(cut).to_le_bytes());
        bytes.extend_from_slice(cut);
        assert!(
            !decode_error(&bytes).is_empty(),
            "body cut at {}",
            cut.len()
        );
    }
}
