//! Look-ups in `[lhc]` (resource locations, connectors by FQDN, VDAs by name, published
//! resources) and the check of LHC actions against the configuration.

use super::check::list;
use super::lhc::{Connector, LhcConfig, ResourceLocation, VdaPool};
use crate::action::{Action, ActionError};

/// How many names an "unknown ..." error lists before `...`.
const LISTED: usize = 12;

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

/// Comma-separated names, at most [`LISTED`] of them.
fn some_of<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.collect();
    if all.len() > LISTED {
        format!("{}, ... ({} in all)", all[..LISTED].join(", "), all.len())
    } else {
        list(&all)
    }
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

    /// Checks that an LHC action names things this configuration defines (resource location,
    /// connector in that resource location, published resource, VDA). Actions of other
    /// engines pass. State-dependent conditions (already forced, already down, ...) are
    /// checked when the action runs.
    pub fn check_action(&self, action: &Action) -> Result<(), ActionError> {
        match action {
            Action::ForceOutage {
                resource_location,
                connector,
            }
            | Action::ClearOutage {
                resource_location,
                connector,
            }
            | Action::CloudLink {
                resource_location,
                connector,
                ..
            } => self.check_rl_connector(resource_location, connector.as_deref()),
            Action::ConnectorRestart { connector }
            | Action::ConnectorFail { connector, .. }
            | Action::ConnectorRecover { connector, .. } => {
                self.require_connector(connector).map(|_| ())
            }
            Action::TestLaunch { resource, user } => {
                if resource.trim().is_empty() {
                    return Err(ActionError::Blank("resource"));
                }
                if user.as_deref().is_some_and(|u| u.trim().is_empty()) {
                    return Err(ActionError::Blank("user"));
                }
                if !self.publishes(resource) {
                    return Err(ActionError::UnknownResource {
                        resource: resource.clone(),
                        known: some_of(self.resources().into_iter()),
                    });
                }
                Ok(())
            }
            Action::ConfigChange { description } => {
                if description.as_deref().is_some_and(|d| d.trim().is_empty()) {
                    return Err(ActionError::Blank("description"));
                }
                Ok(())
            }
            Action::VdaLogoff { vda } | Action::VdaMaintenance { vda, .. } => self
                .find_vda(vda)
                .map(|_| ())
                .ok_or_else(|| ActionError::UnknownVda(vda.clone())),
            // Actions of other engines are checked by their own sections.
            _ => Ok(()),
        }
    }

    /// The resource location exists and, if a connector is named, it belongs to it.
    fn check_rl_connector(&self, rl: &str, connector: Option<&str>) -> Result<(), ActionError> {
        let Some((i, _)) = self.resource_location(rl) else {
            return Err(ActionError::UnknownResourceLocation {
                resource_location: rl.to_owned(),
                known: some_of(self.resource_locations.iter().map(|r| r.id.as_str())),
            });
        };
        if let Some(fqdn) = connector {
            let (j, _, c) = self.require_connector(fqdn)?;
            if j != i {
                return Err(ActionError::ConnectorNotInLocation {
                    connector: c.fqdn.clone(),
                    resource_location: rl.to_owned(),
                    actual: self.resource_locations[j].id.clone(),
                });
            }
        }
        Ok(())
    }

    fn require_connector(&self, fqdn: &str) -> Result<(usize, usize, &Connector), ActionError> {
        self.connector(fqdn)
            .ok_or_else(|| ActionError::UnknownConnector {
                connector: fqdn.to_owned(),
                known: some_of(
                    self.resource_locations
                        .iter()
                        .flat_map(|rl| &rl.connectors)
                        .map(|c| c.fqdn.as_str()),
                ),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::lhc::{VdaKind, VdaPool};

    fn config() -> LhcConfig {
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

    #[test]
    fn checks_names_against_the_configuration() {
        let c = config();
        let force = |rl: &str, cc: Option<&str>| Action::ForceOutage {
            resource_location: rl.into(),
            connector: cc.map(str::to_owned),
        };
        assert_eq!(c.check_action(&force("a", Some("cc1.A.com"))), Ok(()));
        assert_eq!(
            c.check_action(&force("z", None)).map_err(|e| e.to_string()),
            Err("unknown resource location \"z\" (known: a, b)".into())
        );
        assert_eq!(
            c.check_action(&force("a", Some("cc1.b.com")))
                .map_err(|e| e.to_string()),
            Err(
                "connector \"cc1.b.com\" is not in resource location \"a\" (it is in \"b\")".into()
            )
        );
        let launch = Action::TestLaunch {
            resource: "Paint".into(),
            user: None,
        };
        assert_eq!(
            c.check_action(&launch).map_err(|e| e.to_string()),
            Err("unknown resource \"Paint\" (published: Word)".into())
        );
        let restart = Action::ConnectorRestart {
            connector: "cc9".into(),
        };
        assert!(c
            .check_action(&restart)
            .is_err_and(|e| e.field() == Some("connector")));
        let logoff = Action::VdaLogoff { vda: "A999".into() };
        assert_eq!(c.check_action(&logoff), Ok(()));
    }
}
