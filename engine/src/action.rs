//! Operator actions and injected faults: what an operator does from the console, or what a
//! scenario's `[[actions]]` timeline does at a given time.
//!
//! In files and JSON an action is one table: `at` (a duration since the start), optional
//! `actor`, `kind`, then the kind's own fields:
//!
//! ```toml
//! [[actions]]
//! at = "10m"
//! actor = "alice"
//! kind = "heartbeat_interval"
//! heartbeat = "hb-fast"
//! interval = "30s"
//! ```

use serde::{Deserialize, Serialize};

use core::net::Ipv4Addr;

use crate::clock::{SimDuration, SimTime};
use crate::event::EngineId;
use crate::scenario::autoscale::{DistributionMode, GroupParams};
use crate::scenario::lms::LoadFormula;
use crate::scenario::lms_rules::Rule;

/// One operator action or injected fault. Serialized with a `kind` tag in snake_case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Writes a free-text note into the event log (`operator.note`).
    Note {
        /// The note.
        text: String,
    },
    /// Stops a heartbeat until it is resumed.
    HeartbeatPause {
        /// Id of the heartbeat (`core.heartbeats[].id`).
        heartbeat: String,
    },
    /// Restarts a paused heartbeat; its next beat is one interval (± jitter) later.
    HeartbeatResume {
        /// Id of the heartbeat.
        heartbeat: String,
    },
    /// Changes a heartbeat's interval; the next beat is rescheduled from now.
    HeartbeatInterval {
        /// Id of the heartbeat.
        heartbeat: String,
        /// The new interval (at least 1s, and longer than the heartbeat's jitter).
        interval: SimDuration,
    },
    /// Sets `OutageModeForced = 1` on one connector of a resource location, or on all of them
    /// when `connector` is left out (the console's "force outage on this resource location").
    ForceOutage {
        /// Id of the resource location (`lhc.resource_locations[].id`).
        resource_location: String,
        /// FQDN of one of its connectors (case-insensitive); all connectors when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connector: Option<String>,
    },
    /// Sets `OutageModeForced` back to 0, on one connector or on all connectors of the RL.
    ClearOutage {
        /// Id of the resource location.
        resource_location: String,
        /// FQDN of one of its connectors; all connectors when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connector: Option<String>,
    },
    /// Cuts or restores the link between connectors and the cloud broker.
    CloudLink {
        /// Id of the resource location.
        resource_location: String,
        /// FQDN of one of its connectors; all connectors when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connector: Option<String>,
        /// `true` restores the link, `false` cuts it.
        up: bool,
    },
    /// Restarts a connector: it is down for `lhc.connector_restart`, then comes back with every
    /// component healthy.
    ConnectorRestart {
        /// FQDN of the connector.
        connector: String,
    },
    /// Fails one component of a connector, or the whole connector (down) when `component` is
    /// left out.
    ConnectorFail {
        /// FQDN of the connector.
        connector: String,
        /// The component; the whole connector when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        component: Option<Component>,
    },
    /// Repairs one component of a connector, or brings the whole connector back up with every
    /// component healthy when `component` is left out.
    ConnectorRecover {
        /// FQDN of the connector.
        connector: String,
        /// The component; the whole connector when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        component: Option<Component>,
    },
    /// A test launch of a published resource through StoreFront (`launch.succeeded` or
    /// `launch.failed`, with the reason).
    TestLaunch {
        /// The resource (an entry of some pool's `resources`).
        resource: String,
        /// The user shown in the events; `"test-user"` when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
    },
    /// An administrator changes the site configuration in the cloud: every connector's Config
    /// Synchronizer imports a new LocalDB at its next poll.
    ConfigChange {
        /// What changed (free text shown in the history).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// Every session of a VDA logs off (a pooled VDI desktop in HA mode then goes into
    /// maintenance unless its delivery group says otherwise).
    VdaLogoff {
        /// The VDA's name (`{prefix}{n:03}`, case-insensitive).
        vda: String,
    },
    /// Puts a VDA into maintenance mode or takes it out.
    VdaMaintenance {
        /// The VDA's name.
        vda: String,
        /// `true` turns maintenance on.
        enabled: bool,
    },
    /// Load management: `users` new users log on, evenly spread over `over` (zero: all at
    /// once), each launching `app` (or an application drawn from the seeded workload).
    LogonStorm {
        /// Users, `1..=100000`.
        users: u32,
        /// Spread of the logons.
        over: SimDuration,
        /// The application; drawn per user when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        app: Option<String>,
    },
    /// Load management: one user launches an application (reconnecting to a disconnected
    /// session of theirs first).
    AppLaunch {
        /// User name.
        user: String,
        /// Published application.
        app: String,
        /// Client address (for IP-range rules); drawn from the workload's clients when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_ip: Option<Ipv4Addr>,
    },
    /// Load management: a server reboots (its sessions end; it is down, then starting, then
    /// up).
    ServerReboot {
        /// Host name (case-insensitive).
        server: String,
    },
    /// Load management: the data collector of a zone crashes (its server goes down and
    /// reboots); the zone elects another.
    KillCollector {
        /// Zone id.
        zone: String,
    },
    /// Load management: a performance counter of a server is held at `percent` for
    /// `duration`.
    CounterSpike {
        /// Host name.
        server: String,
        /// Which counter.
        counter: SpikeCounter,
        /// Value held, `0..=100`.
        percent: u8,
        /// How long, at least 1s.
        duration: SimDuration,
    },
    /// Load management: disconnects connected sessions (they keep counting towards load).
    DisconnectSessions {
        /// Every session of this user, or
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
        /// `count` connected sessions of this server (oldest first).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server: Option<String>,
        /// With `server`: how many, `1..=100000`. Default 1.
        #[serde(default = "one")]
        count: u32,
    },
    /// Load management: logs sessions off (connected or disconnected).
    LogoffSessions {
        /// Every session of this user, or
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
        /// `count` sessions of this server (disconnected first, then oldest).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server: Option<String>,
        /// With `server`: how many, `1..=100000`. Default 1.
        #[serde(default = "one")]
        count: u32,
    },
    /// Load management: creates an evaluator, or replaces one (`replaces` names it; a
    /// built-in keeps its name).
    EvaluatorSave {
        /// Name (unique).
        name: String,
        /// Rules (at least one; each kind once, application user load once per application).
        rules: Vec<Rule>,
        /// The evaluator being edited (renamed when `name` differs); a new one when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<String>,
    },
    /// Load management: deletes a custom evaluator that nothing uses.
    EvaluatorDelete {
        /// Name.
        name: String,
    },
    /// Load management: assigns an evaluator to servers and applications.
    EvaluatorAssign {
        /// Evaluator name.
        evaluator: String,
        /// Hosts that get it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        servers: Vec<String>,
        /// Applications that get it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        applications: Vec<String>,
    },
    /// Load management: removes an application's own evaluator.
    EvaluatorUnassign {
        /// Application.
        application: String,
    },
    /// Load management: farm settings.
    FarmSettings {
        /// Turns the black-hole fix on or off.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        black_hole_fix: Option<bool>,
        /// Changes the load-index formula.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula: Option<LoadFormula>,
    },
    /// GSLB: takes a site down (it sends and answers nothing: MEP, ADNS).
    SiteDown {
        /// Site name.
        site: String,
    },
    /// GSLB: brings a site back up.
    SiteUp {
        /// Site name.
        site: String,
    },
    /// GSLB: cuts the MEP link between two sites: packets from `from` to `to` are lost, and
    /// also from `to` to `from` unless `one_way`.
    MepCut {
        /// One end (the sender when `one_way`).
        from: String,
        /// The other end.
        to: String,
        /// Only the `from` → `to` direction.
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        one_way: bool,
    },
    /// GSLB: restores the MEP link between two sites (one direction when `one_way`).
    MepRestore {
        /// One end (the sender when `one_way`).
        from: String,
        /// The other end.
        to: String,
        /// Only the `from` → `to` direction.
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        one_way: bool,
    },
    /// GSLB: `set gslb site <site> -backupParentlist …` (an empty list is `unset`).
    BackupParents {
        /// The parent site.
        site: String,
        /// Backup parents in preference order (at most 5, existing parents, not the site).
        #[serde(default)]
        backups: Vec<String>,
    },
    /// GSLB: replaces the topology with the product's CLI text (`add gslb site …`).
    TopologyImport {
        /// The CLI text.
        cli: String,
    },
    /// Autoscale: offers extra demand to a group's clusters: a spike of `duration_min`
    /// minutes, or a lasting step when `duration_min` is absent.
    LoadInject {
        /// Group name.
        group: String,
        /// One availability zone; all of the group's zones when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
        /// Demand in percent of the capacity of `min_nodes` nodes, replacing the workload's
        /// own while it lasts.
        level: f64,
        /// Length of a spike in minutes; absent = a step that lasts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_min: Option<u32>,
    },
    /// Autoscale: hands a group's clusters back to their workload model: any injected spike
    /// or step ends from the next minute.
    LoadRelease {
        /// Group name.
        group: String,
        /// One availability zone; all of the group's zones when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
    },
    /// Autoscale: deploys the group's application (IPSet per cluster, domain and IPs
    /// registered with DNS or the NLB).
    AppDeploy {
        /// Group name.
        group: String,
    },
    /// Autoscale: removes the group's application (records unregistered, IPSets deleted).
    AppRemove {
        /// Group name.
        group: String,
    },
    /// Autoscale: switches a group's traffic distribution between DNS and NLB.
    DistributionSwitch {
        /// Group name.
        group: String,
        /// The new mode.
        mode: DistributionMode,
    },
    /// Autoscale: replaces a group's parameters (limits, timings, node bounds).
    GroupSettings {
        /// Group name.
        group: String,
        /// The new parameters.
        settings: GroupParams,
    },
}

