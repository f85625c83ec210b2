//! LHC engine: configuration sync (CSS / LocalDB), pooled desktops in HA mode, action
//! validation, the query API, StoreFront's view.

mod common;

use common::lhc::{act, at, connector, estate, force, of, parse, rl, secs};
use engine::lhc::config::VdaKind;
use engine::lhc::{Broker, BrokerFilter, Power, VdaQuery, VdaSort};
use engine::{parse_actions, ActionError, Component, LhcAction, SimTime, Simulation};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const CC01: &str = "CC01.paris.example.com";
const CC02: &str = "cc02.paris.example.com";

#[test]
fn a_config_change_replaces_localdb_only_after_a_successful_import() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let _ = sim.advance_to(secs(100));
    // cc02's CSS is down: it cannot import.
    let _ = act(
        &mut sim,
        LhcAction::ConnectorFail {
            connector: CC02.into(),
            component: Some(Component::Css),
        },
    );
    let changed = act(
        &mut sim,
        LhcAction::ConfigChange {
            description: Some("new delivery group".into()),
        },
    );
    assert_eq!(
        of(&changed, "cloud", "config.changed")[0].details["generation"],
        2
    );
    let events = sim.advance_to(secs(200));
    let started = of(&events, CC01, "localdb.import_started");
    let replaced = of(&events, CC01, "localdb.replaced");
    assert_eq!(started.len(), 1);
    assert!(
        started[0].t_ms > 100_000 && started[0].t_ms <= 160_000,
        "next poll"
    );
    assert_eq!(replaced[0].t_ms, started[0].t_ms + 30_000, "localdb_import");
    let view = connector(&sim, CC01).localdb;
    assert_eq!(
        (view.generation, view.last_sync_ms, view.importing),
        (2, replaced[0].t_ms, None)
    );
    assert!(of(&events, CC02, "localdb.import_started").is_empty());
    assert_eq!(connector(&sim, CC02).localdb.generation, 1);
    // cc02 recovers and syncs; then cc01 loses its link in the middle of an import: it fails
    // and keeps its generation.
    let _ = act(
        &mut sim,
        LhcAction::ConnectorRecover {
            connector: CC02.into(),
            component: Some(Component::Css),
        },
    );
    let _ = act(&mut sim, LhcAction::ConfigChange { description: None });
    let mut log = Vec::new();
    while connector(&sim, CC01).localdb.importing.is_none() {
        log.extend(sim.step_to_next());
    }
    let cut = act(
        &mut sim,
        LhcAction::CloudLink {
            resource_location: "paris".into(),
            connector: Some(CC01.into()),
            up: false,
        },
    );
    let failed = of(&cut, CC01, "localdb.import_failed");
    assert_eq!(failed[0].details["generation"], 3);
    assert_eq!(failed[0].details["kept_generation"], 2);
    assert_eq!(
        failed[0].details["reason"],
        "import interrupted: cloud link down"
    );
    log.extend(sim.advance_to(secs(400)));
    assert!(of(&log, CC01, "localdb.replaced")
        .iter()
        .all(|e| e.details["generation"] == 2));
    let cc01 = connector(&sim, CC01);
    assert_eq!(
        (cc01.localdb.generation, cc01.localdb.cloud_generation),
        (2, 3)
    );
    assert_eq!(connector(&sim, CC02).localdb.generation, 3);
    // Link back: the next poll imports generation 3.
    let _ = act(
        &mut sim,
        LhcAction::CloudLink {
            resource_location: "paris".into(),
            connector: Some(CC01.into()),
            up: true,
        },
    );
    let _ = sim.advance_to(secs(600));
    assert_eq!(connector(&sim, CC01).localdb.generation, 3);
    Ok(())
}

