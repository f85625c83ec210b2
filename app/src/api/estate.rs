//! The estate a scenario configures for one engine, as read-only tables (what exists before
//! the engine runs: resource locations, farm, GSLB sites, autoscale groups).

use engine::EngineId;
use leptos::prelude::*;

use crate::error::AppError;
use crate::model::EstateView;

/// The configured estate of `engine` in the loaded scenario.
#[server(endpoint = "estate", input = crate::api::codec::Form)]
pub async fn configured_estate(engine: EngineId) -> Result<EstateView, AppError> {
    use crate::auth::read_only;
    read_only(
        "estate.configured",
        engine::Role::Viewer,
        |services, _| async move { Ok(build::estate(&services.scenario, engine)) },
    )
    .await
}

#[cfg(feature = "ssr")]
mod build {
    use engine::scenario::Scenario;
    use engine::{format_duration, EngineId, SimDuration};
    use serde::Serialize;

    use crate::model::{EstateView, TableView};

    /// A serde enum's name as written in scenario files (`multi_session`, `dns`, …).
    fn name<T: Serialize>(v: &T) -> String {
        match serde_json::to_value(v) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(other) => other.to_string(),
            Err(_) => "?".to_owned(),
        }
    }

    fn table(title: &str, columns: &[&str], rows: Vec<Vec<String>>) -> TableView {
        TableView {
            title: title.to_owned(),
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows,
        }
    }

    fn fact(label: &str, d: SimDuration, source: &str) -> (String, String) {
        (
            label.to_owned(),
            format!("{} ({source})", format_duration(d)),
        )
    }

    /// Builds the view of `engine`'s section of `scenario`.
    pub fn estate(scenario: &Scenario, engine: EngineId) -> EstateView {
        let prefix = engine.as_str();
        let warnings = scenario
            .warnings()
            .into_iter()
            .filter(|w| w.path.to_string().starts_with(prefix))
            .map(|w| format!("{}: {}", w.path, w.message))
            .collect();
        let (facts, tables) = match engine {
            EngineId::Lhc => lhc(scenario),
            EngineId::Lms => lms(scenario),
            EngineId::Gslb => gslb(scenario),
            EngineId::Autoscale => autoscale(scenario),
            EngineId::Core => core(scenario),
        };
        EstateView {
            facts,
            tables,
            warnings,
        }
    }

    type Parts = (Vec<(String, String)>, Vec<TableView>);

    fn core(s: &Scenario) -> Parts {
        let rows = s
            .core
            .heartbeats
            .iter()
            .map(|h| {
                vec![
                    h.id.clone(),
                    format_duration(h.interval),
                    format_duration(h.jitter),
                ]
            })
            .collect();
        (
            Vec::new(),
            vec![table("Heartbeats", &["id", "interval", "jitter"], rows)],
        )
    }

    fn lhc(s: &Scenario) -> Parts {
        let c = &s.lhc;
        let facts = vec![
            fact("Cloud lost after", c.cloud_lost_after, "documented"),
            fact("CSS poll", c.css_poll, "documented"),
            fact("StoreFront heartbeat", c.storefront_heartbeat, "documented"),
            fact("VDA heartbeat (max)", c.vda_heartbeat_max, "documented"),
            fact("Health-check interval", c.health_check_interval, "assumed"),
            fact("Pending HA", c.pending_ha, "assumed"),
            fact("HA Initial", c.ha_initial, "assumed"),
            fact("Pending Recovery", c.pending_recovery, "assumed"),
            (
                "StoreFront AdvancedHealthCheck".to_owned(),
                if c.storefront.advanced_health_check {
                    "on"
                } else {
                    "off"
                }
                .to_owned(),
            ),
        ];
        let rls = c
            .resource_locations
            .iter()
            .map(|rl| {
                let vdas: u32 = rl.vda_pools.iter().map(|p| p.count).sum();
                let sf = rl
                    .connectors
                    .iter()
                    .filter(|c| c.storefront_configured)
                    .count();
                vec![
                    rl.id.clone(),
                    rl.name.clone(),
                    rl.connectors.len().to_string(),
                    sf.to_string(),
                    vdas.to_string(),
                ]
            })
            .collect();
        let connectors = c
            .resource_locations
            .iter()
            .flat_map(|rl| {
                rl.connectors.iter().map(|cc| {
                    vec![
                        rl.id.clone(),
                        cc.fqdn.clone(),
                        if cc.storefront_configured {
                            "yes"
                        } else {
                            "no"
                        }
                        .to_owned(),
                    ]
                })
            })
            .collect();
        let pools = c
            .resource_locations
            .iter()
            .flat_map(|rl| {
                rl.vda_pools.iter().map(|p| {
                    vec![
                        rl.id.clone(),
                        p.prefix.clone(),
                        p.count.to_string(),
                        name(&p.kind),
                        p.delivery_group.clone(),
                        p.resources.join(", "),
                    ]
                })
            })
            .collect();
        let tables = vec![
            table(
                "Resource locations",
                &["id", "name", "Cloud Connectors", "in StoreFront", "VDAs"],
                rls,
            ),
            table(
                "Cloud Connectors",
                &["resource location", "FQDN", "StoreFront-configured"],
                connectors,
            ),
            table(
                "VDA pools",
                &[
                    "resource location",
                    "prefix",
                    "VDAs",
                    "kind",
                    "delivery group",
                    "resources",
                ],
                pools,
            ),
        ];
        (facts, tables)
    }

    fn lms(s: &Scenario) -> Parts {
        let c = &s.lms;
        let facts = vec![
            ("Load index formula".to_owned(), name(&c.formula)),
            (
                "Black-hole fix".to_owned(),
                if c.black_hole_fix { "on" } else { "off" }.to_owned(),
            ),
        ];
        let zones = c
            .zones
            .iter()
            .map(|z| {
                let servers = c.servers.iter().filter(|s| s.zone == z.id).count();
                vec![z.id.clone(), z.name.clone(), servers.to_string()]
            })
            .collect();
        let servers = c
            .servers
            .iter()
            .map(|s| {
                vec![
                    s.host.clone(),
                    s.zone.clone(),
                    s.evaluator.clone(),
                    name(&s.election_preference),
                    s.apps.join(", "),
                ]
            })
            .collect();
        let evaluators = c
            .evaluators
            .iter()
            .map(|e| vec![e.name.clone(), e.rules.len().to_string()])
            .collect();
        let tables = vec![
            table("Zones", &["id", "name", "servers"], zones),
            table(
                "Servers",
                &[
                    "host",
                    "zone",
                    "evaluator",
                    "election preference",
                    "published applications",
                ],
                servers,
            ),
            table("Custom load evaluators", &["name", "rules"], evaluators),
        ];
        (facts, tables)
    }

    fn gslb(s: &Scenario) -> Parts {
        let c = &s.gslb;
        let sites = c
            .sites
            .iter()
            .map(|site| {
                vec![
                    site.name.clone(),
                    name(&site.role),
                    site.ip.to_string(),
                    site.public_ip.map(|ip| ip.to_string()).unwrap_or_default(),
                    site.parent.clone().unwrap_or_default(),
                    site.backup_parents.join(", "),
                    site.version.clone(),
                ]
            })
            .collect();
        let domains = c
            .domains
            .iter()
            .map(|d| vec![d.name.clone(), name(&d.method), d.ttl_s.to_string()])
            .collect();
        let tables = vec![
            table(
                "GSLB sites",
                &[
                    "name",
                    "role",
                    "IP",
                    "public IP",
                    "parent",
                    "backup parents",
                    "version",
                ],
                sites,
            ),
            table("GSLB domains", &["domain", "method", "TTL (s)"], domains),
        ];
        (Vec::new(), tables)
    }

    fn autoscale(s: &Scenario) -> Parts {
        let groups = s
            .autoscale
            .groups
            .iter()
            .map(|g| {
                let thresholds = g
                    .thresholds
                    .iter()
                    .map(|t| format!("{} {}–{}", name(&t.parameter), t.min, t.max))
                    .collect::<Vec<_>>()
                    .join("; ");
                vec![
                    g.name.clone(),
                    name(&g.mode),
                    g.zones.join(", "),
                    format!("{}–{}", g.min_nodes, g.max_nodes),
                    thresholds,
                    g.watch_time_min.to_string(),
                    g.cooldown_min.to_string(),
                    g.drain_timeout_min.to_string(),
                    g.ttl_s.to_string(),
                ]
            })
            .collect();
        let tables = vec![table(
            "Autoscale groups",
            &[
                "group",
                "mode",
                "availability zones",
                "nodes",
                "thresholds (min–max)",
                "watch (min)",
                "cooldown (min)",
                "drain (min)",
                "TTL (s)",
            ],
            groups,
        )];
        (Vec::new(), tables)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        const DEMO: &str = include_str!("../../../scenarios/demo.toml");

        #[test]
        fn every_engine_shows_the_demo_estate() {
            let scenario = Scenario::from_toml_str(DEMO, "demo.toml").expect("demo");
            let lhc = estate(&scenario, EngineId::Lhc);
            assert_eq!(
                lhc.tables[0].rows.len(),
                scenario.lhc.resource_locations.len()
            );
            assert!(lhc
                .facts
                .iter()
                .any(|(k, v)| k == "Pending HA" && v.ends_with("(assumed)")));
            assert!(
                lhc.warnings.iter().any(|w| w.contains("StoreFront")),
                "the demo has a resource location that is not HA-ready: {:?}",
                lhc.warnings
            );
            let lms = estate(&scenario, EngineId::Lms);
            assert_eq!(lms.tables[1].rows.len(), scenario.lms.servers.len());
            let gslb = estate(&scenario, EngineId::Gslb);
            assert_eq!(gslb.tables[0].rows.len(), scenario.gslb.sites.len());
            let autoscale = estate(&scenario, EngineId::Autoscale);
            assert!(autoscale.tables[0].rows.iter().any(|r| r[0] == "asg_arn"));
        }
    }
}