fn one() -> u32 {
    1
}

/// A performance counter a spike can hold (SPEC §2 rules 1 and 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpikeCounter {
    /// CPU utilization.
    Cpu,
    /// Memory usage.
    Memory,
}

/// A component of a Cloud Connector that can fail on its own (SPEC §1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Component {
    /// Config Synchronizer Service: imports the configuration into LocalDB.
    Css,
    /// High Availability Service: the secondary broker.
    HaService,
    /// Remote Broker Provider: relays VDA and StoreFront traffic to the cloud broker and
    /// decides when the resource location enters and leaves HA mode.
    Rbp,
}

impl Component {
    /// Every component, in display order.
    pub const ALL: [Component; 3] = [Component::Css, Component::HaService, Component::Rbp];

    /// The serialized name (`"css"`, `"ha_service"`, `"rbp"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Component::Css => "css",
            Component::HaService => "ha_service",
            Component::Rbp => "rbp",
        }
    }

    /// The product's name of the component.
    pub const fn label(self) -> &'static str {
        match self {
            Component::Css => "Config Synchronizer Service",
            Component::HaService => "High Availability Service",
            Component::Rbp => "Remote Broker Provider",
        }
    }
}

impl Action {
    /// The `kind` tag, as written in files (`"heartbeat_pause"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Note { .. } => "note",
            Action::HeartbeatPause { .. } => "heartbeat_pause",
            Action::HeartbeatResume { .. } => "heartbeat_resume",
            Action::HeartbeatInterval { .. } => "heartbeat_interval",
            Action::ForceOutage { .. } => "force_outage",
            Action::ClearOutage { .. } => "clear_outage",
            Action::CloudLink { .. } => "cloud_link",
            Action::ConnectorRestart { .. } => "connector_restart",
            Action::ConnectorFail { .. } => "connector_fail",
            Action::ConnectorRecover { .. } => "connector_recover",
            Action::TestLaunch { .. } => "test_launch",
            Action::ConfigChange { .. } => "config_change",
            Action::VdaLogoff { .. } => "vda_logoff",
            Action::VdaMaintenance { .. } => "vda_maintenance",
            Action::LogonStorm { .. } => "logon_storm",
            Action::AppLaunch { .. } => "app_launch",
            Action::ServerReboot { .. } => "server_reboot",
            Action::KillCollector { .. } => "kill_collector",
            Action::CounterSpike { .. } => "counter_spike",
            Action::DisconnectSessions { .. } => "disconnect_sessions",
            Action::LogoffSessions { .. } => "logoff_sessions",
            Action::EvaluatorSave { .. } => "evaluator_save",
            Action::EvaluatorDelete { .. } => "evaluator_delete",
            Action::EvaluatorAssign { .. } => "evaluator_assign",
            Action::EvaluatorUnassign { .. } => "evaluator_unassign",
            Action::FarmSettings { .. } => "farm_settings",
            Action::SiteDown { .. } => "site_down",
            Action::SiteUp { .. } => "site_up",
            Action::MepCut { .. } => "mep_cut",
            Action::MepRestore { .. } => "mep_restore",
            Action::BackupParents { .. } => "backup_parents",
            Action::TopologyImport { .. } => "topology_import",
            Action::LoadInject { .. } => "load_inject",
            Action::LoadRelease { .. } => "load_release",
            Action::AppDeploy { .. } => "app_deploy",
            Action::AppRemove { .. } => "app_remove",
            Action::DistributionSwitch { .. } => "distribution_switch",
            Action::GroupSettings { .. } => "group_settings",
        }
    }

    /// The engine that handles this action.
    pub fn engine(&self) -> EngineId {
        match self {
            Action::Note { .. }
            | Action::HeartbeatPause { .. }
            | Action::HeartbeatResume { .. }
            | Action::HeartbeatInterval { .. } => EngineId::Core,
            Action::ForceOutage { .. }
            | Action::ClearOutage { .. }
            | Action::CloudLink { .. }
            | Action::ConnectorRestart { .. }
            | Action::ConnectorFail { .. }
            | Action::ConnectorRecover { .. }
            | Action::TestLaunch { .. }
            | Action::ConfigChange { .. }
            | Action::VdaLogoff { .. }
            | Action::VdaMaintenance { .. } => EngineId::Lhc,
            Action::LogonStorm { .. }
            | Action::AppLaunch { .. }
            | Action::ServerReboot { .. }
            | Action::KillCollector { .. }
            | Action::CounterSpike { .. }
            | Action::DisconnectSessions { .. }
            | Action::LogoffSessions { .. }
            | Action::EvaluatorSave { .. }
            | Action::EvaluatorDelete { .. }
            | Action::EvaluatorAssign { .. }
            | Action::EvaluatorUnassign { .. }
            | Action::FarmSettings { .. } => EngineId::Lms,
            Action::SiteDown { .. }
            | Action::SiteUp { .. }
            | Action::MepCut { .. }
            | Action::MepRestore { .. }
            | Action::BackupParents { .. }
            | Action::TopologyImport { .. } => EngineId::Gslb,
            Action::LoadInject { .. }
            | Action::LoadRelease { .. }
            | Action::AppDeploy { .. }
            | Action::AppRemove { .. }
            | Action::DistributionSwitch { .. }
            | Action::GroupSettings { .. } => EngineId::Autoscale,
        }
    }
}

