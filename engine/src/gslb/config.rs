//! `[gslb]`: GSLB parent-child topology over MEP (SPEC §3): MEP and adoption timings, sites
//! (with their services), domains and client locations. `docs/GSLB.md` explains the model.

use core::net::IpAddr;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::net::{valid_location, Network};
use super::version::{SoftwareVersion, VERSION_FORMS};
use crate::clock::SimDuration;
use crate::scenario::check::{fail, in_range, list, non_empty, unique};
use crate::scenario::error::{ConfigError, FieldPath};
use crate::scenario::Warning;

/// Most parent sites in a parent-child topology [seed 003].
pub const MAX_PARENTS: usize = 32;
/// Most child sites in a parent-child topology [seed 003].
pub const MAX_CHILDREN: usize = 1024;
/// Most backup parents of one parent [seed 003].
pub const MAX_BACKUP_PARENTS: usize = 5;

/// Longest MEP health interval, metrics interval, adoption delay.
const MAX_INTERVAL_S: u64 = 300;
/// Longest keep-alive timeout.
const MAX_KEEPALIVE_S: u64 = 3600;
/// Longest learning time [product docs: `svcStateLearningTime` 0..3600 s].
pub const MAX_LEARNING_S: u64 = 3600;

/// `[gslb]`. Timing defaults: `mep_health_interval`, `mep_metrics_interval`,
/// `mep_keepalive_timeout` and `learning_time` are documented [product docs]; `adoption_delay`
/// is assumed [our default] (see `docs/GSLB.md`). Every timing is whole seconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GslbConfig {
    /// Sites send health metrics over MEP this often, `1s..=300s`. Default `1s` [product
    /// docs].
    pub mep_health_interval: SimDuration,
    /// Parents exchange network metrics (RTT) and persistence sessions this often,
    /// `1s..=300s`. Default `5s` [product docs].
    pub mep_metrics_interval: SimDuration,
    /// MEP to a site is DOWN after this long without packets (`mepKeepAliveTimeout`), at
    /// least two health intervals and at most `3600s`. Default `10s` [product docs].
    pub mep_keepalive_timeout: SimDuration,
    /// How long a backup parent takes to open a connection to a child and send it the
    /// backup list ("a few seconds"), `0s..=300s`. Default `3s` (assumed).
    pub adoption_delay: SimDuration,
    /// Learning time of an adopted child's services (`svcStateLearningTime`): their MEP
    /// state and metrics are ignored for this long after an adoption, `0s..=3600s`. Default
    /// `0s` [product docs].
    pub learning_time: SimDuration,
    /// `[[gslb.sites]]`.
    pub sites: Vec<SiteConfig>,
    /// `[[gslb.domains]]`.
    pub domains: Vec<DomainConfig>,
    /// `[[gslb.client_locations]]`: LDNS address ranges for static proximity and RTT. When
    /// empty, one per parent is derived (see `docs/GSLB.md`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub client_locations: Vec<ClientLocationConfig>,
}

impl Default for GslbConfig {
    fn default() -> Self {
        GslbConfig {
            mep_health_interval: SimDuration::from_secs(1),
            mep_metrics_interval: SimDuration::from_secs(5),
            mep_keepalive_timeout: SimDuration::from_secs(10),
            adoption_delay: SimDuration::from_secs(3),
            learning_time: SimDuration::ZERO,
            sites: Vec::new(),
            domains: Vec::new(),
            client_locations: Vec::new(),
        }
    }
}

/// `[[gslb.sites]]`: `add gslb site <name> <ip> [-publicIP <ip>] [-parentSite <name>]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    /// Unique site name.
    pub name: String,
    /// Site IP (unique); between parents the lower IP opens the MEP connection.
    pub ip: IpAddr,
    /// Public IP, if different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_ip: Option<IpAddr>,
    /// Parent or child.
    pub role: SiteRole,
    /// The parent site of a child (required for children, forbidden for parents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Software version; parents must all run the same one for config sync. Default `"14.1"`.
    #[serde(default = "default_version")]
    pub version: String,
    /// Backup parents of a parent, in preference order (at most 5, existing parents, not
    /// itself). Only on parents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backup_parents: Vec<String>,
    /// Location for static proximity and the RTT model: dotted qualifiers, most general
    /// first (`EU.FR.Paris`). Default: a parent's own name; a child's `<parent>.<child>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// `[[gslb.sites.services]]`: a parent's GSLB services, a child's local services. When
    /// empty the site has one default service (see `docs/GSLB.md`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceConfig>,
}

