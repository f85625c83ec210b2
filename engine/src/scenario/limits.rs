//! Hard limits on the size of a scenario, checked before any section is validated and
//! before an engine allocates anything, so that the largest scenario accepted still runs in
//! the memory of one machine (docs/SCENARIOS.md, "Limits", gives the figures they were
//! chosen from). Each refusal is `file:line: field: at most N …`, pointing at the first
//! element past the limit.

use crate::action::{Action, TimedAction};
use crate::lms::LmsAction;
use crate::scenario::error::{ConfigError, FieldPath};
use crate::scenario::Scenario;

/// `[[lhc.resource_locations]]`.
pub const MAX_RESOURCE_LOCATIONS: usize = 10_000;
/// Cloud Connectors in one resource location.
pub const MAX_CONNECTORS_PER_LOCATION: usize = 64;
/// VDA pools in one resource location.
pub const MAX_POOLS_PER_LOCATION: usize = 1_000;
/// VDA pools in the estate.
pub const MAX_VDA_POOLS: usize = 100_000;
/// VDAs in the estate (the sum of the pools' `count`).
pub const MAX_VDAS: u64 = 2_000_000;
/// `[[lhc.delivery_groups]]`.
pub const MAX_DELIVERY_GROUPS: usize = 10_000;
/// `[[lms.servers]]`.
pub const MAX_LMS_SERVERS: usize = 20_000;
/// `[[lms.zones]]`.
pub const MAX_LMS_ZONES: usize = 1_000;
/// `[[lms.evaluators]]`.
pub const MAX_EVALUATORS: usize = 1_000;
/// `[[lms.applications]]`.
pub const MAX_APPLICATIONS: usize = 10_000;
// `[[gslb.sites]]`: at most 32 parents and 1,024 children, checked by the GSLB section
// itself (`gslb::config`), whose refusal says which of the two is over.
/// `[[gslb.domains]]`.
pub const MAX_GSLB_DOMAINS: usize = 10_000;
/// `[[gslb.client_locations]]`.
pub const MAX_CLIENT_LOCATIONS: usize = 10_000;
/// `[[autoscale.groups]]`.
pub const MAX_AUTOSCALE_GROUPS: usize = 500;
/// Zones of one autoscale group (cloud regions offer 3 to 6 availability zones). Each zone
/// is a cluster with its own minute-by-minute history: 500 groups of 64 zones held 5.3 GB
/// after one simulated day, 500 of 8 stay well inside one machine (docs/PERFORMANCE.md).
pub const MAX_ZONES_PER_GROUP: usize = 8;
/// `[[core.heartbeats]]`.
pub const MAX_HEARTBEATS: usize = 1_000;
/// `[[actions]]` of a scenario or of an actions file.
pub const MAX_ACTIONS: usize = 100_000;
/// Users of every `logon_storm` action of a timeline together.
pub const MAX_STORM_USERS: u64 = 2_000_000;
/// Simulated days a run may be asked to cover (`simulate --until`).
pub const MAX_SIMULATED_DAYS: u64 = 400;

/// Refuses a list longer than `max`, pointing at its first element past it.
fn at_most<T>(list: &[T], max: usize, path: FieldPath, what: &str) -> Result<(), ConfigError> {
    if list.len() > max {
        return Err(ConfigError::new(
            path.index(max),
            format!("at most {max} {what} (got {})", list.len()),
        ));
    }
    Ok(())
}

