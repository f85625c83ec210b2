//! What needs attention now, across the four engines: the overview's first card. Each item
//! says what is wrong in words, how serious it is and where to look; a steady estate has none.

use engine::attention::FlappingSubject;
use engine::autoscale::views::GroupView;
use engine::gslb::config::SiteRole;
use engine::gslb::views::TopologyView;
use engine::lhc::views::RlView;
use engine::lhc::HaState;
use engine::lms::views::FarmView;
use serde::{Deserialize, Serialize};

use crate::format::sim_time;

/// How serious an item is (the list is sorted most serious first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    /// Service is affected now (an outage, a site down, a zone without a data collector).
    Critical,
    /// Degraded or at a limit (unregistered VDAs, servers down, at the maximum nodes).
    Warning,
    /// Worth knowing (a configuration warning, an application not deployed).
    Info,
}

impl Severity {
    /// The name in CSS classes and data attributes.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Critical => "critical",
            Self::Warning => "warning",
            Self::Info => "info",
        }
    }
}

/// One thing that needs attention.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttentionItem {
    /// How serious.
    pub severity: Severity,
    /// Engine (`lhc`, `lms`, `gslb`, `autoscale`).
    pub engine: String,
    /// What it is about (a resource location, zone, site or group).
    pub subject: String,
    /// What is wrong, in words.
    pub text: String,
    /// The page to look at.
    pub href: String,
}

fn item(
    severity: Severity,
    engine: &str,
    subject: &str,
    text: String,
    href: String,
) -> AttentionItem {
    AttentionItem {
        severity,
        engine: engine.to_owned(),
        subject: subject.to_owned(),
        text,
        href,
    }
}

/// Resource locations out of Working Normally, with VDAs unregistered, or with a warning.
pub fn resource_locations(rls: &[RlView]) -> Vec<AttentionItem> {
    let mut items = Vec::new();
    for rl in rls {
        let href = format!("/lhc/{}", rl.id);
        let severity = match rl.ha_state {
            HaState::WorkingNormally => None,
            HaState::HaInitial | HaState::ExtendedHa => Some(Severity::Critical),
            HaState::PendingHa | HaState::PendingRecovery => Some(Severity::Warning),
        };
        if let Some(severity) = severity {
            let broker = rl.elected.as_deref().map_or_else(
                || "no secondary broker elected".to_owned(),
                |b| format!("secondary broker {b}"),
            );
            items.push(item(
                severity,
                "lhc",
                &rl.id,
                format!(
                    "{} in {} since {} ({broker})",
                    rl.name,
                    rl.ha_state.label(),
                    sim_time(rl.ha_state_since_ms)
                ),
                href.clone(),
            ));
        }
        if rl.unregistered > 0 {
            items.push(item(
                Severity::Warning,
                "lhc",
                &rl.id,
                format!(
                    "{}: {} of {} VDAs unregistered",
                    rl.name, rl.unregistered, rl.vdas_total
                ),
                href.clone(),
            ));
        }
        for w in &rl.warnings {
            items.push(item(
                Severity::Info,
                "lhc",
                &rl.id,
                format!("{}: {}", rl.name, w.message),
                href.clone(),
            ));
        }
    }
    items
}

/// Zones without a data collector or with servers down.
pub fn farm(farm: &FarmView) -> Vec<AttentionItem> {
    let mut items = Vec::new();
    for z in &farm.zones {
        if z.collector.is_none() {
            items.push(item(
                Severity::Critical,
                "lms",
                &z.id,
                format!(
                    "Zone {} has no data collector: no launch can be placed there",
                    z.name
                ),
                "/lms".to_owned(),
            ));
        }
        if z.servers_up < z.servers {
            items.push(item(
                Severity::Warning,
                "lms",
                &z.id,
                format!(
                    "Zone {}: {} of {} servers not up",
                    z.name,
                    z.servers - z.servers_up,
                    z.servers
                ),
                "/lms".to_owned(),
            ));
        }
    }
    items
}

