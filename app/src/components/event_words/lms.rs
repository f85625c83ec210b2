//! Load-management events in words: the zone's samples and pushes, placements, storms, the
//! operator's evaluators and farm settings, servers starting.

use serde_json::{Map, Value};

use super::fields::{counted, duration, listed, named, on_off, spaced, Fields};
use super::Template;
use crate::format::sim_time;

/// The template of a load-management kind.
pub(super) fn template(kind: &str) -> Option<Template> {
    Some(match kind {
        "load.sample" => sampled,
        "load.pushed" => pushed,
        "sessions.ended" => ended,
        "session.placed" => placed,
        "storm.started" => storm_started,
        "storm.finished" => storm_finished,
        "counter.spike" => spike,
        "sessions.disconnected" => disconnected,
        "sessions.logged_off" => logged_off,
        "evaluator.saved" => evaluator_saved,
        "evaluator.assigned" => evaluator_assigned,
        "evaluator.unassigned" => evaluator_unassigned,
        "evaluator.deleted" => evaluator_deleted,
        "farm.settings" => farm_settings,
        "server.starting" => server_starting,
        "server.up" => server_up,
        "collector.killed" => collector_killed,
        _ => return None,
    })
}

/// One line per server of a `{host: {...}}` table, joined by ` · ` (`None` when empty or
/// when any entry is not of the expected shape).
fn per_server(
    f: Fields<'_>,
    key: &str,
    line: fn(&str, Fields<'_>) -> Option<String>,
) -> Option<String> {
    let servers: &Map<String, Value> = f.object(key)?.0;
    let lines: Option<Vec<String>> = servers
        .iter()
        .map(|(host, entry)| line(host, Fields(entry.as_object()?)))
        .collect();
    lines.map(|l| l.join(" · ")).filter(|l| !l.is_empty())
}

/// `load.sample`: per server `XA-01 load 1732, 3 sessions (1 disconnected)`, and the load
/// its zone data collector holds when that is not the same.
fn sampled(f: Fields<'_>) -> Option<String> {
    per_server(f, "servers", |host, entry| {
        let load = entry.int("load")?;
        let connected = entry.int("connected").unwrap_or(0);
        let disconnected = entry.int("disconnected").unwrap_or(0);
        let mut line = format!("{host} load {load}");
        if connected + disconnected > 0 {
            line.push_str(&format!(
                ", {}",
                counted(connected + disconnected, "session")
            ));
            if disconnected > 0 {
                line.push_str(&format!(" ({disconnected} disconnected)"));
            }
        }
        match entry.0.get("dc_load") {
            Some(Value::Null) => line.push_str(", unknown to its collector"),
            Some(dc) if dc.as_u64() != Some(load) => {
                line.push_str(&format!(", collector holds {dc}"));
            }
            _ => {}
        }
        Some(line)
    })
}

/// `load.pushed`: per server `XA-01 pushed 2181 → 1732 (2 past the load delta, 1 asked by
/// the collector)`.
fn pushed(f: Fields<'_>) -> Option<String> {
    per_server(f, "pushes", |host, entry| {
        let load = match entry.0.get("load")? {
            Value::Null => "nothing".to_owned(),
            v => v.to_string(),
        };
        let from = entry
            .int("from")
            .map(|n| format!("{n} → "))
            .unwrap_or_default();
        let mut why = Vec::new();
        if let Some(n) = entry.int("delta").filter(|n| *n > 0) {
            why.push(format!("{n} past the load delta"));
        }
        if let Some(n) = entry.int("requested").filter(|n| *n > 0) {
            why.push(format!("{n} asked by the collector"));
        }
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join(", "))
        };
        Some(format!("{host} pushed {from}{load}{why}"))
    })
}

/// `sessions.ended`: per server `XA-01: 3 logged off, 1 disconnected, load now 1500`.
fn ended(f: Fields<'_>) -> Option<String> {
    per_server(f, "servers", |host, entry| {
        let mut line = format!("{host}: {} logged off", entry.int("count")?);
        if let Some(n) = entry.int("disconnected").filter(|n| *n > 0) {
            line.push_str(&format!(", {n} disconnected"));
        }
        line.push_str(&format!(", load now {}", entry.int("load_after")?));
        Some(line)
    })
}

