//! [`GslbEngine`]: construction from `[gslb]`, the [`Engine`] implementation and the order of
//! work at one instant (MEP flips, link events, orphans, adoption decisions, requests
//! reaching children).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::model::{Child, ClientLoc, Decision, Dir, Domain, Seen, Service, Site, Timer};
use super::version::SoftwareVersion;
use crate::clock::SimTime;
use crate::event::{EngineId, Event};
use crate::gslb::config::{GslbConfig, SiteRole};
use crate::rng::Rng;
use crate::step::Engine;

/// Key of the `adns.answered` log: (second, domain, answering parent, answer IP); an empty
/// answer means no service was available.
pub(crate) type LogKey = (u64, String, String, String);

/// The GSLB engine: parent and child sites, MEP links per direction, backup parents and
/// adoption, and the ADNS answers of the parents (SPEC §3). Read it through
/// [`topology`](Self::topology), [`site`](Self::site), [`client_locations`](Self::client_locations)
/// and [`preview_resolve`](Self::preview_resolve); change it through actions and
/// [`resolve`](Self::resolve).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GslbEngine {
    pub(crate) cfg: GslbConfig,
    pub(crate) rng: Rng,
    /// Parents first, then children, each in configuration order.
    pub(crate) sites: Vec<Site>,
    /// Number of parents (parents are site indexes `0..np`).
    pub(crate) np: usize,
    pub(crate) by_name: BTreeMap<String, u16>,
    /// Backup list of each parent (parent indexes).
    pub(crate) backups: Vec<Vec<u16>>,
    /// For each parent `y`: the parents whose backup list names `y`.
    pub(crate) backup_of: Vec<Vec<u16>>,
    /// Configured children of each parent (child indexes).
    pub(crate) kids: Vec<Vec<u16>>,
    pub(crate) children: Vec<Child>,
    /// `pp[r * np + s]`: parent `r`'s view of parent `s`.
    pub(crate) pp: Vec<Dir>,
    /// Cut directions (sender site, receiver site).
    pub(crate) cuts: BTreeSet<(u16, u16)>,
    pub(crate) timers: BTreeSet<(u64, Timer)>,
    /// (observer, down parent) → decision.
    pub(crate) decisions: BTreeMap<(u16, u16), Decision>,
    /// Requests in flight (parent, child).
    pub(crate) pending: BTreeSet<(u16, u16)>,
    pub(crate) locations: Vec<ClientLoc>,
    pub(crate) domains: Vec<Domain>,
    /// Round-robin position of each domain.
    pub(crate) rr: Vec<u64>,
    /// Answers waiting to be logged.
    pub(crate) log: BTreeMap<LogKey, u32>,
    pub(crate) adoptions: u64,
    pub(crate) rejections: u64,
    /// Topology imports so far: the sites and links flap detection watches change with it.
    pub(crate) topology_generation: u64,
    pub(crate) dns_answered: u64,
    /// The last instant processed (ms).
    pub(crate) now: u64,
}

/// An event of this engine at `t` ms.
pub(crate) fn ev(t: u64, subject: &str, kind: &str, details: Value) -> Event {
    Event::new(SimTime(t), EngineId::Gslb, subject, kind, details)
}

impl GslbEngine {
    /// The engine at the start of a run: every site up, every MEP link seen up, every child
    /// with its configured parent. It draws from `rng.fork("gslb")`: the connection model of
    /// each service (`service/<site>/<service>`) and the RTT offsets (`rtt/...`, `link/...`).
    pub fn new(config: &GslbConfig, rng: &Rng) -> GslbEngine {
        GslbEngine::build(config, rng.fork("gslb"), 0)
    }

