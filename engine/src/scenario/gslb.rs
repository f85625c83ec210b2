//! `[gslb]`: GSLB parent-child topology over MEP (SPEC §3): sites and domains.

use core::net::IpAddr;

use serde::{Deserialize, Serialize};

use super::check::{fail, non_empty, unique};
use super::error::{ConfigError, FieldPath};
use super::Warning;

/// Most parent sites in a parent-child topology [seed 003].
pub const MAX_PARENTS: usize = 32;
/// Most child sites in a parent-child topology [seed 003].
pub const MAX_CHILDREN: usize = 1024;
/// Most backup parents of one parent [seed 003].
pub const MAX_BACKUP_PARENTS: usize = 5;

/// `[gslb]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GslbConfig {
    /// `[[gslb.sites]]`.
    pub sites: Vec<SiteConfig>,
    /// `[[gslb.domains]]`.
    pub domains: Vec<DomainConfig>,
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

impl GslbConfig {
    fn is_parent(&self, name: &str) -> bool {
        self.sites
            .iter()
            .any(|s| s.name == name && s.role == SiteRole::Parent)
    }

    fn parent_names(&self) -> String {
        let names: Vec<&str> = self
            .sites
            .iter()
            .filter(|s| s.role == SiteRole::Parent)
            .map(|s| s.name.as_str())
            .collect();
        super::check::list(&names)
    }

    /// Checks names and IPs, roles and parents, backup lists, topology limits and domains.
    pub fn validate(&self) -> Result<(), ConfigError> {
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
