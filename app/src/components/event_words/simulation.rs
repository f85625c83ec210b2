//! The simulation's own events in words: its start, heartbeats, the clock's changes, notes,
//! refused actions.

use super::fields::{counted, duration, spaced, Fields};
use super::Template;
use crate::format::sim_time;

/// The template of a core kind.
pub(super) fn template(kind: &str) -> Option<Template> {
    Some(match kind {
        "simulation.started" => started,
        "heartbeat" => heartbeat,
        "clock.speed_changed" => speed_changed,
        "clock.stepped" => stepped,
        "operator.note" => note,
        "action.rejected" => rejected,
        _ => return None,
    })
}

/// `Demo estate started with seed 42, 2 heartbeats`.
fn started(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "{} started with seed {}, {}",
        f.text("scenario")?,
        f.int("seed")?,
        counted(f.int("heartbeats")?, "heartbeat")
    ))
}

/// `beat 1659 · every 30 s · 4.1 s early`: the jitter this beat came with.
fn heartbeat(f: Fields<'_>) -> Option<String> {
    let jitter = f.signed("jitter_ms")?;
    let when = match jitter {
        0 => "on time".to_owned(),
        j if j < 0 => format!("{} early", duration(j.unsigned_abs())),
        j => format!("{} late", duration(j.unsigned_abs())),
    };
    Some(format!(
        "beat {} · every {} · {when}",
        f.int("seq")?,
        duration(f.int("interval_ms")?)
    ))
}

/// `clock x60 → x600`, `clock paused (was x60)`, `clock resumed at x60`.
fn speed_changed(f: Fields<'_>) -> Option<String> {
    Some(match (f.text("from")?, f.text("to")?) {
        (from, "paused") => format!("clock paused (was {from})"),
        ("paused", to) => format!("clock resumed at {to}"),
        (from, to) if from == to => format!("clock kept at {to}"),
        (from, to) => format!("clock {from} → {to}"),
    })
}

/// `clock stepped from Day 1 01:00:58 to Day 1 01:01:00, the next event`.
fn stepped(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "clock stepped from {} to {}, the next event",
        sim_time(f.int("from_ms")?),
        sim_time(f.int("to_ms")?)
    ))
}

/// `note: drill starts`.
fn note(f: Fields<'_>) -> Option<String> {
    Some(format!("note: {}", f.text("text")?))
}

/// `force outage refused: unknown resource location …`.
fn rejected(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "{} refused: {}",
        spaced(f.text("action")?),
        f.text("error")?
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tests::check;

    #[test]
    fn simulation_events_read_as_words() {
        check(&[
            (
                "simulation.started",
                r#"{"heartbeats":2,"scenario":"Demo estate","seed":42}"#,
                "Demo estate started with seed 42, 2 heartbeats",
            ),
            (
                "heartbeat",
                r#"{"interval_ms":30000,"jitter_ms":-4074,"seq":1659}"#,
                "beat 1659 · every 30 s · 4.1 s early",
            ),
            (
                "heartbeat",
                r#"{"interval_ms":120000,"jitter_ms":0,"seq":1}"#,
                "beat 1 · every 2m · on time",
            ),
            (
                "heartbeat",
                r#"{"interval_ms":1000,"jitter_ms":250,"seq":7}"#,
                "beat 7 · every 1 s · 250 ms late",
            ),
            (
                "clock.speed_changed",
                r#"{"from":"x60","reason":"operator action","to":"x600"}"#,
                "clock x60 → x600",
            ),
            (
                "clock.speed_changed",
                r#"{"from":"x60","reason":"operator action","to":"paused"}"#,
                "clock paused (was x60)",
            ),
            (
                "clock.speed_changed",
                r#"{"from":"paused","reason":"operator action","to":"x60"}"#,
                "clock resumed at x60",
            ),
            (
                "clock.speed_changed",
                r#"{"from":"x60","reason":"operator action","to":"x60"}"#,
                "clock kept at x60",
            ),
            (
                "clock.stepped",
                r#"{"from_ms":3658932,"reason":"operator action","to_ms":3660000}"#,
                "clock stepped from Day 1 01:00:58 to Day 1 01:01:00, the next event",
            ),
            (
                "operator.note",
                r#"{"text":"drill starts"}"#,
                "note: drill starts",
            ),
            (
                "action.rejected",
                r#"{"action":"force_outage","error":"unknown resource location `rl-x`"}"#,
                "force outage refused: unknown resource location `rl-x`",
            ),
        ]);
    }
}
