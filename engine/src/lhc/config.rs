//! `[lhc]`: Local Host Cache / HA mode of Cloud Connectors (SPEC §1): timers, resource
//! locations with their connectors and VDA pools, delivery groups, StoreFront.

use serde::{Deserialize, Serialize};

use crate::clock::SimDuration;
use crate::scenario::check::{fail, in_range, known, non_empty, unique};
use crate::scenario::error::{ConfigError, FieldPath};
use crate::scenario::Warning;

/// Most VDAs one pool may declare.
pub const MAX_POOL_VDAS: u32 = 20_000;
/// Sizing limit of one resource location in HA mode [product docs]; above it, a warning.
pub const MAX_HA_VDAS_PER_RL: u64 = 10_000;
/// Most connectors one resource location may hold.
pub const MAX_CONNECTORS_PER_RL: usize = 1_000;
/// Most sessions one multi-session VDA may host (`max_sessions`).
pub const MAX_VDA_SESSIONS: u16 = 1_000;
/// Sessions a multi-session VDA hosts when its pool does not say (assumed).
pub const DEFAULT_MULTI_SESSIONS: u16 = 20;

/// `[lhc]`. Timer defaults follow SPEC's DEFAULTS table: `css_poll`, `storefront_heartbeat`,
/// `vda_heartbeat_max` [seed 000]; `cloud_lost_after` [product docs]; `health_check_interval`,
/// `pending_ha`, `ha_initial`, `pending_recovery`, `connector_restart` and `localdb_import`
/// are assumed [our default].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LhcConfig {
    /// How long health checks keep failing in Pending HA before HA Initial. Default `60s`
    /// (assumed).
    pub pending_ha: SimDuration,
    /// Length of HA Initial. Default `300s` (assumed: one VDA heartbeat period).
    pub ha_initial: SimDuration,
    /// How long all checks must pass in Pending Recovery. Default `180s` (assumed).
    pub pending_recovery: SimDuration,
    /// Health-check interval between the connectors of a resource location. Default `10s`
    /// (assumed).
    pub health_check_interval: SimDuration,
    /// Time without a successful cloud connection before the cloud is lost. Default `60s`.
    pub cloud_lost_after: SimDuration,
    /// Config Synchronizer poll interval. Default `60s`.
    pub css_poll: SimDuration,
    /// StoreFront heartbeat to each configured connector. Default `60s`.
    pub storefront_heartbeat: SimDuration,
    /// Longest gap between two contacts of a VDA with its broker. Default `300s`.
    pub vda_heartbeat_max: SimDuration,
    /// How long a restarted connector stays down before its services are back. Default `2m`
    /// (assumed).
    pub connector_restart: SimDuration,
    /// How long the Config Synchronizer takes to import a configuration into a new LocalDB
    /// instance. Default `30s` (assumed).
    pub localdb_import: SimDuration,
    /// `[[lhc.resource_locations]]`.
    pub resource_locations: Vec<ResourceLocation>,
    /// `[[lhc.delivery_groups]]`.
    pub delivery_groups: Vec<DeliveryGroup>,
    /// `[lhc.storefront]`.
    pub storefront: StorefrontConfig,
}

impl Default for LhcConfig {
    fn default() -> Self {
        LhcConfig {
            pending_ha: SimDuration::from_secs(60),
            ha_initial: SimDuration::from_secs(300),
            pending_recovery: SimDuration::from_secs(180),
            health_check_interval: SimDuration::from_secs(10),
            cloud_lost_after: SimDuration::from_secs(60),
            css_poll: SimDuration::from_secs(60),
            storefront_heartbeat: SimDuration::from_secs(60),
            vda_heartbeat_max: SimDuration::from_secs(300),
            connector_restart: SimDuration::from_secs(120),
            localdb_import: SimDuration::from_secs(30),
            resource_locations: Vec::new(),
            delivery_groups: Vec::new(),
            storefront: StorefrontConfig::default(),
        }
    }
}

/// `[[lhc.resource_locations]]`: a set of connectors and VDAs (also called a zone).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceLocation {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// `[[lhc.resource_locations.connectors]]` (at least one).
    #[serde(default)]
    pub connectors: Vec<Connector>,
    /// `[[lhc.resource_locations.vda_pools]]`.
    #[serde(default)]
    pub vda_pools: Vec<VdaPool>,
}

/// A Cloud Connector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Connector {
    /// Its FQDN, unique (case-insensitively) in the whole estate; the election of the
    /// secondary broker orders connectors by it.
    pub fqdn: String,
    /// Whether StoreFront lists it as a Delivery Controller (only such connectors perform HA
    /// detection). Default `true`.
    #[serde(default = "yes")]
    pub storefront_configured: bool,
}