    /// A fresh engine for `config` at `t` ms with the engine's own stream `rng`.
    pub(crate) fn build(config: &GslbConfig, rng: Rng, t: u64) -> GslbEngine {
        let parents: Vec<usize> = (0..config.sites.len())
            .filter(|&i| config.sites[i].role == SiteRole::Parent)
            .collect();
        let childs: Vec<usize> = (0..config.sites.len())
            .filter(|&i| config.sites[i].role == SiteRole::Child)
            .collect();
        let order: Vec<usize> = parents.iter().chain(&childs).copied().collect();
        let np = parents.len();
        let mut by_name = BTreeMap::new();
        for (k, &i) in order.iter().enumerate() {
            by_name.insert(config.sites[i].name.clone(), idx(k));
        }
        let mut sites: Vec<Site> = Vec::with_capacity(order.len());
        for &i in &order {
            let sc = &config.sites[i];
            let location = match (&sc.location, sc.role, &sc.parent) {
                (Some(l), _, _) => l.clone(),
                (None, SiteRole::Parent, _) | (None, SiteRole::Child, None) => sc.name.clone(),
                (None, SiteRole::Child, Some(p)) => {
                    let parent_loc = config
                        .site(p)
                        .and_then(|ps| ps.location.clone())
                        .unwrap_or_else(|| p.clone());
                    format!("{parent_loc}.{}", sc.name)
                }
            };
            let mut services: Vec<Service> = sc
                .services
                .iter()
                .map(|s| Service {
                    name: s.name.clone(),
                    answer_ip: s.public_ip.unwrap_or(s.ip),
                    port: s.port,
                    monitor: s.monitor,
                    base: 0,
                    answers: 0,
                })
                .collect();
            if services.is_empty() {
                services.push(Service {
                    name: format!("svc-{}", sc.name),
                    answer_ip: sc.public_ip.unwrap_or(sc.ip),
                    port: 80,
                    monitor: true,
                    base: 0,
                    answers: 0,
                });
            }
            for s in &mut services {
                let mut r = rng.fork(&format!("service/{}/{}", sc.name, s.name));
                s.base = 10 + u32::try_from(r.below(191)).unwrap_or(0);
            }
            sites.push(Site {
                name: sc.name.clone(),
                ip: sc.ip,
                public_ip: sc.public_ip,
                role: sc.role,
                version_text: sc.version.clone(),
                version: SoftwareVersion::parse(&sc.version).unwrap_or(SoftwareVersion {
                    major: 0,
                    minor: 0,
                    build: 0,
                }),
                location,
                up: true,
                since: t,
                services,
            });
        }
        let parent_of = |name: &str| by_name.get(name).copied().filter(|&p| usize::from(p) < np);
        let backups: Vec<Vec<u16>> = parents
            .iter()
            .map(|&i| {
                config.sites[i]
                    .backup_parents
                    .iter()
                    .filter_map(|b| parent_of(b))
                    .collect()
            })
            .collect();
        let mut kids: Vec<Vec<u16>> = vec![Vec::new(); np];
        let mut children = Vec::with_capacity(childs.len());
        for (c, &i) in childs.iter().enumerate() {
            let original = config.sites[i]
                .parent
                .as_deref()
                .and_then(parent_of)
                .unwrap_or(0);
            if let Some(list) = kids.get_mut(usize::from(original)) {
                list.push(idx(c));
            }
            let list = backups
                .get(usize::from(original))
                .cloned()
                .unwrap_or_default();
            children.push(Child {
                original,
                current: (np > 0).then_some(original),
                sees_parent: Dir::up(t),
                parent_sees: Dir::up(t),
                backups: list,
                learning_until: None,
            });
        }
        let mut engine = GslbEngine {
            cfg: config.clone(),
            rng,
            sites,
            np,
            by_name,
            backup_of: Vec::new(),
            backups,
            kids,
            children,
            pp: vec![Dir::up(t); np * np],
            cuts: BTreeSet::new(),
            timers: BTreeSet::new(),
            decisions: BTreeMap::new(),
            pending: BTreeSet::new(),
            locations: Vec::new(),
            domains: Vec::new(),
            rr: vec![0; config.domains.len()],
            log: BTreeMap::new(),
            adoptions: 0,
            rejections: 0,
            topology_generation: 0,
            dns_answered: 0,
            now: t,
        };
        engine.rebuild_backup_of();
        engine.locations = engine.build_locations();
        engine.domains = engine.build_domains();
        engine
    }

    /// Recomputes the reverse index of the backup lists.
    pub(crate) fn rebuild_backup_of(&mut self) {
        let mut of = vec![Vec::new(); self.np];
        for (p, list) in self.backups.iter().enumerate() {
            for &b in list {
                if let Some(v) = of.get_mut(usize::from(b)) {
                    v.push(idx(p));
                }
            }
        }
        self.backup_of = of;
    }

    fn build_domains(&self) -> Vec<Domain> {
        let all: Vec<(u16, u16)> = self
            .sites
            .iter()
            .enumerate()
            .flat_map(|(s, site)| (0..site.services.len()).map(move |k| (idx(s), idx(k))))
            .collect();
        self.cfg
            .domains
            .iter()
            .map(|d| {
                let services = if d.services.is_empty() {
                    all.clone()
                } else {
                    d.services
                        .iter()
                        .filter_map(|name| {
                            all.iter().copied().find(|&(s, k)| {
                                self.sites[usize::from(s)].services[usize::from(k)].name == *name
                            })
                        })
                        .collect()
                };
                Domain { services }
            })
            .collect()
    }