/// `u000044's Excel on XA-PAR-02 at load 300, least loaded of 3 (next XA-LYO-01 2015,
/// XA-PAR-01 5020) · left out: 1 at full load · load now 5020`; a reconnection names its
/// server only.
fn placed(f: Fields<'_>) -> Option<String> {
    let user = f.text("user")?;
    let app = f.text("app")?;
    let chosen = f.text("chosen")?;
    let load_after = f.int("load_after")?;
    if f.text("mode")? == "reconnect" {
        return Some(format!(
            "{user} reconnected to {app} on {chosen} · load now {load_after}"
        ));
    }
    let candidates = f.objects("candidates")?;
    let loads: Option<Vec<(&str, u64)>> = candidates
        .into_iter()
        .map(|c| Some((c.text("host")?, c.int("load")?)))
        .collect();
    let loads = loads?;
    let mut line = format!("{user}'s {app} on {chosen}");
    if let Some((_, load)) = loads.iter().find(|(host, _)| *host == chosen) {
        line.push_str(&format!(" at load {load}"));
    }
    line.push_str(&format!(", least loaded of {}", f.int("considered")?));
    let others: Vec<String> = loads
        .iter()
        .filter(|(host, _)| *host != chosen)
        .map(|(host, load)| format!("{host} {load}"))
        .collect();
    if !others.is_empty() {
        line.push_str(&format!(" (next {})", others.join(", ")));
    }
    if let Some(excluded) = f.object("excluded") {
        let left_out: Vec<String> = [
            ("full", "at full load"),
            ("down", "down"),
            ("ip_range", "outside the client's IP range"),
            ("no_collector", "without a zone data collector"),
        ]
        .iter()
        .filter_map(|(key, why)| {
            let n = excluded.int(key).filter(|n| *n > 0)?;
            Some(format!("{n} {why}"))
        })
        .collect();
        if !left_out.is_empty() {
            line.push_str(&format!(" · left out: {}", left_out.join(", ")));
        }
    }
    line.push_str(&format!(" · load now {load_after}"));
    Some(line)
}

/// `storm 11: 40 users log on to Word over 10m`.
fn storm_started(f: Fields<'_>) -> Option<String> {
    let app = match f.text("app") {
        Some(app) => app.to_owned(),
        None if f.is_null("app") => "their applications".to_owned(),
        None => return None,
    };
    let over = match f.int("over_ms")? {
        0 => "at once".to_owned(),
        ms => format!("over {}", duration(ms)),
    };
    Some(format!(
        "storm {}: {} log on to {app} {over}",
        f.int("storm")?,
        counted(f.int("users")?, "user")
    ))
}

/// `storm 10: 27 of 40 users placed, 13 refused`.
fn storm_finished(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "storm {}: {} of {} placed, {} refused",
        f.int("storm")?,
        f.int("placed")?,
        counted(f.int("users")?, "user"),
        f.int("rejected")?
    ))
}

/// `cpu at 95 % until Day 1 00:51:00 · load now 10000`.
fn spike(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "{} at {} % until {} · load now {}",
        f.text("counter")?,
        f.number("percent")?,
        sim_time(f.int("until_ms")?),
        f.int("load")?
    ))
}

/// `3 sessions disconnected`.
fn disconnected(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "{} disconnected",
        counted(f.int("count")?, "session")
    ))
}

/// `1 session logged off`.
fn logged_off(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "{} logged off",
        counted(f.int("count")?, "session")
    ))
}

/// `Light saved: server user load (users 50) · cpu utilization (5–95) · on no server yet`.
fn evaluator_saved(f: Fields<'_>) -> Option<String> {
    let name = f.text("name")?;
    let mut line = match f.text("replaces") {
        Some(old) if old == name => format!("{name} saved"),
        Some(old) => format!("{name} saved in place of {old}"),
        None => format!("{name} created"),
    };
    let rules: Option<Vec<String>> = f.objects("rules")?.into_iter().map(rule).collect();
    line.push_str(": ");
    line.push_str(&rules?.join(" · "));
    let servers = f.texts("servers")?;
    line.push_str(&format!(" · on {}", listed(&servers, "no server yet")));
    Some(line)
}

/// One rule of an evaluator: `cpu utilization (5–95)`, `load throttling (level high)`.
fn rule(r: Fields<'_>) -> Option<String> {
    let name = spaced(r.text("rule")?);
    let mut settings = Vec::new();
    if let (Some(low), Some(high)) = (r.number("low"), r.number("high")) {
        settings.push(format!("{low}–{high}"));
    }
    settings.extend(
        r.0.iter()
            .filter(|(key, _)| !matches!(key.as_str(), "rule" | "low" | "high"))
            .map(|(key, value)| named(key, value)),
    );
    Some(if settings.is_empty() {
        name
    } else {
        format!("{name} ({})", settings.join(", "))
    })
}

