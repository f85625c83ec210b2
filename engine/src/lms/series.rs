//! A server's load over time and the placements that chose or passed over it, as the
//! console's server page draws and lists them, read back from the persisted `load.sample`
//! and `session.placed` events; and each rule's share of the load index for the stacked
//! chart.

use serde::{Deserialize, Serialize};

use super::config::LoadFormula;

/// One `load.sample` of a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadSample {
    /// Simulated ms.
    pub t_ms: u64,
    /// True load index.
    pub load: u32,
    /// The data collector's view then.
    pub dc_load: Option<u32>,
    /// Rule loads by code (`b`, `d`, `1`, ...).
    pub rules: Vec<(char, f64)>,
    /// Connected sessions.
    pub connected: u32,
    /// Disconnected sessions.
    pub disconnected: u32,
}

/// Reads one server's entry of a `load.sample` event (`details.servers.<HOST>`).
pub fn load_sample(t_ms: u64, details: &serde_json::Value) -> Option<LoadSample> {
    let num = |key: &str| details.get(key).and_then(serde_json::Value::as_u64);
    let rules = details
        .get("rules")?
        .as_object()?
        .iter()
        .filter_map(|(code, v)| Some((code.chars().next()?, v.as_f64()?)))
        .collect();
    Some(LoadSample {
        t_ms,
        load: u32::try_from(num("load")?).ok()?,
        dc_load: num("dc_load").and_then(|v| u32::try_from(v).ok()),
        rules,
        connected: u32::try_from(num("connected").unwrap_or(0)).unwrap_or(0),
        disconnected: u32::try_from(num("disconnected").unwrap_or(0)).unwrap_or(0),
    })
}

/// How much each rule adds to the load index (the stacked chart): the highest rule counts in
/// full, each other one 5 % (sum formula) or 5 % / n (average formula). The contributions add
/// up to the index before the 10000 cap. Order: the highest rule first.
pub fn contributions(rules: &[(char, f64)], formula: LoadFormula) -> Vec<(char, f64)> {
    let mut sorted: Vec<(char, f64)> = rules.to_vec();
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let others = sorted.len().saturating_sub(1).max(1) as f64;
    sorted
        .iter()
        .enumerate()
        .map(|(i, (code, load))| {
            let share = match (i, formula) {
                (0, _) => 1.0,
                (_, LoadFormula::Sum) => 0.05,
                (_, LoadFormula::Average) => 0.05 / others,
            };
            (*code, load * share)
        })
        .collect()
}

/// One placement that chose or passed over a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementRow {
    /// Simulated ms.
    pub t_ms: u64,
    /// User.
    pub user: String,
    /// Application.
    pub app: String,
    /// `least_loaded` or `reconnect`.
    pub mode: String,
    /// Server chosen.
    pub chosen: String,
    /// This server was chosen.
    pub chose_this: bool,
    /// The candidates compared, lowest first, as `HOST load`.
    pub candidates: Vec<String>,
    /// Why in one sentence.
    pub why: String,
}

/// Reads a `session.placed` event from the point of view of server `host`.
pub fn placement_row(t_ms: u64, details: &serde_json::Value, host: &str) -> Option<PlacementRow> {
    let text = |key: &str| {
        details
            .get(key)
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    };
    let chosen = text("chosen")?;
    let mode = text("mode").unwrap_or_else(|| "least_loaded".into());
    let candidates: Vec<(String, u64)> = details
        .get("candidates")
        .and_then(serde_json::Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|c| {
                    Some((
                        c.get("host")?.as_str()?.to_owned(),
                        c.get("load")?.as_u64()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let chose_this = chosen.eq_ignore_ascii_case(host);
    let chosen_load = candidates
        .iter()
        .find(|(h, _)| *h == chosen)
        .map(|(_, l)| *l);
    let mine = candidates
        .iter()
        .find(|(h, _)| h.eq_ignore_ascii_case(host))
        .map(|(_, l)| *l);
    let why = match (mode.as_str(), chose_this) {
        ("reconnect", true) => {
            "the user had a disconnected session here: reconnection wins".to_owned()
        }
        ("reconnect", false) => {
            format!("reconnected to {chosen}, where the user's disconnected session was")
        }
        (_, true) => format!(
            "lowest load index among {} candidates ({})",
            details
                .get("considered")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0),
            chosen_load.map_or_else(|| "?".into(), |l| l.to_string())
        ),
        (_, false) => match (mine, chosen_load) {
            (Some(m), Some(c)) => format!("skipped: load {m} here vs {c} on {chosen}"),
            _ => format!("skipped: {chosen} was less loaded"),
        },
    };
    Some(PlacementRow {
        t_ms,
        user: text("user").unwrap_or_default(),
        app: text("app").unwrap_or_default(),
        mode,
        chosen,
        chose_this,
        candidates: candidates.iter().map(|(h, l)| format!("{h} {l}")).collect(),
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_and_contributions() {
        let d = serde_json::json!({"connected": 3, "dc_load": 250, "disconnected": 1, "load": 6410,
            "rules": {"1": 6200.0, "3": 3600.0, "6": 600.0}});
        let s = load_sample(60_000, &d).unwrap_or_else(|| panic!("no sample"));
        assert_eq!(
            (s.load, s.dc_load, s.connected, s.disconnected),
            (6410, Some(250), 3, 1)
        );
        let c = contributions(&s.rules, LoadFormula::Sum);
        assert_eq!(c[0], ('1', 6200.0));
        let total: f64 = c.iter().map(|(_, v)| v).sum();
        assert!((total - 6410.0).abs() < 1e-9, "{total}");
        let avg: f64 = contributions(&s.rules, LoadFormula::Average)
            .iter()
            .map(|(_, v)| v)
            .sum();
        assert!((avg - 6305.0).abs() < 1e-9, "{avg}");
    }

    #[test]
    fn placement_rows_explain() {
        let d = serde_json::json!({"app": "Word", "candidates": [{"host": "A", "load": 100}, {"host": "B", "load": 300}],
            "chosen": "A", "considered": 2, "mode": "least_loaded", "user": "u1"});
        let a = placement_row(5, &d, "A").unwrap_or_else(|| panic!("no row"));
        assert!(a.chose_this);
        assert_eq!(a.why, "lowest load index among 2 candidates (100)");
        let b = placement_row(5, &d, "b").unwrap_or_else(|| panic!("no row"));
        assert!(!b.chose_this);
        assert_eq!(b.why, "skipped: load 300 here vs 100 on A");
    }
}