/// Sites down, children without a parent, children away from their configured parent.
pub fn gslb(topology: &TopologyView) -> Vec<AttentionItem> {
    let mut items = Vec::new();
    for s in &topology.sites {
        let href = format!("/gslb/sites/{}", s.name);
        if !s.up {
            items.push(item(
                Severity::Critical,
                "gslb",
                &s.name,
                format!("GSLB site {} is down", s.name),
                href.clone(),
            ));
            continue;
        }
        if s.role != SiteRole::Child {
            continue;
        }
        match (&s.current_parent, &s.configured_parent) {
            (None, _) => items.push(item(
                Severity::Critical,
                "gslb",
                &s.name,
                format!(
                    "Child {} has no parent (orphaned): its services are not advertised",
                    s.name
                ),
                href,
            )),
            (Some(now), Some(configured)) if now != configured => items.push(item(
                Severity::Warning,
                "gslb",
                &s.name,
                format!(
                    "Child {} is adopted by {now}, not its configured parent {configured}",
                    s.name
                ),
                href,
            )),
            _ => {}
        }
    }
    items
}

/// Clusters at their maximum nodes, applications not deployed.
pub fn autoscale(groups: &[GroupView]) -> Vec<AttentionItem> {
    let mut items = Vec::new();
    for g in groups {
        let href = format!("/autoscale/{}", g.name);
        if !g.deployed {
            items.push(item(
                Severity::Info,
                "autoscale",
                &g.name,
                format!("Autoscale group {}: application not deployed", g.name),
                href.clone(),
            ));
            continue;
        }
        let max = g.params.max_nodes;
        for c in g.zones.iter().filter(|c| c.nodes_in_service >= max) {
            items.push(item(
                Severity::Warning,
                "autoscale",
                &g.name,
                format!(
                    "Autoscale group {} in {}: at its maximum of {max} nodes, it cannot scale out",
                    g.name, c.zone
                ),
                href.clone(),
            ));
        }
    }
    items
}

/// Subjects flapping now (flap detection, `[attention]` of the scenario).
pub fn flapping(subjects: &[FlappingSubject]) -> Vec<AttentionItem> {
    subjects
        .iter()
        .map(|s| {
            let (what, href) = match s.kind.as_str() {
                "resource_location" => ("Resource location", format!("/lhc/{}", s.name)),
                "connector" => ("Cloud Connector", "/lhc".to_owned()),
                "zone" => ("Zone data collector of", "/lms".to_owned()),
                "site" => ("GSLB site", format!("/gslb/sites/{}", s.name)),
                "child" => ("GSLB child", format!("/gslb/sites/{}", s.name)),
                "mep_link" => ("MEP link", "/gslb".to_owned()),
                _ => {
                    let group = s.name.split('/').next().unwrap_or_default();
                    ("Autoscale cluster", format!("/autoscale/{group}"))
                }
            };
            item(
                Severity::Warning,
                s.engine.as_str(),
                &s.name,
                format!(
                    "{what} {} is flapping: {} state changes in its window ({} % weighted); now {}",
                    s.name, s.changes, s.percent, s.state
                ),
                href,
            )
        })
        .collect()
}

/// Every item of the four engines' states and of flap detection, most serious first
/// ([`sorted`]).
pub fn all(
    rls: &[RlView],
    farm_view: &FarmView,
    topology: &TopologyView,
    groups: &[GroupView],
    flapping_now: &[FlappingSubject],
) -> Vec<AttentionItem> {
    let mut items = resource_locations(rls);
    items.extend(farm(farm_view));
    items.extend(gslb(topology));
    items.extend(autoscale(groups));
    items.extend(flapping(flapping_now));
    sorted(items)
}