/// An action scheduled at a simulated time, with the operator it is attributed to.
///
/// Serialized flat, like a file entry: `{"at": "5m", "actor": "alice", "kind": "note", ...}`
/// where `at` is the duration since the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimedAction {
    /// When the action happens.
    #[serde(with = "at_as_duration")]
    pub at: SimTime,
    /// Who did it (shown in the history), if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// What is done.
    #[serde(flatten)]
    pub action: Action,
}

/// (De)serializes an instant as the duration since the start (`"5m"`).
mod at_as_duration {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::clock::{SimDuration, SimTime};

    pub(super) fn serialize<S: Serializer>(at: &SimTime, s: S) -> Result<S::Ok, S::Error> {
        at.since_start().serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SimTime, D::Error> {
        SimDuration::deserialize(d).map(|since| SimTime::ZERO.saturating_add(since))
    }
}

/// Why an action cannot be applied. Applying a rejected action changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The action names a heartbeat the scenario does not define.
    #[error("unknown heartbeat \"{heartbeat}\" (known: {known})")]
    UnknownHeartbeat {
        /// The unknown id.
        heartbeat: String,
        /// The defined ids, comma-separated (`(none)` if there are none).
        known: String,
    },
    /// Pausing a heartbeat that is already paused.
    #[error("heartbeat \"{0}\" is already paused")]
    AlreadyPaused(String),
    /// Resuming a heartbeat that is running.
    #[error("heartbeat \"{0}\" is not paused")]
    NotPaused(String),
    /// A heartbeat interval under 1s.
    #[error("interval must be at least 1s; got {0}")]
    IntervalTooShort(SimDuration),
    /// A heartbeat interval not longer than the heartbeat's jitter.
    #[error("interval must be longer than the jitter of heartbeat \"{heartbeat}\" ({jitter}); got {interval}")]
    IntervalNotAboveJitter {
        /// The heartbeat.
        heartbeat: String,
        /// The rejected interval.
        interval: SimDuration,
        /// The heartbeat's jitter.
        jitter: SimDuration,
    },
    /// No engine of this simulation handles the action.
    #[error("no engine handles actions of kind `{0}`")]
    Unhandled(&'static str),
    /// The action names a resource location the scenario does not define.
    #[error("unknown resource location \"{resource_location}\" (known: {known})")]
    UnknownResourceLocation {
        /// The unknown id.
        resource_location: String,
        /// The defined ids, comma-separated (`(none)` if there are none).
        known: String,
    },
    /// The action names a connector the scenario does not define.
    #[error("unknown connector \"{connector}\" (known: {known})")]
    UnknownConnector {
        /// The unknown FQDN.
        connector: String,
        /// Some defined FQDNs, comma-separated.
        known: String,
    },
    /// The connector exists but belongs to another resource location.
    #[error("connector \"{connector}\" is not in resource location \"{resource_location}\" (it is in \"{actual}\")")]
    ConnectorNotInLocation {
        /// The connector's FQDN.
        connector: String,
        /// The resource location named by the action.
        resource_location: String,
        /// The resource location the connector belongs to.
        actual: String,
    },
    /// No VDA pool publishes the resource.
    #[error("unknown resource \"{resource}\" (published: {known})")]
    UnknownResource {
        /// The unknown resource.
        resource: String,
        /// Some published resources, comma-separated.
        known: String,
    },
    /// The name matches no VDA (`{prefix}{n:03}` with `n` in `1..=count`).
    #[error("unknown VDA \"{0}\" (names are a pool prefix followed by 001, 002, ...)")]
    UnknownVda(String),
    /// A text field of the action is blank.
    #[error("{0} must not be empty")]
    Blank(&'static str),
    /// The action would change nothing in the current state (e.g. forcing an outage that is
    /// already forced); the message says why.
    #[error("{0}")]
    NoChange(String),
    /// A field of the action is out of range or malformed; `message` names the allowed
    /// values (and, for nested fields such as an evaluator's rules, the exact path).
    #[error("{field}: {message}")]
    Invalid {
        /// The action field.
        field: &'static str,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// The action names something this engine does not know (a server, zone, application or
    /// evaluator).
    #[error("unknown {what} \"{name}\" (known: {known})")]
    Unknown {
        /// The action field.
        field: &'static str,
        /// What kind of thing (`server`).
        what: &'static str,
        /// The unknown name.
        name: String,
        /// Some known names, comma-separated.
        known: String,
    },
}

impl ActionError {
    /// The action field the error is about (used to point at it in a file), if any.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            ActionError::UnknownHeartbeat { .. }
            | ActionError::AlreadyPaused(_)
            | ActionError::NotPaused(_) => Some("heartbeat"),
            ActionError::IntervalTooShort(_) | ActionError::IntervalNotAboveJitter { .. } => {
                Some("interval")
            }
            ActionError::Unhandled(_) => Some("kind"),
            ActionError::UnknownResourceLocation { .. } => Some("resource_location"),
            ActionError::UnknownConnector { .. } | ActionError::ConnectorNotInLocation { .. } => {
                Some("connector")
            }
            ActionError::UnknownResource { .. } => Some("resource"),
            ActionError::UnknownVda(_) => Some("vda"),
            ActionError::Blank(field)
            | ActionError::Invalid { field, .. }
            | ActionError::Unknown { field, .. } => Some(field),
            ActionError::NoChange(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timed_action_json_is_flat() -> Result<(), serde_json::Error> {
        let a = TimedAction {
            at: SimTime::from_mins(5),
            actor: Some("alice".into()),
            action: Action::HeartbeatInterval {
                heartbeat: "hb".into(),
                interval: SimDuration::from_secs(30),
            },
        };
        let json = serde_json::to_string(&a)?;
        assert_eq!(
            json,
            r#"{"at":"5m","actor":"alice","kind":"heartbeat_interval","heartbeat":"hb","interval":"30s"}"#
        );
        assert_eq!(serde_json::from_str::<TimedAction>(&json)?, a);
        Ok(())
    }

    #[test]
    fn lhc_actions_are_flat_too() -> Result<(), serde_json::Error> {
        let a = TimedAction {
            at: SimTime::from_mins(1),
            actor: None,
            action: Action::ForceOutage {
                resource_location: "paris".into(),
                connector: None,
            },
        };
        let json = serde_json::to_string(&a)?;
        assert_eq!(
            json,
            r#"{"at":"1m","kind":"force_outage","resource_location":"paris"}"#
        );
        assert_eq!(serde_json::from_str::<TimedAction>(&json)?, a);
        let fail: Action = serde_json::from_str(
            r#"{"kind":"connector_fail","connector":"cc1","component":"ha_service"}"#,
        )?;
        assert_eq!(
            fail,
            Action::ConnectorFail {
                connector: "cc1".into(),
                component: Some(Component::HaService),
            }
        );
        assert_eq!(fail.engine(), EngineId::Lhc);
        assert_eq!(fail.kind(), "connector_fail");
        assert_eq!(ActionError::UnknownVda("x".into()).field(), Some("vda"));
        Ok(())
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = serde_json::from_str::<TimedAction>(r#"{"at":"1s","kind":"note","txt":"x"}"#)
            .map_err(|e| e.to_string());
        assert!(err.is_err_and(|e| e.contains("unknown field `txt`")));
    }

    #[test]
    fn kinds_and_fields() {
        let a = Action::HeartbeatPause {
            heartbeat: "x".into(),
        };
        assert_eq!(a.kind(), "heartbeat_pause");
        assert_eq!(a.engine(), EngineId::Core);
        assert_eq!(
            ActionError::IntervalTooShort(SimDuration(500)).to_string(),
            "interval must be at least 1s; got 500ms"
        );
        assert_eq!(
            ActionError::NotPaused("x".into()).field(),
            Some("heartbeat")
        );
    }
}
