use super::*;
use crate::clock::SimTime;
use crate::scenario::Scenario;

const DEMO: &str = include_str!("../../../scenarios/demo.toml");

fn demo() -> Simulation {
    let scenario = Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    Simulation::new(&scenario, 42)
}

fn lines(events: &[crate::Event]) -> Vec<String> {
    events.iter().map(crate::Event::to_json_line).collect()
}

#[test]
fn a_restored_simulation_has_the_same_future_and_the_same_bytes() {
    for t in [0, 1, 61_000, 3_600_000] {
        let mut sim = demo();
        sim.advance_to(SimTime(t));
        let snap = sim.snapshot();
        let mut back = Simulation::restore(snap.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.snapshot(), snap, "re-encoding is identical at {t} ms");
        assert_eq!(back.now(), sim.now());
        let until = SimTime(t + 2 * 3_600_000);
        assert_eq!(
            lines(&back.advance_to(until)),
            lines(&sim.advance_to(until))
        );
    }
}

#[test]
fn a_snapshot_before_the_first_advance_still_starts_the_run() {
    let sim = demo();
    let mut back = Simulation::restore(sim.snapshot().as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let events = back.advance_to(SimTime::ZERO);
    assert_eq!(
        events.first().map(|e| e.kind.as_str()),
        Some("simulation.started")
    );
}

#[test]
fn the_header_holds_magic_version_and_checksum() {
    let snap = demo().snapshot();
    let bytes = snap.as_bytes();
    assert_eq!(&bytes[..8], b"SWYDSNAP");
    assert_eq!(bytes[8..12], SNAPSHOT_VERSION.to_le_bytes());
    assert_eq!(bytes[12..20], checksum(&bytes[20..]).to_le_bytes());
    assert_eq!(snap.len(), bytes.len());
    assert!(!snap.is_empty());
    assert_eq!(Vec::from(snap.clone()), snap.into_bytes());
}

#[test]
fn errors_say_what_is_wrong() {
    let version = SnapshotError::Version {
        found: 3,
        expected: 4,
    };
    assert_eq!(version.to_string(), "snapshot format 3, this build reads 4");
    let mut bytes = demo().snapshot().into_bytes();
    bytes[8..12].copy_from_slice(&(SNAPSHOT_VERSION + 1).to_le_bytes());
    assert_eq!(
        Simulation::restore(&bytes).err(),
        Some(SnapshotError::Version {
            found: SNAPSHOT_VERSION + 1,
            expected: SNAPSHOT_VERSION
        })
    );
    let err = |b: &[u8]| Simulation::restore(b).err().map(|e| e.to_string());
    assert_eq!(
        err(b"SWYDSNAP"),
        Some("snapshot cannot be read: truncated header".into())
    );
    assert_eq!(
        err(b"{\"t_ms\":0}"),
        Some("snapshot cannot be read: not a Switchyard snapshot (wrong magic bytes)".into())
    );
}