/// `[[gslb.sites.services]]`: `add gslb service <name> <ip> <type> <port> -siteName <site>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceConfig {
    /// Service name, unique across all sites.
    pub name: String,
    /// The load-balancing vserver's IP at the site.
    pub ip: IpAddr,
    /// Public IP returned in answers, if different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_ip: Option<IpAddr>,
    /// Port, `1..=65535`. Default 80.
    #[serde(default = "default_port")]
    pub port: u16,
    /// A monitor is bound (`bind gslb service … -monitorName …`): while MEP to the site is
    /// down the monitor gives the service's state. Default `false` [product docs].
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub monitor: bool,
}

fn default_port() -> u16 {
    80
}

/// `[[gslb.client_locations]]`: an LDNS address range (a static proximity database entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientLocationConfig {
    /// Unique name (`Europe`).
    pub name: String,
    /// Address range (`192.0.2.0/24`); the most specific range containing a client wins.
    pub network: Network,
    /// Dotted location qualifiers (`EU.FR`). Default: the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Round-trip times in ms from sites to this range, overriding the model's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rtt_ms: BTreeMap<String, u32>,
}

impl ClientLocationConfig {
    /// The location qualifiers (the name when not set).
    pub fn location(&self) -> &str {
        self.location.as_deref().unwrap_or(&self.name)
    }
}

fn default_version() -> String {
    "14.1".to_owned()
}

/// Role of a site in the topology.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteRole {
    /// Peers with all parents, answers ADNS queries, has GSLB vservers.
    Parent,
    /// Talks only to its parent.
    Child,
}

/// `[[gslb.domains]]`: a GSLB domain answered by the parents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainConfig {
    /// Unique domain name.
    pub name: String,
    /// Load-balancing method.
    pub method: GslbMethod,
    /// DNS TTL of answers, in seconds. Default 5.
    #[serde(default = "default_ttl")]
    pub ttl_s: u32,
    /// Services bound to the domain's vserver (names); every service of every site when
    /// empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<String>,
}

fn default_ttl() -> u32 {
    5
}

/// GSLB method; dynamic methods fall back to round robin while MEP is down.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GslbMethod {
    /// Round robin.
    RoundRobin,
    /// Least connections (dynamic).
    LeastConnections,
    /// Static proximity.
    StaticProximity,
    /// Round-trip time (dynamic).
    Rtt,
}

impl GslbMethod {
    /// Every method, in display order.
    pub const ALL: [GslbMethod; 4] = [
        GslbMethod::RoundRobin,
        GslbMethod::LeastConnections,
        GslbMethod::StaticProximity,
        GslbMethod::Rtt,
    ];

    /// The serialized name (`"least_connections"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            GslbMethod::RoundRobin => "round_robin",
            GslbMethod::LeastConnections => "least_connections",
            GslbMethod::StaticProximity => "static_proximity",
            GslbMethod::Rtt => "rtt",
        }
    }

    /// The product's CLI name (`-lbMethod LEASTCONNECTION`).
    pub const fn cli_name(self) -> &'static str {
        match self {
            GslbMethod::RoundRobin => "ROUNDROBIN",
            GslbMethod::LeastConnections => "LEASTCONNECTION",
            GslbMethod::StaticProximity => "STATICPROXIMITY",
            GslbMethod::Rtt => "RTT",
        }
    }

    /// Whether the method needs metrics learned over MEP (and so falls back to round robin
    /// while they are missing).
    pub const fn is_dynamic(self) -> bool {
        matches!(self, GslbMethod::LeastConnections | GslbMethod::Rtt)
    }
}

/// A duration of whole seconds within `lo..=hi` seconds.
fn whole_secs(d: SimDuration, lo: u64, hi: u64, path: FieldPath) -> Result<(), ConfigError> {
    if !d.as_millis().is_multiple_of(1000) {
        return fail(path, format!("must be whole seconds; got {d}"));
    }
    in_range(d.as_secs(), lo, hi, path)
}