/// A group of identical VDAs named `{prefix}{n:03}` for `n` in `1..=count`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VdaPool {
    /// Machine-name prefix, unique (case-insensitively) in the estate.
    pub prefix: String,
    /// Number of VDAs, `1..=20000`.
    pub count: u32,
    /// Kind of machine.
    pub kind: VdaKind,
    /// Delivery group (must exist in `[[lhc.delivery_groups]]`).
    pub delivery_group: String,
    /// Resources (apps, desktops) the pool publishes.
    #[serde(default)]
    pub resources: Vec<String>,
    /// Sessions one VDA can host: always 1 for the single-session kinds (pooled VDI, static);
    /// `1..=1000` for multi-session, default 20 (assumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_sessions: Option<u16>,
    /// Share of the session capacity in use at the start, in percent (`0..=100`). Each VDA's
    /// starting sessions are drawn from the pool's random stream around that share. Default 0.
    #[serde(default)]
    pub initial_load: u8,
}

impl VdaPool {
    /// Sessions one VDA of this pool can host (see [`VdaPool::max_sessions`]).
    pub fn session_capacity(&self) -> u16 {
        match self.kind {
            VdaKind::MultiSession => self.max_sessions.unwrap_or(DEFAULT_MULTI_SESSIONS),
            VdaKind::PooledVdi | VdaKind::Static => 1,
        }
    }

    /// The name of VDA number `n` (1-based): the prefix followed by `n` on at least three
    /// digits (`PAR-VDI-007`, `PAR-VDI-1234`).
    pub fn vda_name(&self, n: u32) -> String {
        format!("{}{n:03}", self.prefix)
    }

    /// The number `n` of the VDA called `name` in this pool, if any (the prefix is compared
    /// case-insensitively; the number must be written exactly as [`vda_name`](Self::vda_name)
    /// writes it).
    pub fn vda_number(&self, name: &str) -> Option<u32> {
        let head = name.get(..self.prefix.len())?;
        if head.to_lowercase() != self.prefix.to_lowercase() {
            return None;
        }
        let digits = &name[self.prefix.len()..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = digits.parse().ok()?;
        (n >= 1 && n <= self.count && format!("{n:03}") == digits).then_some(n)
    }
}

impl VdaKind {
    /// The serialized name (`"multi_session"`, `"pooled_vdi"`, `"static"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            VdaKind::MultiSession => "multi_session",
            VdaKind::PooledVdi => "pooled_vdi",
            VdaKind::Static => "static",
        }
    }
}

/// Kind of VDA.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VdaKind {
    /// Server OS, many sessions.
    MultiSession,
    /// Pooled VDI desktop, reset at logoff (in HA mode: maintenance instead, by default).
    PooledVdi,
    /// Static (assigned) desktop.
    Static,
}

/// `[[lhc.delivery_groups]]`: per-group HA-mode options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeliveryGroup {
    /// Unique id.
    pub id: String,
    /// Preview feature: pooled desktops can be reset in HA mode. Default `false`.
    #[serde(default)]
    pub pooled_reset_in_ha: bool,
    /// In HA mode, a pooled desktop goes into maintenance at logoff. Default `true`.
    #[serde(default = "yes")]
    pub maintenance_on_logoff_in_ha: bool,
}

/// `[lhc.storefront]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StorefrontConfig {
    /// AdvancedHealthCheck: launches are routed to a resource location that holds the
    /// resource. Default `true`.
    pub advanced_health_check: bool,
}

impl Default for StorefrontConfig {
    fn default() -> Self {
        StorefrontConfig {
            advanced_health_check: true,
        }
    }
}

fn yes() -> bool {
    true
}

