//! A GSLB run for the tests: a topology from CLI text, actions applied at their instant,
//! every event kept, and short-hands to read them.

#![allow(dead_code, reason = "each test file uses a different subset")]

use engine::gslb::parse_cli;
use engine::{Event, GslbAction, Scenario, SimTime, Simulation};

/// Three parents, one child of P1; P1's backups are P2 then P3.
pub const TOPO: &str = "\
add gslb site P1 10.0.0.1
add gslb site P2 10.0.0.2
add gslb site P3 10.0.0.3
add gslb site C1 10.0.1.1 -parentSite P1
set gslb site P1 -backupParentlist P2 P3
";

/// A run of the topology `cli`: actions applied at their instant, every event kept.
pub struct Run {
    pub sim: Simulation,
    pub events: Vec<Event>,
}

impl Run {
    pub fn new(cli: &str) -> Run {
        let cfg = parse_cli(cli).unwrap_or_else(|e| panic!("{e}"));
        let mut text = String::from("[scenario]\nname = \"adoption\"\n\n");
        text.push_str(
            &toml::to_string(&toml::Table::from_iter([(
                "gslb".to_owned(),
                toml::Value::try_from(&cfg).unwrap_or_else(|e| panic!("{e}")),
            )]))
            .unwrap_or_else(|e| panic!("{e}")),
        );
        let sc = Scenario::from_toml_str(&text, "adoption.toml").unwrap_or_else(|e| panic!("{e}"));
        Run {
            sim: Simulation::new(&sc, 7),
            events: Vec::new(),
        }
    }

    /// Advances to `ms` (events kept).
    pub fn to(&mut self, ms: u64) -> &mut Run {
        let ev = self.sim.advance_to(SimTime::from_millis(ms));
        self.events.extend(ev);
        self
    }

    /// Advances to `ms` and applies `action` there.
    pub fn at(&mut self, ms: u64, action: GslbAction) -> &mut Run {
        self.to(ms);
        match self.sim.apply_now(action, None) {
            Ok(ev) => self.events.extend(ev),
            Err(e) => panic!("{e}"),
        }
        self
    }

    /// The events of `kind` about `subject`, as (ms, event).
    pub fn of(&self, subject: &str, kind: &str) -> Vec<&Event> {
        self.events
            .iter()
            .filter(|e| e.subject == subject && e.kind == kind)
            .collect()
    }

    /// The only event of `kind` about `subject`.
    pub fn one(&self, subject: &str, kind: &str) -> &Event {
        match self.of(subject, kind).as_slice() {
            [e] => e,
            other => panic!("{} {kind} of {subject}: {other:?}", other.len()),
        }
    }

    /// The adoption story: (ms, subject, kind) of the adoption events.
    pub fn story(&self) -> Vec<(u64, String, String)> {
        self.events
            .iter()
            .filter(|e| {
                e.kind.starts_with("adoption.")
                    || e.kind.starts_with("child.")
                    || e.kind == "backup_list.sent"
            })
            .map(|e| (e.t_ms, e.subject.clone(), e.kind.clone()))
            .collect()
    }

    pub fn parent_of(&self, child: &str) -> Option<String> {
        self.sim.gslb().site(child).and_then(|c| c.current_parent)
    }
}

pub fn st(ms: u64, subject: &str, kind: &str) -> (u64, String, String) {
    (ms, subject.into(), kind.into())
}

pub fn down(site: &str) -> GslbAction {
    GslbAction::SiteDown { site: site.into() }
}

pub fn up(site: &str) -> GslbAction {
    GslbAction::SiteUp { site: site.into() }
}

pub fn cut(from: &str, to: &str, one_way: bool) -> GslbAction {
    GslbAction::MepCut {
        from: from.into(),
        to: to.into(),
        one_way,
    }
}

pub fn restore(from: &str, to: &str, one_way: bool) -> GslbAction {
    GslbAction::MepRestore {
        from: from.into(),
        to: to.into(),
        one_way,
    }
}

pub fn names(e: &Event, key: &str) -> Vec<String> {
    e.details[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