#[test]
fn pooled_desktops_go_into_maintenance_at_logoff_in_ha_mode() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    // Normal operation: the image is reset.
    let normal = act(
        &mut sim,
        LhcAction::VdaLogoff {
            vda: "par-vdi-001".into(),
        },
    );
    let normal = of(&normal, "PAR-VDI-001", "vda.logoff");
    assert_eq!(normal[0].details["outcome"], "reset");
    let _ = act(&mut sim, force("paris"));
    let _ = act(&mut sim, force("tokyo"));
    let _ = sim.advance_to(SimTime::from_mins(10));
    let ha = act(
        &mut sim,
        LhcAction::VdaLogoff {
            vda: "PAR-VDI-002".into(),
        },
    );
    assert_eq!(ha[0].details["outcome"], "maintenance");
    assert_eq!(ha[0].details["sessions_ended"], 1);
    let row = sim.lhc().vda("PAR-VDI-002");
    assert!(row.is_some_and(|r| r.maintenance && r.sessions == 0));
    // The delivery group of Tokyo's pooled desktops allows the reset in HA mode.
    let reset = act(
        &mut sim,
        LhcAction::VdaLogoff {
            vda: "TYO-VDI-001".into(),
        },
    );
    assert_eq!(reset[0].details["outcome"], "reset");
    assert!(reset[0].details["reason"]
        .as_str()
        .is_some_and(|r| r.contains("pooled_reset_in_ha")));
    // Multi-session: just sessions ending.
    let multi = sim.lhc().vdas(&VdaQuery {
        kind: Some(VdaKind::MultiSession),
        in_use: Some(true),
        resource_location: Some("paris".into()),
        ..Default::default()
    });
    let name = multi.rows[0].name.clone();
    let ms = act(&mut sim, LhcAction::VdaLogoff { vda: name });
    assert_eq!(ms[0].details["outcome"], "logged_off");
    // Maintenance can be turned off by an operator; a second logoff is refused.
    let _ = act(
        &mut sim,
        LhcAction::VdaMaintenance {
            vda: "PAR-VDI-002".into(),
            enabled: false,
        },
    );
    assert_eq!(
        sim.apply_now(
            LhcAction::VdaLogoff {
                vda: "PAR-VDI-002".into()
            },
            None
        ),
        Err(ActionError::NoChange(
            "VDA PAR-VDI-002 has no session".into()
        ))
    );
    sim.lhc().consistency_check()?;
    Ok(())
}

#[test]
fn actions_are_checked_against_the_scenario_and_the_state() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let bad = parse_actions(
        "[[actions]]\nat = \"1m\"\nkind = \"force_outage\"\nresource_location = \"paris\"\nconnector = \"cc01.tokyo.example.com\"\n",
        "a.toml",
        &s,
    )
    .map_err(|e| e.to_string());
    assert_eq!(
        bad,
        Err("a.toml:5:13: actions[0].connector: connector \"cc01.tokyo.example.com\" is not in resource location \"paris\" (it is in \"tokyo\")".into())
    );
    let unknown = parse_actions(
        "[[actions]]\nat = \"1m\"\nkind = \"clear_outage\"\nresource_location = \"lyon\"\n",
        "a.toml",
        &s,
    )
    .map_err(|e| e.to_string());
    assert_eq!(
        unknown,
        Err("a.toml:4:21: actions[0].resource_location: unknown resource location \"lyon\" (known: paris, tokyo)".into())
    );
    let component = parse_actions(
        "[[actions]]\nat = \"1m\"\nkind = \"connector_fail\"\nconnector = \"cc01.paris.example.com\"\ncomponent = \"dns\"\n",
        "a.toml",
        &s,
    );
    assert!(component.is_err_and(|e| e.field == "actions[0].component"));
    let ok = parse_actions(
        "[[actions]]\nat = \"1m\"\nkind = \"connector_fail\"\nconnector = \"CC01.PARIS.example.com\"\ncomponent = \"ha_service\"\n\n[[actions]]\nat = \"2m\"\nkind = \"test_launch\"\nresource = \"Kaikei\"\n",
        "a.toml",
        &s,
    )?;
    assert_eq!(ok.len(), 2);
    let mut sim = Simulation::new(&s, s.seed());
    let _ = act(&mut sim, force("paris"));
    let again = sim
        .apply_now(force("paris"), None)
        .map_err(|e| e.to_string());
    assert_eq!(
        again,
        Err("outage already forced on cc02.paris.example.com, CC01.paris.example.com, cc03.paris.example.com".into())
    );
    let restart = LhcAction::ConnectorRestart {
        connector: "cc9.paris".into(),
    };
    assert!(matches!(
        sim.apply_now(restart, None),
        Err(ActionError::UnknownConnector { .. })
    ));
    // A rejected timeline action becomes `action.rejected` and the run goes on.
    sim.schedule(vec![at(SimTime::from_mins(1), force("paris"))]);
    let events = sim.advance_to(SimTime::from_mins(2));
    let rejected = events.iter().find(|e| e.kind == "action.rejected");
    assert!(rejected.is_some_and(
        |e| e.engine == engine::EngineId::Lhc && e.details["action"] == "force_outage"
    ));
    Ok(())
}

