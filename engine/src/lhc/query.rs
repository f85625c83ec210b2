//! Read-only queries of the LHC engine for the console: resource locations, connectors, a
//! paged and filtered VDA listing, StoreFront (the view types are in `views`).

use std::collections::BTreeMap;

use super::connector::Component;
use super::engine::LhcEngine;
use super::model::Target;
use super::vdas::{code_connector, secondary_code, CLOUD, STALE, UNREGISTERED};
use super::views::{
    Broker, BrokerFilter, ComponentsView, ConnectorView, LocalDbView, RlView, RlWarning,
    StorefrontView, VdaPage, VdaQuery, VdaRow, VdaSort, MAX_PAGE,
};

impl LhcEngine {
    /// Every resource location, in file order.
    pub fn resource_locations(&self) -> Vec<RlView> {
        (0..self.rls.len()).map(|r| self.rl_view(r)).collect()
    }

    /// The resource location with this id.
    pub fn resource_location(&self, id: &str) -> Option<RlView> {
        self.rl_index(id).map(|r| self.rl_view(r))
    }

    fn target_name(&self, r: usize) -> String {
        let rl = &self.rls[r];
        match rl.target {
            Target::Hold => "hold".to_owned(),
            Target::Unregistered => "unregistered".to_owned(),
            Target::Cloud => "cloud".to_owned(),
            Target::Secondary(k) => self.connectors[rl.connectors[k]].fqdn.clone(),
        }
    }

    fn rl_target_code(&self, r: usize) -> Option<u16> {
        match self.rls[r].target {
            Target::Hold => None,
            Target::Unregistered => Some(UNREGISTERED),
            Target::Cloud => Some(CLOUD),
            Target::Secondary(k) => Some(secondary_code(k)),
        }
    }

    fn rl_view(&self, r: usize) -> RlView {
        let rl = &self.rls[r];
        let conns = || rl.connectors.iter().map(|c| &self.connectors[*c]);
        let secondary: BTreeMap<String, u32> = conns()
            .filter(|c| c.held > 0)
            .map(|c| (c.fqdn.clone(), c.held))
            .collect();
        let mut warnings: Vec<RlWarning> = self
            .static_warnings(r)
            .into_iter()
            .map(|(code, message)| RlWarning {
                code: code.to_owned(),
                message,
            })
            .collect();
        let forced = conns().filter(|c| c.forced).count();
        if forced > 0 && forced < rl.connectors.len() {
            warnings.push(RlWarning {
                code: "partial_forced_outage".to_owned(),
                message: format!(
                    "outage forced on {forced} of the {} connectors of \"{}\": force it on all of them to test the resource location",
                    rl.connectors.len(),
                    rl.id
                ),
            });
        }
        let reregistering = rl.sweep.as_ref().map_or(0, |s| {
            let moving = match self.rl_target_code(r) {
                Some(code) => rl.vda_count - self.count_at(r, code),
                None => 0,
            };
            moving.min(rl.vda_count - u32::try_from(s.done).unwrap_or(u32::MAX).min(rl.vda_count))
        });
        RlView {
            id: rl.id.clone(),
            name: rl.name.clone(),
            ha_state: rl.ha,
            ha_state_since_ms: rl.ha_since.as_millis(),
            ha_ready: rl.ha_ready,
            elected: self.elected_fqdn(r),
            candidates: rl
                .election
                .order
                .iter()
                .map(|k| self.connectors[rl.connectors[*k]].fqdn.clone())
                .collect(),
            connectors_up: conns().filter(|c| c.is_up()).count(),
            connectors_total: rl.connectors.len(),
            vdas_total: rl.vda_count,
            on_cloud: rl.cloud,
            on_secondary: secondary.values().sum(),
            secondary,
            unregistered: rl.unregistered,
            next_broker: self.target_name(r),
            reregistering,
            adc_vip_up: self.adc_vip_up(r),
            warnings,
        }
    }

    /// Every connector, by resource location then file order.
    pub fn connectors(&self) -> Vec<ConnectorView> {
        self.rls
            .iter()
            .flat_map(|rl| rl.connectors.iter().map(|c| self.connector_view(*c)))
            .collect()
    }

    /// The connectors of one resource location.
    pub fn connectors_of(&self, rl: &str) -> Option<Vec<ConnectorView>> {
        let r = self.rl_index(rl)?;
        Some(
            self.rls[r]
                .connectors
                .iter()
                .map(|c| self.connector_view(*c))
                .collect(),
        )
    }

    /// The connector with this FQDN (case-insensitive).
    pub fn connector(&self, fqdn: &str) -> Option<ConnectorView> {
        self.connector_index(fqdn).map(|c| self.connector_view(c))
    }