/// The alerts firing on the live run (rules an admin defined), each linking to the alerts
/// page; an acknowledged one says by whom.
pub fn alerts(firing: &[crate::model::alerts::AlertView]) -> Vec<AttentionItem> {
    firing
        .iter()
        .map(|a| {
            let severity = match a.severity.as_str() {
                "critical" => Severity::Critical,
                "warning" => Severity::Warning,
                _ => Severity::Info,
            };
            let acked = a
                .acked_by
                .as_ref()
                .map(|who| format!(" (acknowledged by {who})"))
                .unwrap_or_default();
            item(
                severity,
                "alert",
                &a.subject,
                format!("Alert {}: {}{acked}", a.rule, a.text),
                "/alerts".to_owned(),
            )
        })
        .collect()
}

/// Every item, most serious first (then by engine and subject, so the order is stable).
pub fn sorted(mut items: Vec<AttentionItem>) -> Vec<AttentionItem> {
    items.sort_by(|a, b| {
        (a.severity, &a.engine, &a.subject, &a.text)
            .cmp(&(b.severity, &b.engine, &b.subject, &b.text))
    });
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(severity: Severity, engine: &str, subject: &str) -> AttentionItem {
        item(severity, engine, subject, String::new(), String::new())
    }

    #[test]
    fn each_flapping_subject_is_a_warning_naming_it_with_a_link_to_its_page() {
        let subject = |engine, kind: &str, name: &str| FlappingSubject {
            engine,
            kind: kind.to_owned(),
            name: name.to_owned(),
            changes: 6,
            percent: 41.5,
            state: "Extended HA".to_owned(),
        };
        use engine::EngineId::{Autoscale, Gslb, Lhc, Lms};
        let cases = [
            (
                subject(Lhc, "resource_location", "paris"),
                "lhc",
                "/lhc/paris",
                "Resource location paris is flapping",
            ),
            (
                subject(Lhc, "connector", "cc1.example.com"),
                "lhc",
                "/lhc",
                "Cloud Connector cc1.example.com is flapping",
            ),
            (
                subject(Lms, "zone", "z1"),
                "lms",
                "/lms",
                "Zone data collector of z1 is flapping",
            ),
            (
                subject(Gslb, "mep_link", "P1-P2"),
                "gslb",
                "/gslb",
                "MEP link P1-P2 is flapping",
            ),
            (
                subject(Gslb, "child", "C1"),
                "gslb",
                "/gslb/sites/C1",
                "GSLB child C1 is flapping",
            ),
            (
                subject(Autoscale, "cluster", "web/a"),
                "autoscale",
                "/autoscale/web",
                "Autoscale cluster web/a is flapping",
            ),
        ];
        for (s, engine, href, start) in cases {
            let items = flapping(std::slice::from_ref(&s));
            assert_eq!(items.len(), 1);
            let i = &items[0];
            assert_eq!(
                (i.severity, i.engine.as_str(), i.href.as_str()),
                (Severity::Warning, engine, href)
            );
            assert!(i.text.starts_with(start), "{}", i.text);
            assert!(
                i.text
                    .ends_with("6 state changes in its window (41.5 % weighted); now Extended HA"),
                "{}",
                i.text
            );
        }
    }

    #[test]
    fn the_most_serious_come_first_in_a_stable_order() {
        let items = vec![
            at(Severity::Info, "lhc", "a"),
            at(Severity::Warning, "lms", "z"),
            at(Severity::Critical, "gslb", "s"),
            at(Severity::Warning, "lhc", "b"),
            at(Severity::Critical, "gslb", "a"),
        ];
        let order: Vec<(Severity, String)> = sorted(items)
            .into_iter()
            .map(|i| (i.severity, i.subject))
            .collect();
        assert_eq!(
            order,
            vec![
                (Severity::Critical, "a".into()),
                (Severity::Critical, "s".into()),
                (Severity::Warning, "b".into()),
                (Severity::Warning, "z".into()),
                (Severity::Info, "a".into()),
            ]
        );
    }
}