    /// Health tick in ms.
    pub(crate) fn health_ms(&self) -> u64 {
        self.cfg.mep_health_interval.as_millis().max(1)
    }

    /// Site index of child `c`.
    pub(crate) fn child_site(&self, c: u16) -> u16 {
        idx(self.np + usize::from(c))
    }

    /// Name of site `s`.
    pub(crate) fn name(&self, s: u16) -> &str {
        self.sites
            .get(usize::from(s))
            .map_or("(unknown)", |x| x.name.as_str())
    }

    /// Whether site `s` is up.
    pub(crate) fn is_up(&self, s: u16) -> bool {
        self.sites.get(usize::from(s)).is_some_and(|x| x.up)
    }

    /// Parent `r`'s view of parent `s` (itself: up).
    pub(crate) fn sees(&self, r: u16, s: u16) -> Seen {
        if r == s {
            return Seen::Up;
        }
        self.pp
            .get(usize::from(r) * self.np + usize::from(s))
            .map_or(Seen::Unknown, |d| d.seen)
    }

    /// The earliest instant with work.
    fn wakeup(&self) -> Option<u64> {
        let timer = self.timers.first().map(|(t, _)| *t);
        let log = self.log.keys().next().map(|(sec, ..)| (sec + 1) * 1000);
        timer.into_iter().chain(log).min()
    }

    /// Everything due at `t`, in the fixed order: answer logs, then rounds of (MEP flips →
    /// link events → orphans → adoption decisions → requests reaching children) until nothing
    /// more is due at `t`.
    fn run_instant(&mut self, t: u64, out: &mut Vec<Event>) {
        self.now = t;
        self.flush_log(t, out);
        loop {
            let mut due = Vec::new();
            while let Some(&(at, timer)) = self.timers.first() {
                if at > t {
                    break;
                }
                self.timers.remove(&(at, timer));
                due.push((at, timer));
            }
            if due.is_empty() {
                break;
            }
            self.process(t, &due, out);
        }
    }

    /// One round of due timers at `t`.
    fn process(&mut self, t: u64, due: &[(u64, Timer)], out: &mut Vec<Event>) {
        let mut links: BTreeSet<(u16, u16)> = BTreeSet::new();
        let mut observers: BTreeSet<(u16, u16)> = BTreeSet::new();
        let mut maybe_orphans: BTreeSet<u16> = BTreeSet::new();
        let mut offers: Vec<(u16, u16)> = Vec::new();
        for &(at, timer) in due {
            match timer {
                Timer::Peer { receiver, sender } => {
                    if self.fire(timer, at) {
                        links.insert(pair(receiver, sender));
                        observers.insert((receiver, sender));
                    }
                }
                Timer::ChildSees { child } | Timer::ParentSees { child } => {
                    if self.fire(timer, at) {
                        if let Some(p) = self.children[usize::from(child)].current {
                            links.insert((p, self.child_site(child)));
                        }
                        if matches!(timer, Timer::ChildSees { .. }) {
                            maybe_orphans.insert(child);
                        }
                    }
                }
                Timer::LearningEnds { child } => self.learning_ends(child, at, out),
                Timer::Offer { parent, child } => offers.push((parent, child)),
            }
        }
        for &(a, b) in &links {
            let e = self.link_event(t, a, b, None);
            out.push(e);
        }
        let mut orphans = Vec::new();
        for c in maybe_orphans {
            let child = &self.children[usize::from(c)];
            if child.current.is_some() && child.sees_parent.seen == Seen::Down {
                self.orphan(c, t, out);
                orphans.push(c);
            }
        }
        for (x, y) in observers {
            if self.is_up(x) {
                self.reevaluate(x, y, t, out);
            }
        }
        if !orphans.is_empty() {
            self.retry_for(&orphans, t, "the child lost its parent", out);
        }
        for (p, c) in offers {
            self.arrive(p, c, t, out);
        }
    }
}

/// A `u16` index (the limits keep every index far below).
pub(crate) fn idx(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}

/// The link key of two parents: the lower index first.
pub(crate) fn pair(a: u16, b: u16) -> (u16, u16) {
    (a.min(b), a.max(b))
}

impl Engine for GslbEngine {
    fn id(&self) -> EngineId {
        EngineId::Gslb
    }

    fn next_wakeup(&self) -> Option<SimTime> {
        self.wakeup().map(SimTime)
    }

    fn advance(&mut self, now: SimTime, out: &mut Vec<Event>) {
        while let Some(t) = self.wakeup().filter(|t| *t <= now.as_millis()) {
            self.run_instant(t, out);
        }
        self.now = self.now.max(now.as_millis());
    }
}