impl LhcConfig {
    /// Checks timers, ids, uniqueness of FQDNs and prefixes, pool sizes and delivery-group
    /// references.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let root = FieldPath::root("lhc");
        let timers = [
            ("pending_ha", self.pending_ha),
            ("ha_initial", self.ha_initial),
            ("pending_recovery", self.pending_recovery),
            ("health_check_interval", self.health_check_interval),
            ("cloud_lost_after", self.cloud_lost_after),
            ("css_poll", self.css_poll),
            ("storefront_heartbeat", self.storefront_heartbeat),
            ("vda_heartbeat_max", self.vda_heartbeat_max),
            ("connector_restart", self.connector_restart),
            ("localdb_import", self.localdb_import),
        ];
        for (name, value) in timers {
            if value.is_zero() {
                return fail(root.key(name), "must be positive");
            }
        }
        let dg_path = |i: usize| root.key("delivery_groups").index(i).key("id");
        for (i, dg) in self.delivery_groups.iter().enumerate() {
            non_empty(&dg.id, dg_path(i))?;
        }
        unique(
            self.delivery_groups.len(),
            "delivery group",
            |i| self.delivery_groups[i].id.clone(),
            dg_path,
        )?;
        let rl_path = |i: usize| root.key("resource_locations").index(i);
        for (i, rl) in self.resource_locations.iter().enumerate() {
            self.validate_rl(rl, &rl_path(i))?;
        }
        unique(
            self.resource_locations.len(),
            "resource location id",
            |i| self.resource_locations[i].id.clone(),
            |i| rl_path(i).key("id"),
        )?;
        let connectors = self.flatten(|rl| rl.connectors.len());
        unique(
            connectors.len(),
            "connector fqdn",
            |k| {
                let (i, j) = connectors[k];
                self.resource_locations[i].connectors[j].fqdn.to_lowercase()
            },
            |k| {
                rl_path(connectors[k].0)
                    .key("connectors")
                    .index(connectors[k].1)
                    .key("fqdn")
            },
        )?;
        let pools = self.flatten(|rl| rl.vda_pools.len());
        unique(
            pools.len(),
            "VDA prefix",
            |k| {
                self.resource_locations[pools[k].0].vda_pools[pools[k].1]
                    .prefix
                    .to_lowercase()
            },
            |k| {
                rl_path(pools[k].0)
                    .key("vda_pools")
                    .index(pools[k].1)
                    .key("prefix")
            },
        )
    }

    fn validate_rl(&self, rl: &ResourceLocation, path: &FieldPath) -> Result<(), ConfigError> {
        non_empty(&rl.id, path.key("id"))?;
        non_empty(&rl.name, path.key("name"))?;
        if rl.connectors.is_empty() {
            return fail(
                path.key("connectors"),
                "a resource location needs at least one connector (Citrix recommends 2)",
            );
        }
        if rl.connectors.len() > MAX_CONNECTORS_PER_RL {
            return fail(
                path.key("connectors").index(MAX_CONNECTORS_PER_RL),
                format!("a resource location holds at most {MAX_CONNECTORS_PER_RL} connectors"),
            );
        }
        for (j, c) in rl.connectors.iter().enumerate() {
            non_empty(&c.fqdn, path.key("connectors").index(j).key("fqdn"))?;
        }
        let groups = self.delivery_groups.iter().map(|g| g.id.as_str());
        for (j, pool) in rl.vda_pools.iter().enumerate() {
            let p = path.key("vda_pools").index(j);
            non_empty(&pool.prefix, p.key("prefix"))?;
            in_range(pool.count, 1, MAX_POOL_VDAS, p.key("count"))?;
            known(
                &pool.delivery_group,
                "delivery group",
                groups.clone(),
                p.key("delivery_group"),
            )?;
            for (k, r) in pool.resources.iter().enumerate() {
                non_empty(r, p.key("resources").index(k))?;
            }
            if let Some(max) = pool.max_sessions {
                if pool.kind == VdaKind::MultiSession {
                    in_range(max, 1, MAX_VDA_SESSIONS, p.key("max_sessions"))?;
                } else if max != 1 {
                    return fail(
                        p.key("max_sessions"),
                        format!(
                            "a {} VDA hosts a single session; got {max}",
                            pool.kind.as_str()
                        ),
                    );
                }
            }
            in_range(pool.initial_load, 0, 100, p.key("initial_load"))?;
        }
        Ok(())
    }

    /// (resource location index, item index) of every connector or pool, in file order.
    fn flatten(&self, len: impl Fn(&ResourceLocation) -> usize) -> Vec<(usize, usize)> {
        self.resource_locations
            .iter()
            .enumerate()
            .flat_map(|(i, rl)| (0..len(rl)).map(move |j| (i, j)))
            .collect()
    }

    /// Configuration warnings: resource locations that are not HA-ready, that have a single
    /// connector, or that exceed the HA sizing limit.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        for (i, rl) in self.resource_locations.iter().enumerate() {
            let path = FieldPath::root("lhc").key("resource_locations").index(i);
            if !rl.connectors.iter().any(|c| c.storefront_configured) {
                out.push(Warning::new(
                    path.key("connectors"),
                    format!(
                        "resource location \"{}\" is not HA-ready: no connector is configured in StoreFront, so it loses capacity in an outage",
                        rl.id
                    ),
                ));
            }
            if rl.connectors.len() == 1 {
                out.push(Warning::new(
                    path.key("connectors"),
                    format!("resource location \"{}\" has a single connector (Citrix recommends at least 2)", rl.id),
                ));
            }
            let vdas: u64 = rl.vda_pools.iter().map(|p| u64::from(p.count)).sum();
            if vdas > MAX_HA_VDAS_PER_RL {
                out.push(Warning::new(
                    path.key("vda_pools"),
                    format!(
                        "resource location \"{}\" has {vdas} VDAs; HA mode supports at most {MAX_HA_VDAS_PER_RL}",
                        rl.id
                    ),
                ));
            }
        }
        out
    }
}