    fn connector_view(&self, c: usize) -> ConnectorView {
        let cc = &self.connectors[c];
        let rl = &self.rls[cc.rl];
        ConnectorView {
            fqdn: cc.fqdn.clone(),
            resource_location: rl.id.clone(),
            power: cc.power,
            components: ComponentsView {
                css: cc.component_ok(Component::Css),
                ha_service: cc.component_ok(Component::HaService),
                rbp: cc.component_ok(Component::Rbp),
            },
            storefront_configured: cc.storefront_configured,
            storefront_healthy: cc.sf_view,
            forced_outage: cc.forced,
            cloud_link_up: cc.link_up,
            cloud_lost: cc.cloud_lost,
            ha_state: cc.storefront_configured.then_some(cc.ha),
            ha_state_since_ms: cc.storefront_configured.then_some(cc.ha_since.as_millis()),
            failed_checks: cc.failed_checks(self.s.cloud_lost_after),
            localdb: LocalDbView {
                generation: cc.generation,
                last_sync_ms: cc.last_sync.as_millis(),
                importing: cc.import.map(|i| i.generation),
                cloud_generation: self.cloud_generation,
            },
            election_rank: rl.election.rank(cc.local),
            elected: rl.election.elected() == Some(cc.local),
            excluded_because: cc.exclusion().map(|e| e.text().to_owned()),
            registrations: cc.held,
            leftover_registrations: cc.leftover,
            known_sessions: cc.known_sessions,
            adc_monitor_up: cc.adc_up,
        }
    }

    /// Where VDA `v` is registered.
    fn broker_of(&self, v: u32, rl: usize) -> Broker {
        let code = self.vdas.broker[v as usize];
        if code & STALE != 0 || code == UNREGISTERED {
            return Broker::Unregistered;
        }
        if code == CLOUD {
            return Broker::Cloud;
        }
        code_connector(code)
            .and_then(|k| self.rls[rl].connectors.get(k))
            .map_or(Broker::Unregistered, |c| Broker::Secondary {
                fqdn: self.connectors[*c].fqdn.clone(),
            })
    }

    fn vda_row(&self, v: u32) -> Option<VdaRow> {
        let pool = self.vdas.pool_of(v)?;
        let g = v as usize;
        let rl = pool.rl;
        let code = self.vdas.broker[g];
        Some(VdaRow {
            name: pool.name(v),
            resource_location: self.rls[rl].id.clone(),
            pool: pool.prefix.clone(),
            kind: pool.kind,
            delivery_group: self
                .groups
                .get(pool.group)
                .map(|d| d.id.clone())
                .unwrap_or_default(),
            broker: self.broker_of(v, rl),
            sessions: self.vdas.sessions[g],
            max_sessions: pool.capacity,
            maintenance: self.vdas.maintenance[g],
            heartbeat_phase_ms: self.vdas.phase_ms(v),
            moves_at_next_heartbeat: self.rl_target_code(rl).is_some_and(|t| t != code),
        })
    }

    /// The VDA called `name` (case-insensitive prefix).
    pub fn vda(&self, name: &str) -> Option<VdaRow> {
        self.vda_row(self.vda_index(name)?)
    }

