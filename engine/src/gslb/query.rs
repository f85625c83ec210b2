//! Read-only queries for the console; each returns a type of [`views`](super::views).

use super::engine::GslbEngine;
use super::model::Seen;
use super::net::distance;
use super::version::initiator;
use super::views::{
    ClientLocationView, DirectionView, DomainView, GslbSettingView, LinkKind, LinkView, MepStatus,
    ServiceView, SiteView, TopologyView,
};
use crate::gslb::config::{SiteRole, MAX_BACKUP_PARENTS, MAX_CHILDREN, MAX_PARENTS};

impl GslbEngine {
    /// The whole topology now: sites (parents first, then children, each in configuration
    /// order), links (the parent mesh, then each child's link to its current parent),
    /// domains, settings and counters.
    pub fn topology(&self) -> TopologyView {
        let sites = (0..self.sites.len())
            .map(|s| self.site_view(super::engine::idx(s)))
            .collect();
        let links = self.links();
        let domains = self
            .cfg
            .domains
            .iter()
            .map(|d| DomainView {
                name: d.name.clone(),
                method: d.method,
                ttl_s: d.ttl_s,
            })
            .collect();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        TopologyView {
            sites,
            links,
            domains,
            settings: self.settings(),
            parents_up: count(self.sites[..self.np].iter().filter(|s| s.up).count()),
            parents_total: count(self.np),
            children_total: count(self.children.len()),
            children_adopted: count(
                self.children
                    .iter()
                    .filter(|c| c.current.is_some_and(|p| p != c.original))
                    .count(),
            ),
            children_orphaned: count(self.children.iter().filter(|c| c.current.is_none()).count()),
            adoptions: self.adoptions,
            rejections: self.rejections,
            dns_answered: self.dns_answered,
        }
    }

    /// Every MEP link now, in the topology's order: the parent mesh, then each child's link
    /// to its current parent (an orphaned child has none).
    pub fn links(&self) -> Vec<LinkView> {
        let mut links = Vec::new();
        for a in 0..self.np {
            for b in a + 1..self.np {
                links.push(self.link_view(super::engine::idx(a), super::engine::idx(b)));
            }
        }
        for (c, child) in self.children.iter().enumerate() {
            if let Some(p) = child.current {
                links.push(self.link_view(p, self.child_site(super::engine::idx(c))));
            }
        }
        links
    }

    /// One site now.
    pub fn site(&self, name: &str) -> Option<SiteView> {
        self.by_name.get(name).map(|&s| self.site_view(s))
    }

    /// Client locations known to static proximity and RTT (configured, or one per parent).
    pub fn client_locations(&self) -> Vec<ClientLocationView> {
        self.locations
            .iter()
            .map(|l| {
                let nearest = (0..self.sites.len())
                    .map(|s| (distance(&self.sites[s].location, &l.location), s))
                    .min()
                    .map(|(_, s)| self.sites[s].name.clone());
                ClientLocationView {
                    name: l.name.clone(),
                    network: l.network.to_string(),
                    sample_ip: l.network.sample().to_string(),
                    nearest_site: nearest,
                }
            })
            .collect()
    }

    /// The topology as the product's CLI text (see [`export_cli`](super::cli::export_cli)).
    pub fn export_cli(&self) -> String {
        super::cli::export_cli(&self.cfg)
    }

    /// The configuration in force (changed by backup-list actions and imports).
    pub fn config(&self) -> &crate::gslb::config::GslbConfig {
        &self.cfg
    }

    fn site_view(&self, s: u16) -> SiteView {
        let site = &self.sites[usize::from(s)];
        let np = self.np;
        let parent = usize::from(s) < np;
        let child = (!parent).then(|| &self.children[usize::from(s) - np]);
        let mep_status = match child {
            _ if !site.up => MepStatus::Down,
            None => {
                let peers = (0..np).filter(|&q| q != usize::from(s));
                let mut any = false;
                let mut seen = false;
                for q in peers {
                    any = true;
                    let q = super::engine::idx(q);
                    seen |= self.is_up(q) && self.sees(q, s) == Seen::Up;
                }
                if seen || !any {
                    MepStatus::Active
                } else {
                    MepStatus::Down
                }
            }
            Some(c) => match c.current {
                None => MepStatus::Down,
                Some(_) if c.learning_until.is_some() => MepStatus::Inactive,
                Some(p) if self.is_up(p) && c.parent_sees.seen == Seen::Up => MepStatus::Active,
                Some(_) => MepStatus::Down,
            },
        };
        let peer_view = match child {
            None => (0..np)
                .filter(|&q| q != usize::from(s))
                .map(|q| {
                    let q = super::engine::idx(q);
                    (
                        self.name(q).to_owned(),
                        site.up && self.sees(s, q) == Seen::Up,
                    )
                })
                .collect(),
            Some(c) => c
                .current
                .map(|p| {
                    (
                        self.name(p).to_owned(),
                        site.up && c.sees_parent.seen == Seen::Up,
                    )
                })
                .into_iter()
                .collect(),
        };
        let services = site
            .services
            .iter()
            .enumerate()
            .map(|(k, svc)| {
                let up = site.up
                    && (0..np).any(|a| {
                        let a = super::engine::idx(a);
                        self.is_up(a) && self.service_state(a, s, svc.monitor).0
                    });
                ServiceView {
                    name: svc.name.clone(),
                    ip: svc.answer_ip.to_string(),
                    port: svc.port,
                    up,
                    connections: self.connections(s, k),
                }
            })
            .collect();
        SiteView {
            name: site.name.clone(),
            ip: site.ip.to_string(),
            public_ip: site.public_ip.map(|ip| ip.to_string()),
            role: site.role,
            version: site.version_text.clone(),
            up: site.up,
            configured_parent: child.map(|c| self.name(c.original).to_owned()),
            current_parent: child.and_then(|c| c.current.map(|p| self.name(p).to_owned())),
            backup_parents: match child {
                None => self.names_of(&self.backups[usize::from(s)]),
                Some(c) => self.names_of(&c.backups),
            },
            mep_status,
            peer_view,
            children: if parent {
                self.child_names(&self.hosted(s))
            } else {
                Vec::new()
            },
            services,
            learning_until_ms: child.and_then(|c| c.learning_until),
            since_ms: site.since,
        }
    }