/// Where a VDA is in the configuration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VdaRef {
    /// Index of its resource location.
    pub resource_location: usize,
    /// Index of its pool within the resource location.
    pub pool: usize,
    /// Its number in the pool (1-based).
    pub number: u32,
}

impl LhcConfig {
    /// The resource location with this id (exact match) and its index.
    pub fn resource_location(&self, id: &str) -> Option<(usize, &ResourceLocation)> {
        self.resource_locations
            .iter()
            .enumerate()
            .find(|(_, rl)| rl.id == id)
    }

    /// The connector with this FQDN (case-insensitive): (RL index, connector index, config).
    pub fn connector(&self, fqdn: &str) -> Option<(usize, usize, &Connector)> {
        let key = fqdn.to_lowercase();
        self.resource_locations
            .iter()
            .enumerate()
            .find_map(|(i, rl)| {
                rl.connectors
                    .iter()
                    .enumerate()
                    .find(|(_, c)| c.fqdn.to_lowercase() == key)
                    .map(|(j, c)| (i, j, c))
            })
    }

    /// The VDA called `name` (see [`VdaPool::vda_name`]); when two prefixes could both read
    /// the name, the longer prefix wins.
    pub fn find_vda(&self, name: &str) -> Option<VdaRef> {
        let mut best: Option<(usize, VdaRef)> = None;
        for (i, rl) in self.resource_locations.iter().enumerate() {
            for (j, pool) in rl.vda_pools.iter().enumerate() {
                if let Some(n) = pool.vda_number(name) {
                    let len = pool.prefix.len();
                    if best.is_none_or(|(l, _)| len > l) {
                        let found = VdaRef {
                            resource_location: i,
                            pool: j,
                            number: n,
                        };
                        best = Some((len, found));
                    }
                }
            }
        }
        best.map(|(_, r)| r)
    }

    /// The pool a [`VdaRef`] points into.
    pub fn pool(&self, vda: VdaRef) -> Option<&VdaPool> {
        self.resource_locations
            .get(vda.resource_location)?
            .vda_pools
            .get(vda.pool)
    }

    /// Whether some pool publishes `resource` (exact match).
    pub fn publishes(&self, resource: &str) -> bool {
        self.resource_locations
            .iter()
            .flat_map(|rl| &rl.vda_pools)
            .any(|p| p.resources.iter().any(|r| r == resource))
    }

    /// Every published resource, sorted, without repeats.
    pub fn resources(&self) -> Vec<&str> {
        let mut all: Vec<&str> = self
            .resource_locations
            .iter()
            .flat_map(|rl| &rl.vda_pools)
            .flat_map(|p| p.resources.iter().map(String::as_str))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Two resource locations: `a` (connectors CC1.a.com and cc2.a.com; pools A001..A2000
    /// and A1001..A1005 publishing Word) and `b` (one connector, no VDA).
    pub(crate) fn config() -> LhcConfig {
        let pool = |prefix: &str, count: u32| VdaPool {
            prefix: prefix.into(),
            count,
            kind: VdaKind::MultiSession,
            delivery_group: "dg".into(),
            resources: vec!["Word".into()],
            max_sessions: None,
            initial_load: 0,
        };
        let connector = |fqdn: &str| Connector {
            fqdn: fqdn.into(),
            storefront_configured: true,
        };
        LhcConfig {
            resource_locations: vec![
                ResourceLocation {
                    id: "a".into(),
                    name: "A".into(),
                    connectors: vec![connector("CC1.a.com"), connector("cc2.a.com")],
                    vda_pools: vec![pool("A", 2000), pool("A1", 5)],
                },
                ResourceLocation {
                    id: "b".into(),
                    name: "B".into(),
                    connectors: vec![connector("cc1.b.com")],
                    vda_pools: Vec::new(),
                },
            ],
            ..LhcConfig::default()
        }
    }

    #[test]
    fn finds_vdas_by_name_longest_prefix_first() {
        let c = config();
        let at = |rl, pool, number| {
            Some(VdaRef {
                resource_location: rl,
                pool,
                number,
            })
        };
        assert_eq!(c.find_vda("A007"), at(0, 0, 7));
        assert_eq!(c.find_vda("a1234"), at(0, 0, 1234));
        assert_eq!(c.find_vda("A1001"), at(0, 1, 1));
        assert_eq!(c.find_vda("A1002"), at(0, 1, 2));
        assert_eq!(c.find_vda("A07"), None);
        assert_eq!(c.find_vda("A2001"), None);
        assert_eq!(c.find_vda("A000"), None);
        assert_eq!(c.find_vda("B001"), None);
    }
}