/// Checks every size limit of `scenario`'s sections (the timeline: [`check_actions`]).
pub fn check(scenario: &Scenario) -> Result<(), ConfigError> {
    let core = FieldPath::root("core");
    at_most(
        &scenario.core.heartbeats,
        MAX_HEARTBEATS,
        core.key("heartbeats"),
        "heartbeats",
    )?;

    let lhc = FieldPath::root("lhc");
    let locations = &scenario.lhc.resource_locations;
    at_most(
        locations,
        MAX_RESOURCE_LOCATIONS,
        lhc.key("resource_locations"),
        "resource locations",
    )?;
    at_most(
        &scenario.lhc.delivery_groups,
        MAX_DELIVERY_GROUPS,
        lhc.key("delivery_groups"),
        "delivery groups",
    )?;
    let (mut pools, mut vdas) = (0usize, 0u64);
    for (i, rl) in locations.iter().enumerate() {
        let path = lhc.key("resource_locations").index(i);
        at_most(
            &rl.connectors,
            MAX_CONNECTORS_PER_LOCATION,
            path.key("connectors"),
            "Cloud Connectors in a resource location",
        )?;
        at_most(
            &rl.vda_pools,
            MAX_POOLS_PER_LOCATION,
            path.key("vda_pools"),
            "VDA pools in a resource location",
        )?;
        for (j, pool) in rl.vda_pools.iter().enumerate() {
            pools += 1;
            vdas += u64::from(pool.count);
            let pool_path = path.key("vda_pools").index(j);
            if pools > MAX_VDA_POOLS {
                return Err(ConfigError::new(
                    pool_path,
                    format!("at most {MAX_VDA_POOLS} VDA pools in the estate"),
                ));
            }
            if vdas > MAX_VDAS {
                return Err(ConfigError::new(
                    pool_path.key("count"),
                    format!(
                        "at most {MAX_VDAS} VDAs in the estate (this pool brings them to {vdas})"
                    ),
                ));
            }
        }
    }

    let lms = FieldPath::root("lms");
    at_most(
        &scenario.lms.servers,
        MAX_LMS_SERVERS,
        lms.key("servers"),
        "servers",
    )?;
    at_most(
        &scenario.lms.zones,
        MAX_LMS_ZONES,
        lms.key("zones"),
        "zones",
    )?;
    at_most(
        &scenario.lms.evaluators,
        MAX_EVALUATORS,
        lms.key("evaluators"),
        "load evaluators",
    )?;
    at_most(
        &scenario.lms.applications,
        MAX_APPLICATIONS,
        lms.key("applications"),
        "applications",
    )?;

    let gslb = FieldPath::root("gslb");
    at_most(
        &scenario.gslb.domains,
        MAX_GSLB_DOMAINS,
        gslb.key("domains"),
        "GSLB domains",
    )?;
    at_most(
        &scenario.gslb.client_locations,
        MAX_CLIENT_LOCATIONS,
        gslb.key("client_locations"),
        "client locations",
    )?;

    let autoscale = FieldPath::root("autoscale");
    at_most(
        &scenario.autoscale.groups,
        MAX_AUTOSCALE_GROUPS,
        autoscale.key("groups"),
        "autoscale groups",
    )?;
    for (i, group) in scenario.autoscale.groups.iter().enumerate() {
        at_most(
            &group.zones,
            MAX_ZONES_PER_GROUP,
            autoscale.key("groups").index(i).key("zones"),
            "zones in an autoscale group",
        )?;
    }
    Ok(())
}

/// Checks the size of a timeline: at most [`MAX_ACTIONS`] actions and [`MAX_STORM_USERS`]
/// users in its logon storms together.
pub fn check_actions(actions: &[TimedAction]) -> Result<(), ConfigError> {
    let path = FieldPath::root("actions");
    at_most(actions, MAX_ACTIONS, path.clone(), "actions")?;
    let mut users = 0u64;
    for (i, timed) in actions.iter().enumerate() {
        if let Action::Lms(LmsAction::LogonStorm { users: n, .. }) = &timed.action {
            users += u64::from(*n);
            if users > MAX_STORM_USERS {
                return Err(ConfigError::new(
                    path.index(i).key("users"),
                    format!(
                        "at most {MAX_STORM_USERS} users in all the logon storms together (this one brings them to {users})"
                    ),
                ));
            }
        }
    }
    Ok(())
}