/// A site's software version: parsed, or the reason it is refused.
pub fn parse_version(text: &str) -> Result<SoftwareVersion, String> {
    SoftwareVersion::parse(text).ok_or_else(|| format!("expected {VERSION_FORMS}; got \"{text}\""))
}

impl GslbConfig {
    /// The site named `name`.
    pub fn site(&self, name: &str) -> Option<&SiteConfig> {
        self.sites.iter().find(|s| s.name == name)
    }

    /// Checks a backup list for parent `site` as `set gslb site … -backupParentlist` gives
    /// it: at most 5, existing parent sites, not the site itself, no repeats. The message
    /// names the allowed values.
    pub fn check_backups(&self, site: &str, backups: &[String]) -> Result<(), String> {
        if backups.len() > MAX_BACKUP_PARENTS {
            return Err(format!(
                "at most {MAX_BACKUP_PARENTS} backup parents; got {}",
                backups.len()
            ));
        }
        for (j, b) in backups.iter().enumerate() {
            if b == site {
                return Err(format!(
                    "a site cannot be its own backup parent (\"{site}\")"
                ));
            }
            if !self.is_parent(b) {
                return Err(format!(
                    "\"{b}\" is not a parent site (parents: {})",
                    self.parent_names()
                ));
            }
            if backups[..j].contains(b) {
                return Err(format!("duplicate backup parent \"{b}\""));
            }
        }
        Ok(())
    }

    pub(crate) fn is_parent(&self, name: &str) -> bool {
        self.sites
            .iter()
            .any(|s| s.name == name && s.role == SiteRole::Parent)
    }

    pub(crate) fn parent_names(&self) -> String {
        let names: Vec<&str> = self
            .sites
            .iter()
            .filter(|s| s.role == SiteRole::Parent)
            .map(|s| s.name.as_str())
            .collect();
        list(&names)
    }