#[test]
fn the_vda_listing_filters_and_pages() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let all = sim.lhc().vdas(&VdaQuery {
        limit: 7,
        offset: 5,
        ..Default::default()
    });
    assert_eq!((all.total, all.rows.len(), all.limit), (140, 7, 7));
    assert_eq!(all.rows[0].name, "PAR-MS-006");
    assert_eq!(all.rows[0].broker, Broker::Cloud);
    let tail = sim.lhc().vdas(&VdaQuery {
        offset: 135,
        limit: 5000,
        ..Default::default()
    });
    assert_eq!((tail.rows.len(), tail.limit), (5, 1000));
    assert_eq!(tail.rows[4].name, "TYO-VDI-010");
    let named = sim.lhc().vdas(&VdaQuery {
        name_prefix: Some("tyo-ms-01".into()),
        ..Default::default()
    });
    assert_eq!(named.total, 10);
    let _ = act(&mut sim, force("paris"));
    let _ = sim.advance_to(secs(200));
    let paris = rl(&sim, "paris");
    let moving = sim.lhc().vdas(&VdaQuery {
        broker: Some(BrokerFilter::Cloud),
        resource_location: Some("paris".into()),
        limit: 1000,
        ..Default::default()
    });
    assert_eq!(moving.total as u32, paris.on_cloud);
    assert!(moving.rows.iter().all(|r| r.moves_at_next_heartbeat));
    let on_cc01 = sim.lhc().vdas(&VdaQuery {
        broker: Some(BrokerFilter::Secondary {
            fqdn: Some("cc01.paris.EXAMPLE.com".into()),
        }),
        ..Default::default()
    });
    assert_eq!(on_cc01.total as u32, paris.on_secondary);
    assert_eq!(paris.reregistering, paris.on_cloud);
    assert_eq!(paris.next_broker, CC01);
    let maintenance = sim.lhc().vdas(&VdaQuery {
        maintenance: Some(true),
        ..Default::default()
    });
    assert_eq!(maintenance.total, 0);
    let unknown = sim.lhc().vdas(&VdaQuery {
        resource_location: Some("nowhere".into()),
        ..Default::default()
    });
    assert_eq!(unknown.total, 0);
    // Views serialize for the console.
    let json = serde_json::to_string(&sim.lhc().resource_locations())?;
    assert!(json.contains("\"ha_state\":\"ha_initial\""));
    let connectors = serde_json::to_value(sim.lhc().connectors())?;
    assert_eq!(connectors[0]["power"], serde_json::json!({"status": "up"}));
    assert_eq!(connectors[1]["elected"], true);
    assert_eq!(connectors[1]["election_rank"], 1);
    Ok(())
}

#[test]
fn storefront_notices_a_dead_connector_at_its_next_heartbeat() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let _ = sim.advance_to(secs(30));
    let _ = act(
        &mut sim,
        LhcAction::ConnectorFail {
            connector: CC01.into(),
            component: None,
        },
    );
    assert_eq!(connector(&sim, CC01).power, Power::Down);
    assert_eq!(
        connector(&sim, CC01).storefront_healthy,
        Some(true),
        "not yet noticed"
    );
    let next = sim.lhc().storefront().next_heartbeat_ms;
    assert!(next.is_some_and(|t| t > 30_000 && t <= 90_000));
    let events = sim.advance_to(secs(91));
    let health = of(&events, CC01, "storefront.health");
    assert_eq!(health.len(), 1);
    assert_eq!(Some(health[0].t_ms), next);
    assert_eq!(connector(&sim, CC01).storefront_healthy, Some(false));
    let sf = sim.lhc().storefront();
    assert_eq!(
        (sf.configured_connectors, sf.healthy_connectors.len()),
        (4, 3)
    );
    assert!(sf.next_heartbeat_ms.is_none(), "nothing to notice any more");
    // ADC: the member is DOWN, the VIP still UP.
    let adc = of(&events, CC01, "adc.monitor");
    assert!(adc.is_empty(), "the monitor changed with the action itself");
    assert!(!connector(&sim, CC01).adc_monitor_up && rl(&sim, "paris").adc_vip_up);
    Ok(())
}