    /// A page of the VDA listing (in resource location, pool and number order).
    pub fn vdas(&self, q: &VdaQuery) -> VdaPage {
        let limit = q.limit.clamp(1, MAX_PAGE);
        let mut page = VdaPage {
            rows: Vec::new(),
            total: 0,
            offset: q.offset,
            limit,
        };
        let only_rl = match &q.resource_location {
            Some(id) => match self.rl_index(id) {
                Some(r) => Some(r),
                None => return page,
            },
            None => None,
        };
        // A secondary named by FQDN fixes the resource location and the code.
        let mut want_code: Option<u16> = None;
        let mut only_rl = only_rl;
        if let Some(BrokerFilter::Secondary { fqdn: Some(f) }) = &q.broker {
            let Some(c) = self.connector_index(f) else {
                return page;
            };
            let r = self.connectors[c].rl;
            if only_rl.is_some_and(|o| o != r) {
                return page;
            }
            only_rl = Some(r);
            want_code = Some(secondary_code(self.connectors[c].local));
        }
        let prefix = q.name_prefix.as_ref().map(|p| p.to_lowercase());
        // In name order the page is cut while scanning; another order keys every match.
        let by_name = q.sort == VdaSort::Name && !q.descending;
        // Each delivery group's place among the groups' ids, in id order (only to sort by group).
        let group_rank: Vec<u64> = if q.sort == VdaSort::DeliveryGroup {
            let mut ids: Vec<(&str, usize)> = self
                .groups
                .iter()
                .enumerate()
                .map(|(i, g)| (g.id.as_str(), i))
                .collect();
            ids.sort_unstable();
            let mut rank = vec![0; ids.len()];
            for (place, (_, i)) in ids.into_iter().enumerate() {
                rank[i] = place as u64;
            }
            rank
        } else {
            Vec::new()
        };
        let mut keyed: Vec<(u64, u32)> = Vec::new();
        for pool in &self.vdas.pools {
            if only_rl.is_some_and(|r| r != pool.rl) || q.kind.is_some_and(|k| k != pool.kind) {
                continue;
            }
            for v in pool.start..pool.start + pool.count {
                let g = v as usize;
                let code = self.vdas.broker[g];
                let registered = code & STALE == 0 && code != UNREGISTERED;
                let broker_ok = match &q.broker {
                    None => true,
                    Some(BrokerFilter::Cloud) => code == CLOUD,
                    Some(BrokerFilter::Unregistered) => !registered,
                    Some(BrokerFilter::Secondary { .. }) => {
                        registered && code != CLOUD && want_code.is_none_or(|w| w == code)
                    }
                };
                if !broker_ok
                    || q.in_use.is_some_and(|u| u != (self.vdas.sessions[g] > 0))
                    || q.maintenance.is_some_and(|m| m != self.vdas.maintenance[g])
                {
                    continue;
                }
                if let Some(p) = &prefix {
                    if !pool.name(v).to_lowercase().starts_with(p) {
                        continue;
                    }
                }
                if !by_name {
                    let key = match q.sort {
                        VdaSort::Name => u64::from(v),
                        VdaSort::Kind => name_key(pool.kind.as_str()),
                        // A VDA of a pool without a group (an empty id) comes first.
                        VdaSort::DeliveryGroup => group_rank.get(pool.group).map_or(0, |r| r + 1),
                        VdaSort::Broker => match code {
                            _ if !registered => 0,
                            CLOUD => 2,
                            _ => 1,
                        },
                        VdaSort::Sessions => u64::from(self.vdas.sessions[g]),
                        VdaSort::Maintenance => u64::from(self.vdas.maintenance[g]),
                        VdaSort::HeartbeatPhase => self.vdas.phase_ms(v),
                    };
                    keyed.push((key, v));
                } else if page.total >= q.offset && page.rows.len() < limit {
                    if let Some(row) = self.vda_row(v) {
                        page.rows.push(row);
                    }
                }
                page.total += 1;
            }
        }
        if !by_name {
            let order = |a: &(u64, u32), b: &(u64, u32)| {
                let column = if q.descending {
                    b.0.cmp(&a.0)
                } else {
                    a.0.cmp(&b.0)
                };
                column.then(a.1.cmp(&b.1))
            };
            // Only the rows up to the page's end need an order: select them, then sort those.
            let end = q.offset.saturating_add(limit);
            if end < keyed.len() {
                keyed.select_nth_unstable_by(end, order);
                keyed.truncate(end);
            }
            keyed.sort_unstable_by(order);
            page.rows = keyed
                .into_iter()
                .skip(q.offset)
                .filter_map(|(_, v)| self.vda_row(v))
                .collect();
        }
        page
    }

    /// StoreFront's view and the cloud configuration generation.
    pub fn storefront(&self) -> StorefrontView {
        StorefrontView {
            advanced_health_check: self.s.advanced_health_check,
            heartbeat_interval_ms: self.s.storefront_heartbeat.as_millis(),
            next_heartbeat_ms: self.sf_due.map(|t| t.as_millis()),
            healthy_connectors: self
                .connectors
                .iter()
                .filter(|c| c.sf_view == Some(true))
                .map(|c| c.fqdn.clone())
                .collect(),
            configured_connectors: self
                .connectors
                .iter()
                .filter(|c| c.storefront_configured)
                .count(),
            cloud_generation: self.cloud_generation,
            launches: self.launches,
        }
    }
}

/// A key that sorts names as their first eight bytes do (byte order): the kinds' names differ
/// within those, so the VDAs sort by kind name whatever the order the kinds are declared in.
fn name_key(name: &str) -> u64 {
    let mut bytes = [0u8; 8];
    for (b, n) in bytes.iter_mut().zip(name.bytes()) {
        *b = n;
    }
    u64::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::name_key;
    use crate::lhc::config::VdaKind;

    #[test]
    fn the_kinds_sort_by_their_names() {
        let mut kinds = [VdaKind::Static, VdaKind::PooledVdi, VdaKind::MultiSession];
        kinds.sort_by_key(|k| name_key(k.as_str()));
        assert_eq!(
            kinds.map(VdaKind::as_str),
            ["multi_session", "pooled_vdi", "static"]
        );
        let table = [("a", "b"), ("static", "statics"), ("", "a"), ("ab", "b")];
        for (low, high) in table {
            assert!(name_key(low) < name_key(high), "{low} < {high}");
        }
    }
}