/// `Light assigned to Excel · servers re-evaluated: XA-PAR-01, XA-PAR-02`.
fn evaluator_assigned(f: Fields<'_>) -> Option<String> {
    let evaluator = f.text("evaluator")?;
    let applications = f.texts("applications")?;
    let servers = f.texts("servers")?;
    Some(if applications.is_empty() {
        format!("{evaluator} assigned to {}", listed(&servers, "no server"))
    } else {
        format!(
            "{evaluator} assigned to {} · {}",
            applications.join(", "),
            re_evaluated(&servers)
        )
    })
}

/// `servers re-evaluated: A, B`.
fn re_evaluated(servers: &[&str]) -> String {
    format!("servers re-evaluated: {}", listed(servers, "none"))
}

/// `Light no longer on Excel · servers re-evaluated: XA-PAR-01`.
fn evaluator_unassigned(f: Fields<'_>) -> Option<String> {
    let application = f.text("application")?;
    let servers = f.texts("servers")?;
    let head = match f.text("evaluator") {
        Some(evaluator) => format!("{evaluator} no longer on {application}"),
        None => format!("{application} had no evaluator of its own"),
    };
    Some(format!("{head} · {}", re_evaluated(&servers)))
}

/// `evaluator Spare deleted`.
fn evaluator_deleted(f: Fields<'_>) -> Option<String> {
    Some(format!("evaluator {} deleted", f.text("name")?))
}

/// `black-hole fix on · load formula average`.
fn farm_settings(f: Fields<'_>) -> Option<String> {
    let fix = on_off(f.flag("black_hole_fix")?);
    Some(format!(
        "black-hole fix {fix} · load formula {}",
        f.text("formula")?
    ))
}

/// `starting: reports load 10000 until its services are up at Day 1 01:00:00 (black-hole fix
/// on)`.
fn server_starting(f: Fields<'_>) -> Option<String> {
    let fix = on_off(f.flag("black_hole_fix")?);
    Some(format!(
        "starting: reports load {} until its services are up at {} (black-hole fix {fix})",
        f.int("reported_load")?,
        sim_time(f.int("services_up_ms")?)
    ))
}

/// `up: load 0, 0 sessions`.
fn server_up(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "up: load {}, {}",
        f.int("load")?,
        counted(f.int("sessions")?, "session")
    ))
}