    /// Checks timings, names and IPs, roles and parents, backup lists, topology limits,
    /// versions, locations, services, domains and client locations.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let root = FieldPath::root("gslb");
        whole_secs(
            self.mep_health_interval,
            1,
            MAX_INTERVAL_S,
            root.key("mep_health_interval"),
        )?;
        whole_secs(
            self.mep_metrics_interval,
            1,
            MAX_INTERVAL_S,
            root.key("mep_metrics_interval"),
        )?;
        whole_secs(
            self.mep_keepalive_timeout,
            (2 * self.mep_health_interval.as_secs()).max(2),
            MAX_KEEPALIVE_S,
            root.key("mep_keepalive_timeout"),
        )?;
        whole_secs(
            self.adoption_delay,
            0,
            MAX_INTERVAL_S,
            root.key("adoption_delay"),
        )?;
        whole_secs(
            self.learning_time,
            0,
            MAX_LEARNING_S,
            root.key("learning_time"),
        )?;
        self.validate_sites()?;
        self.validate_services()?;
        self.validate_client_locations()
    }

    fn validate_sites(&self) -> Result<(), ConfigError> {
        let path = |i: usize| FieldPath::root("gslb").key("sites").index(i);
        let (mut parents, mut children) = (0, 0);
        for (i, site) in self.sites.iter().enumerate() {
            non_empty(&site.name, path(i).key("name"))?;
            let count = match site.role {
                SiteRole::Parent => &mut parents,
                SiteRole::Child => &mut children,
            };
            *count += 1;
            if parents > MAX_PARENTS {
                return fail(
                    path(i).key("role"),
                    format!(
                        "too many parent sites: a parent-child topology has at most {MAX_PARENTS}"
                    ),
                );
            }
            if children > MAX_CHILDREN {
                return fail(
                    path(i).key("role"),
                    format!(
                        "too many child sites: a parent-child topology has at most {MAX_CHILDREN}"
                    ),
                );
            }
        }
        unique(
            self.sites.len(),
            "site",
            |i| self.sites[i].name.clone(),
            |i| path(i).key("name"),
        )?;
        unique(
            self.sites.len(),
            "site ip",
            |i| self.sites[i].ip.to_string(),
            |i| path(i).key("ip"),
        )?;
        for (i, site) in self.sites.iter().enumerate() {
            self.validate_links(site, &path(i))?;
        }
        let dpath = |i: usize| FieldPath::root("gslb").key("domains").index(i);
        for (i, d) in self.domains.iter().enumerate() {
            non_empty(&d.name, dpath(i).key("name"))?;
        }
        unique(
            self.domains.len(),
            "domain",
            |i| self.domains[i].name.to_lowercase(),
            |i| dpath(i).key("name"),
        )
    }

    fn validate_links(&self, site: &SiteConfig, path: &FieldPath) -> Result<(), ConfigError> {
        match (site.role, &site.parent) {
            (SiteRole::Child, None) => {
                return fail(
                    path.key("parent"),
                    format!(
                        "a child site needs a parent (parents: {})",
                        self.parent_names()
                    ),
                )
            }
            (SiteRole::Child, Some(p)) if !self.is_parent(p) => {
                return fail(
                    path.key("parent"),
                    format!(
                        "\"{p}\" is not a parent site (parents: {})",
                        self.parent_names()
                    ),
                )
            }
            (SiteRole::Parent, Some(_)) => {
                return fail(path.key("parent"), "a parent site cannot have a parent")
            }
            _ => {}
        }
        if site.backup_parents.is_empty() {
            return Ok(());
        }
        let bpath = |j: usize| path.key("backup_parents").index(j);
        if site.role == SiteRole::Child {
            return fail(
                path.key("backup_parents"),
                "only parent sites have backup parents (a child learns them from its parent)",
            );
        }
        if site.backup_parents.len() > MAX_BACKUP_PARENTS {
            return fail(
                path.key("backup_parents"),
                format!(
                    "at most {MAX_BACKUP_PARENTS} backup parents; got {}",
                    site.backup_parents.len()
                ),
            );
        }
        for (j, b) in site.backup_parents.iter().enumerate() {
            if *b == site.name {
                return fail(bpath(j), "a site cannot be its own backup parent");
            }
            if !self.is_parent(b) {
                return fail(
                    bpath(j),
                    format!(
                        "\"{b}\" is not a parent site (parents: {})",
                        self.parent_names()
                    ),
                );
            }
        }
        unique(
            site.backup_parents.len(),
            "backup parent",
            |j| site.backup_parents[j].clone(),
            bpath,
        )
    }

    fn validate_services(&self) -> Result<(), ConfigError> {
        let mut names: Vec<(&str, FieldPath)> = Vec::new();
        for (i, site) in self.sites.iter().enumerate() {
            let path = FieldPath::root("gslb").key("sites").index(i);
            if let Err(message) = parse_version(&site.version) {
                return fail(path.key("version"), message);
            }
            if let Some(loc) = &site.location {
                if !valid_location(loc) {
                    return fail(
                        path.key("location"),
                        format!("expected dotted qualifiers like EU.FR.Paris; got \"{loc}\""),
                    );
                }
            }
            for (j, svc) in site.services.iter().enumerate() {
                let spath = path.key("services").index(j);
                non_empty(&svc.name, spath.key("name"))?;
                if svc.port == 0 {
                    return fail(spath.key("port"), "must be between 1 and 65535; got 0");
                }
                if let Some((_, first)) = names.iter().find(|(n, _)| *n == svc.name) {
                    return fail(
                        spath.key("name"),
                        format!(
                            "duplicate service \"{}\" (first defined at {first})",
                            svc.name
                        ),
                    );
                }
                names.push((&svc.name, spath.key("name")));
            }
        }
        let dpath = |i: usize| FieldPath::root("gslb").key("domains").index(i);
        for (i, d) in self.domains.iter().enumerate() {
            for (j, svc) in d.services.iter().enumerate() {
                if !names.iter().any(|(n, _)| n == svc) {
                    let known: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                    return fail(
                        dpath(i).key("services").index(j),
                        format!(
                            "unknown service \"{svc}\" (services: {}; a site without services has none to bind)",
                            crate::scenario::check::list(&known)
                        ),
                    );
                }
            }
            unique(
                d.services.len(),
                "service",
                |j| d.services[j].clone(),
                |j| dpath(i).key("services").index(j),
            )?;
        }
        Ok(())
    }

    fn validate_client_locations(&self) -> Result<(), ConfigError> {
        let path = |i: usize| FieldPath::root("gslb").key("client_locations").index(i);
        for (i, c) in self.client_locations.iter().enumerate() {
            non_empty(&c.name, path(i).key("name"))?;
            if !valid_location(c.location()) {
                return fail(
                    path(i).key(if c.location.is_some() {
                        "location"
                    } else {
                        "name"
                    }),
                    format!(
                        "expected dotted qualifiers like EU.FR.Paris; got \"{}\"",
                        c.location()
                    ),
                );
            }
            for (site, ms) in &c.rtt_ms {
                if self.site(site).is_none() {
                    let names: Vec<&str> = self.sites.iter().map(|s| s.name.as_str()).collect();
                    return fail(
                        path(i).key("rtt_ms").key(site),
                        format!(
                            "unknown site \"{site}\" (known: {})",
                            crate::scenario::check::some_of(names.into_iter())
                        ),
                    );
                }
                in_range(*ms, 0, 60_000, path(i).key("rtt_ms").key(site))?;
            }
        }
        unique(
            self.client_locations.len(),
            "client location",
            |i| self.client_locations[i].name.clone(),
            |i| path(i).key("name"),
        )
    }

    /// Configuration warnings: parents running different versions (config sync needs one).
    pub fn warnings(&self) -> Vec<Warning> {
        let mut parents = self
            .sites
            .iter()
            .enumerate()
            .filter(|(_, s)| s.role == SiteRole::Parent);
        let Some((_, first)) = parents.next() else {
            return Vec::new();
        };
        parents
            .filter(|(_, s)| s.version != first.version)
            .map(|(i, s)| {
                Warning::new(
                    FieldPath::root("gslb").key("sites").index(i).key("version"),
                    format!(
                        "parent \"{}\" runs {} but \"{}\" runs {}: config sync needs parents on the same version",
                        s.name, s.version, first.name, first.version
                    ),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(name: &str, ip: [u8; 4], role: SiteRole, parent: Option<&str>) -> SiteConfig {
        SiteConfig {
            name: name.into(),
            ip: ip.into(),
            public_ip: None,
            role,
            parent: parent.map(Into::into),
            version: default_version(),
            backup_parents: Vec::new(),
            location: None,
            services: Vec::new(),
        }
    }

    fn base() -> GslbConfig {
        GslbConfig {
            sites: vec![
                site("P1", [10, 0, 0, 1], SiteRole::Parent, None),
                site("P2", [10, 0, 0, 2], SiteRole::Parent, None),
                site("C1", [10, 0, 1, 1], SiteRole::Child, Some("P1")),
                site("C2", [10, 0, 1, 2], SiteRole::Child, Some("P2")),
            ],
            ..GslbConfig::default()
        }
    }

    #[test]
    fn validation_table() {
        type Edit = fn(&mut GslbConfig);
        let cases: Vec<(&str, Edit, &str)> = vec![
            ("health interval 0", |c| c.mep_health_interval = SimDuration::ZERO, "gslb.mep_health_interval: must be between 1 and 300; got 0"),
            ("fractional seconds", |c| c.adoption_delay = SimDuration::from_millis(1500), "gslb.adoption_delay: must be whole seconds; got 1s500ms"),
            ("timeout below two ticks", |c| c.mep_keepalive_timeout = SimDuration::from_secs(1), "gslb.mep_keepalive_timeout: must be between 2 and 3600; got 1"),
            ("learning over an hour", |c| c.learning_time = SimDuration::from_secs(3601), "gslb.learning_time: must be between 0 and 3600; got 3601"),
            ("bad version", |c| c.sites[2].version = "eleven".into(), "gslb.sites[2].version: expected a release like 14.1, 13.0, 11.1-51 or 11.1 build 51.21; got \"eleven\""),
            ("bad location", |c| c.sites[0].location = Some("EU..FR".into()), "gslb.sites[0].location: expected dotted qualifiers like EU.FR.Paris; got \"EU..FR\""),
            ("port 0", |c| c.sites[0].services.push(ServiceConfig { name: "s".into(), ip: [10, 0, 0, 9].into(), public_ip: None, port: 0, monitor: false }), "gslb.sites[0].services[0].port: must be between 1 and 65535; got 0"),
            ("duplicate service", |c| {
                let s = ServiceConfig { name: "s".into(), ip: [10, 0, 0, 9].into(), public_ip: None, port: 80, monitor: false };
                c.sites[0].services.push(s.clone());
                c.sites[3].services.push(s);
            }, "gslb.sites[3].services[0].name: duplicate service \"s\" (first defined at gslb.sites[0].services[0].name)"),
            ("domain names an unknown service", |c| c.domains.push(DomainConfig { name: "d".into(), method: GslbMethod::Rtt, ttl_s: 5, services: vec!["nope".into()] }), "gslb.domains[0].services[0]: unknown service \"nope\" (services: (none); a site without services has none to bind)"),
            ("rtt for an unknown site", |c| c.client_locations.push(ClientLocationConfig { name: "EU".into(), network: "192.0.2.0/24".parse().unwrap_or(Network { addr: [0, 0, 0, 0].into(), prefix: 0 }), location: None, rtt_ms: [("P9".to_owned(), 10)].into() }), "gslb.client_locations[0].rtt_ms.P9: unknown site \"P9\" (known: P1, P2, C1, C2)"),
            ("child backups", |c| c.sites[2].backup_parents = vec!["P2".into()], "gslb.sites[2].backup_parents: only parent sites have backup parents (a child learns them from its parent)"),
            ("own backup", |c| c.sites[0].backup_parents = vec!["P1".into()], "gslb.sites[0].backup_parents[0]: a site cannot be its own backup parent"),
        ];
        assert_eq!(base().validate(), Ok(()));
        for (name, edit, want) in cases {
            let mut cfg = base();
            edit(&mut cfg);
            assert_eq!(
                cfg.validate().map_err(|e| e.to_string()),
                Err(want.to_owned()),
                "{name}"
            );
        }
    }

    #[test]
    fn check_action_table() {
        use crate::gslb::actions::GslbAction;
        let cfg = base();
        let ok = |a: GslbAction| assert_eq!(cfg.check_action(&a), Ok(()), "{a:?}");
        ok(GslbAction::SiteDown { site: "C1".into() });
        ok(GslbAction::MepCut {
            from: "P1".into(),
            to: "C2".into(),
            one_way: true,
        });
        ok(GslbAction::BackupParents {
            site: "P1".into(),
            backups: vec!["P2".into()],
        });
        ok(GslbAction::BackupParents {
            site: "P1".into(),
            backups: vec![],
        });
        ok(GslbAction::TopologyImport {
            cli: "add gslb site X 10.9.9.9\n".into(),
        });
        let field = |a: GslbAction| cfg.check_action(&a).err().and_then(|e| e.field());
        assert_eq!(
            field(GslbAction::SiteUp { site: "P9".into() }),
            Some("site")
        );
        assert_eq!(
            field(GslbAction::MepRestore {
                from: "P9".into(),
                to: "P1".into(),
                one_way: false
            }),
            Some("from")
        );
        assert_eq!(
            field(GslbAction::MepRestore {
                from: "P1".into(),
                to: "P9".into(),
                one_way: false
            }),
            Some("to")
        );
        assert_eq!(
            field(GslbAction::MepCut {
                from: "C1".into(),
                to: "C2".into(),
                one_way: false
            }),
            Some("to")
        );
        assert_eq!(
            field(GslbAction::BackupParents {
                site: "C1".into(),
                backups: vec![]
            }),
            Some("site")
        );
        assert_eq!(
            field(GslbAction::BackupParents {
                site: "P1".into(),
                backups: vec!["C2".into()]
            }),
            Some("backups")
        );
        assert_eq!(
            field(GslbAction::TopologyImport {
                cli: "add gslb site".into()
            }),
            Some("cli")
        );
        assert_eq!(
            cfg.check_action(&GslbAction::SiteDown { site: "P9".into() })
                .map_err(|e| e.to_string()),
            Err("unknown site \"P9\" (known: P1, P2, C1, C2)".to_owned())
        );
    }
}