#[test]
fn the_demo_scenario_emits_its_lhc_start_events() -> TestResult {
    let s =
        engine::Scenario::from_toml_str(include_str!("../../scenarios/demo.toml"), "demo.toml")?;
    let mut sim = Simulation::new(&s, s.seed());
    let events = sim.advance_to(SimTime::from_mins(1));
    let lhc: Vec<(&str, &str)> = events
        .iter()
        .filter(|e| e.engine == engine::EngineId::Lhc)
        .map(|e| (e.subject.as_str(), e.kind.as_str()))
        .collect();
    assert_eq!(
        lhc,
        [
            ("rl-paris", "election"),
            ("rl-paris", "registrations"),
            ("rl-tokyo", "rl.warning"),
            ("rl-tokyo", "election"),
            ("rl-tokyo", "registrations"),
        ]
    );
    assert_eq!(sim.lhc().resource_locations().len(), 2);
    assert_eq!(sim.lhc().connectors().len(), 5);
    assert_eq!(
        engine::Engine::next_wakeup(sim.lhc()),
        None,
        "idle until an action"
    );
    Ok(())
}

#[test]
fn the_vda_listing_sorts_by_each_column_and_pages_in_that_order() -> TestResult {
    let s = parse(&estate(true, true, ""))?;
    let mut sim = Simulation::new(&s, s.seed());
    let _ = act(&mut sim, force("paris"));
    let _ = sim.advance_to(secs(200));
    let sorts = [
        VdaSort::Name,
        VdaSort::Kind,
        VdaSort::DeliveryGroup,
        VdaSort::Broker,
        VdaSort::Sessions,
        VdaSort::Maintenance,
        VdaSort::HeartbeatPhase,
    ];
    for sort in sorts {
        for descending in [false, true] {
            let names = |offset: usize, limit: usize| -> Vec<String> {
                let q = VdaQuery {
                    sort,
                    descending,
                    offset,
                    limit,
                    ..Default::default()
                };
                sim.lhc()
                    .vdas(&q)
                    .rows
                    .into_iter()
                    .map(|r| r.name)
                    .collect()
            };
            let whole = names(0, 1000);
            assert_eq!(whole.len(), 140, "{sort:?}");
            for (offset, limit) in [(0, 7), (5, 7), (133, 10), (139, 1), (140, 5)] {
                let (from, to) = (offset.min(140), (offset + limit).min(140));
                assert_eq!(
                    names(offset, limit),
                    whole[from..to],
                    "{sort:?} descending={descending} offset={offset} limit={limit}"
                );
            }
        }
    }
    let listed = |sort, descending| {
        let q = VdaQuery {
            sort,
            descending,
            limit: 1000,
            ..Default::default()
        };
        sim.lhc().vdas(&q).rows
    };
    let by_name: Vec<String> = listed(VdaSort::Name, false)
        .into_iter()
        .map(|r| r.name)
        .collect();
    let mut reversed: Vec<String> = listed(VdaSort::Name, true)
        .into_iter()
        .map(|r| r.name)
        .collect();
    reversed.reverse();
    assert_eq!(by_name, reversed);
    // During Paris's outage: the VDAs not registered first, then those on the secondary
    // broker, then those still on the cloud; name order within each.
    let rank = |b: &Broker| match b {
        Broker::Unregistered => 0,
        Broker::Secondary { .. } => 1,
        Broker::Cloud => 2,
    };
    let by_broker = listed(VdaSort::Broker, false);
    let ranks: Vec<u8> = by_broker.iter().map(|r| rank(&r.broker)).collect();
    assert!(ranks.is_sorted(), "{ranks:?}");
    assert!(ranks.contains(&1) && ranks.contains(&2), "{ranks:?}");
    let sessions: Vec<u16> = listed(VdaSort::Sessions, true)
        .iter()
        .map(|r| r.sessions)
        .collect();
    assert!(sessions.is_sorted_by(|a, b| a >= b), "{sessions:?}");
    // The kinds and delivery groups by their names as shown, either way.
    for descending in [false, true] {
        let kinds: Vec<String> = listed(VdaSort::Kind, descending)
            .iter()
            .map(|r| serde_json::to_string(&r.kind).unwrap_or_default())
            .collect();
        let groups: Vec<String> = listed(VdaSort::DeliveryGroup, descending)
            .into_iter()
            .map(|r| r.delivery_group)
            .collect();
        for column in [&kinds, &groups] {
            let mut sorted = column.clone();
            sorted.sort();
            if descending {
                sorted.reverse();
            }
            assert_eq!(*column, sorted, "descending={descending}");
        }
    }
    let kinds = listed(VdaSort::Kind, false);
    assert_ne!(kinds.first().map(|r| r.kind), kinds.last().map(|r| r.kind));
    let groups = listed(VdaSort::DeliveryGroup, false);
    assert_ne!(
        groups.first().map(|r| &r.delivery_group),
        groups.last().map(|r| &r.delivery_group)
    );
    Ok(())
}