/// `zone data collector XA-LYO-01 killed with 7 sessions on it`.
fn collector_killed(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "zone data collector {} killed with {} on it",
        f.text("collector")?,
        counted(f.int("sessions")?, "session")
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tests::check;

    #[test]
    fn zone_tables_read_as_one_entry_per_server() {
        check(&[
            (
                "load.sample",
                r#"{"servers":{"XA-01":{"connected":0,"dc_load":1732,"disconnected":0,"load":1732,"rules":{"3":1732.3}},"XA-02":{"connected":2,"dc_load":500,"disconnected":1,"load":700,"rules":{}},"XA-03":{"connected":0,"dc_load":null,"disconnected":0,"load":0,"rules":{}},"XA-04":{"connected":1,"dc_load":90,"disconnected":0,"load":90,"rules":{}}}}"#,
                "XA-01 load 1732 · XA-02 load 700, 3 sessions (1 disconnected), collector holds 500 · XA-03 load 0, unknown to its collector · XA-04 load 90, 1 session",
            ),
            (
                "load.pushed",
                r#"{"pushes":{"XA-01":{"delta":2,"from":2181,"load":1732,"requested":0,"true_load":1732},"XA-02":{"delta":0,"from":null,"load":10,"requested":1,"true_load":10}}}"#,
                "XA-01 pushed 2181 → 1732 (2 past the load delta) · XA-02 pushed 10 (1 asked by the collector)",
            ),
            (
                "sessions.ended",
                r#"{"servers":{"XA-01":{"count":3,"disconnected":1,"load_after":1500},"XA-02":{"count":1,"disconnected":0,"load_after":700}}}"#,
                "XA-01: 3 logged off, 1 disconnected, load now 1500 · XA-02: 1 logged off, load now 700",
            ),
        ]);
    }

    #[test]
    fn placements_and_storms_read_as_words() {
        check(&[
            (
                "session.placed",
                r#"{"app":"Excel","candidates":[{"host":"XA-PAR-02","load":300},{"host":"XA-LYO-01","load":2015},{"host":"XA-PAR-01","load":5020}],"chosen":"XA-PAR-02","client_ip":"10.1.101.242","considered":3,"excluded":{"down":0,"full":1,"ip_range":2,"no_collector":0},"load_after":5020,"mode":"least_loaded","user":"u000044"}"#,
                "u000044's Excel on XA-PAR-02 at load 300, least loaded of 3 (next XA-LYO-01 2015, XA-PAR-01 5020) · left out: 1 at full load, 2 outside the client's IP range · load now 5020",
            ),
            (
                "session.placed",
                r#"{"app":"Word","candidates":[{"host":"XA-LYO-02","load":100}],"chosen":"XA-LYO-02","client_ip":"10.1.27.193","considered":1,"load_after":5010,"mode":"least_loaded","user":"u000224"}"#,
                "u000224's Word on XA-LYO-02 at load 100, least loaded of 1 · load now 5010",
            ),
            (
                "session.placed",
                r#"{"app":"Word","candidates":[],"chosen":"XA-LYO-02","client_ip":"10.1.27.193","considered":1,"load_after":700,"mode":"reconnect","user":"u000224"}"#,
                "u000224 reconnected to Word on XA-LYO-02 · load now 700",
            ),
            (
                "storm.started",
                r#"{"app":null,"over_ms":600000,"storm":11,"users":40}"#,
                "storm 11: 40 users log on to their applications over 10m",
            ),
            (
                "storm.started",
                r#"{"app":"Word","over_ms":0,"storm":4,"users":1}"#,
                "storm 4: 1 user log on to Word at once",
            ),
            (
                "storm.finished",
                r#"{"placed":27,"rejected":13,"storm":10,"users":40}"#,
                "storm 10: 27 of 40 users placed, 13 refused",
            ),
            (
                "counter.spike",
                r#"{"counter":"cpu","load":10000,"percent":95,"until_ms":3060000}"#,
                "cpu at 95 % until Day 1 00:51:00 · load now 10000",
            ),
            ("sessions.disconnected", r#"{"count":3}"#, "3 sessions disconnected"),
            ("sessions.logged_off", r#"{"count":1}"#, "1 session logged off"),
        ]);
    }

    #[test]
    fn the_operators_changes_and_servers_read_as_words() {
        check(&[
            (
                "evaluator.saved",
                r#"{"name":"Light","replaces":null,"rules":[{"rule":"server_user_load","users":50},{"high":95,"low":5,"rule":"cpu_utilization"},{"level":"medium","rule":"load_throttling"}],"servers":[]}"#,
                "Light created: server user load (users 50) · cpu utilization (5–95) · load throttling (level medium) · on no server yet",
            ),
            (
                "evaluator.saved",
                r#"{"name":"Advanced","replaces":"Advanced","rules":[{"high":90,"low":10,"rule":"memory_usage"}],"servers":["XA-LYO-01"]}"#,
                "Advanced saved: memory usage (10–90) · on XA-LYO-01",
            ),
            (
                "evaluator.saved",
                r#"{"name":"New","replaces":"Old","rules":[{"rule":"page_swaps","high":100,"low":0}],"servers":["A","B"]}"#,
                "New saved in place of Old: page swaps (0–100) · on A, B",
            ),
            (
                "evaluator.assigned",
                r#"{"applications":["Excel"],"evaluator":"Light","servers":["XA-PAR-01","XA-PAR-02"]}"#,
                "Light assigned to Excel · servers re-evaluated: XA-PAR-01, XA-PAR-02",
            ),
            (
                "evaluator.assigned",
                r#"{"applications":[],"evaluator":"Heavy apps","servers":["XA-LYO-03"]}"#,
                "Heavy apps assigned to XA-LYO-03",
            ),
            (
                "evaluator.unassigned",
                r#"{"application":"Excel","evaluator":"Light","servers":["XA-PAR-01"]}"#,
                "Light no longer on Excel · servers re-evaluated: XA-PAR-01",
            ),
            (
                "evaluator.unassigned",
                r#"{"application":"Excel","evaluator":null,"servers":[]}"#,
                "Excel had no evaluator of its own · servers re-evaluated: none",
            ),
            ("evaluator.deleted", r#"{"name":"Spare"}"#, "evaluator Spare deleted"),
            (
                "farm.settings",
                r#"{"black_hole_fix":false,"formula":"average"}"#,
                "black-hole fix off · load formula average",
            ),
            (
                "server.starting",
                r#"{"black_hole_fix":true,"reported_load":10000,"services_up_ms":3720000}"#,
                "starting: reports load 10000 until its services are up at Day 1 01:02:00 (black-hole fix on)",
            ),
            ("server.up", r#"{"load":2010,"sessions":1}"#, "up: load 2010, 1 session"),
            (
                "collector.killed",
                r#"{"collector":"XA-LYO-01","sessions":7}"#,
                "zone data collector XA-LYO-01 killed with 7 sessions on it",
            ),
        ]);
    }
}
