//! The Scheduling rule (`5`) in simulated time: t = 0 is Monday 00:00, a window is
//! `[start, end)`, and outside every window the server reports full load (10000) and gets no
//! session.

mod common;

use common::lms::{act, at_secs, launch, of_kind, scenario, server};
use engine::Simulation;

/// One zone, one server `A` whose evaluator has only a Scheduling rule over `windows`.
fn scheduled(windows: &str) -> Simulation {
    let src = format!(
        r#"[scenario]
name = "scheduling"

[[lms.zones]]
id = "z"
name = "Z"

[[lms.applications]]
name = "Word"

[[lms.evaluators]]
name = "Office"

[[lms.evaluators.rules]]
rule = "scheduling"
windows = [{windows}]

[[lms.servers]]
host = "A"
zone = "z"
evaluator = "Office"
apps = ["Word"]
"#
    );
    Simulation::new(&scenario(&src), 1)
}

const HOUR: u64 = 3600;
const DAY: u64 = 24 * HOUR;

/// The server's true load and the collector's view after advancing to each `(seconds,
/// load)`.
fn assert_loads(sim: &mut Simulation, rows: &[(u64, u32)]) {
    for (t, want) in rows {
        sim.advance_to(at_secs(*t));
        let a = server(sim, "A");
        assert_eq!((a.load, a.dc_load), (*want, Some(*want)), "at {t} s");
    }
}

#[test]
fn a_monday_window_is_open_at_t0_and_closes_at_its_end_minute() {
    let mut sim = scheduled(r#""mon 00:00-08:00""#);
    assert_loads(
        &mut sim,
        &[
            (0, 0),
            (8 * HOUR - 30, 0),
            // The end minute is outside the window: full load, pushed at once (a drift of
            // 10000).
            (8 * HOUR, 10_000),
            (DAY, 10_000),
        ],
    );
    let e = act(&mut sim, launch("alice", "Word", None));
    let rejected = of_kind(&e, "session.rejected");
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0].details["excluded"]["full"], 1);
}

#[test]
fn the_week_wraps_from_sunday_night_to_monday_morning() {
    let mut sim = scheduled(r#""sun 20:00-24:00", "mon 00:00-02:00""#);
    let sunday = 6 * DAY;
    let week = 7 * DAY;
    assert_loads(
        &mut sim,
        &[
            (0, 0),
            (2 * HOUR, 10_000),
            (sunday + 20 * HOUR - 30, 10_000),
            (sunday + 20 * HOUR, 0),
            (week - 30, 0),
            // t = one week is Monday 00:00 again.
            (week, 0),
            (week + 2 * HOUR - 30, 0),
            (week + 2 * HOUR, 10_000),
        ],
    );
    sim.advance_to(at_secs(week + 2 * HOUR + 30));
    let e = act(&mut sim, launch("alice", "Word", None));
    assert_eq!(of_kind(&e, "session.rejected").len(), 1);
    sim.advance_to(at_secs(2 * week - 30));
    let e = act(&mut sim, launch("bob", "Word", None));
    let placed = of_kind(&e, "session.placed");
    assert_eq!(placed.len(), 1, "inside Sunday's window");
    assert_eq!(placed[0].subject, "A");
}