    fn link_view(&self, a: u16, b: u16) -> LinkView {
        let (sa, sb) = (&self.sites[usize::from(a)], &self.sites[usize::from(b)]);
        let parent_child = sb.role == SiteRole::Child;
        let rule = initiator(sa.ip, sa.version, sb.ip, sb.version, parent_child);
        let dir = |from: u16, to: u16| {
            let (delivering, seen, since) = self.direction(from, to);
            DirectionView {
                delivering,
                seen_up: seen == Seen::Up,
                since_ms: since,
            }
        };
        let (ab, ba) = (dir(a, b), dir(b, a));
        let status = match (ab.seen_up, ba.seen_up) {
            (true, true) => MepStatus::Active,
            (false, false) => MepStatus::Down,
            _ => MepStatus::Inactive,
        };
        let rtt = (status == MepStatus::Active).then(|| {
            let offset = self
                .rng
                .fork(&format!("link/{}/{}", sa.name, sb.name))
                .below(10);
            let d = distance(&sa.location, &sb.location).min(1000);
            f64::from(5 + 30 * d) + offset as f64
        });
        LinkView {
            a: sa.name.clone(),
            b: sb.name.clone(),
            kind: if parent_child {
                LinkKind::ParentChild
            } else {
                LinkKind::ParentParent
            },
            initiator: if rule.a {
                sa.name.clone()
            } else {
                sb.name.clone()
            },
            initiator_rule: rule.rule.to_owned(),
            a_to_b: ab,
            b_to_a: ba,
            status,
            rtt_ms: rtt,
        }
    }

    fn settings(&self) -> Vec<GslbSettingView> {
        let c = &self.cfg;
        let setting = |key: &str, label: &str, value: String, documented: bool| GslbSettingView {
            key: key.to_owned(),
            label: label.to_owned(),
            value,
            source: if documented { "documented" } else { "assumed" }.to_owned(),
        };
        vec![
            setting("mep_port", "MEP port (secure MEP: 3009)", "3011".into(), true),
            setting(
                "mep_health_interval",
                "health metrics exchanged every",
                c.mep_health_interval.to_string(),
                true,
            ),
            setting(
                "mep_metrics_interval",
                "network metrics (RTT) and persistence sessions exchanged among parents every",
                c.mep_metrics_interval.to_string(),
                true,
            ),
            setting(
                "mep_keepalive_timeout",
                "MEP to a site is DOWN after no packet for",
                c.mep_keepalive_timeout.to_string(),
                true,
            ),
            setting(
                "learning_time",
                "adopted children's services ignore MEP state for",
                c.learning_time.to_string(),
                true,
            ),
            setting(
                "adoption_delay",
                "a backup parent connects to a child and sends the list in",
                c.adoption_delay.to_string(),
                false,
            ),
            setting("max_parents", "parent sites at most", MAX_PARENTS.to_string(), true),
            setting("max_children", "child sites at most", MAX_CHILDREN.to_string(), true),
            setting(
                "max_backup_parents",
                "backup parents per parent at most",
                MAX_BACKUP_PARENTS.to_string(),
                true,
            ),
            setting(
                "answering_parent",
                "an ADNS query is answered by",
                "the up parent nearest the client location (the first up parent when the client is in none)".into(),
                false,
            ),
            setting("answer_ips", "addresses per answer", "1".into(), true),
            setting(
                "connections",
                "connections of a service",
                "a seeded mean of 10 to 200, varying between 0.5x and 1.5x over an hour".into(),
                false,
            ),
            setting(
                "rtt_model",
                "RTT from a site to a client location",
                "5 ms + 30 ms per differing location qualifier + a seeded 0 to 9 ms (unless rtt_ms overrides)".into(),
                false,
            ),
            setting(
                "default_service",
                "a site without services has",
                "one service svc-<site>, port 80, on its public IP (else its IP), monitor bound".into(),
                false,
            ),
            setting(
                "client_locations",
                "client locations",
                if c.client_locations.is_empty() {
                    "derived: clients-<parent> = 198.18.<n>.0/24 at the parent's location".into()
                } else {
                    format!("{} configured", c.client_locations.len())
                },
                !c.client_locations.is_empty(),
            ),
        ]
    }
}
