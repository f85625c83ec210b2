//! [`LhcEngine`]: construction, the [`Engine`] implementation and the per-resource-location
//! processing order of one instant.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::config::{DeliveryGroup, LhcConfig, MAX_HA_VDAS_PER_RL};
use super::connector::{ConnectorState, Power};
use super::election::elect;
use super::ha_state::HaState;
use super::model::{grid_after, RlState, Settings, Target};
use super::vdas::{contact_after, Vdas};
use crate::clock::{SimDuration, SimTime};
use crate::event::{EngineId, Event};
use crate::rng::Rng;
use crate::step::Engine;

/// The Local Host Cache / HA engine: every resource location, connector and VDA of `[lhc]`.
///
/// Read it through the query methods ([`resource_locations`](Self::resource_locations),
/// [`connectors`](Self::connectors), [`vdas`](Self::vdas), ...); change it only through
/// actions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LhcEngine {
    pub(crate) config: LhcConfig,
    pub(crate) s: Settings,
    pub(crate) rls: Vec<RlState>,
    pub(crate) connectors: Vec<ConnectorState>,
    pub(crate) vdas: Vdas,
    pub(crate) groups: Vec<DeliveryGroup>,
    /// Generation of the configuration in the cloud (LocalDB generations follow it).
    pub(crate) cloud_generation: u64,
    pub(crate) sf_phase: SimDuration,
    pub(crate) sf_due: Option<SimTime>,
    /// Launches so far (StoreFront's round robin).
    pub(crate) launches: u64,
    pub(crate) started: bool,
    pub(crate) wakeup: Option<SimTime>,
}

/// An event of this engine.
pub(crate) fn ev(now: SimTime, subject: &str, kind: &str, details: Value) -> Event {
    Event::new(now, EngineId::Lhc, subject, kind, details)
}

impl LhcEngine {
    /// The engine at the start of a run. It draws from `rng.fork("lhc")`, forked again per
    /// pool (`pool/<prefix>`: heartbeat phases and starting sessions), per connector
    /// (`connector/<fqdn lower-case>`: CSS poll offset) and for `storefront` (heartbeat
    /// offset), so adding one never perturbs another.
    pub fn new(config: &LhcConfig, rng: &Rng) -> LhcEngine {
        let rng = rng.fork("lhc");
        let s = Settings::new(config);
        let mut connectors = Vec::new();
        let mut vdas = Vdas::default();
        let mut rls = Vec::new();
        for (i, rl) in config.resource_locations.iter().enumerate() {
            let mut ids = Vec::new();
            for (j, c) in rl.connectors.iter().enumerate() {
                let mut stream = rng.fork(&format!("connector/{}", c.fqdn.to_lowercase()));
                let css_phase = SimDuration(stream.below(s.css_poll.as_millis()));
                ids.push(connectors.len());
                connectors.push(ConnectorState {
                    fqdn: c.fqdn.clone(),
                    rl: i,
                    local: j,
                    storefront_configured: c.storefront_configured,
                    power: Power::Up,
                    css_ok: true,
                    ha_ok: true,
                    rbp_ok: true,
                    forced: false,
                    link_up: true,
                    link_down_since: None,
                    cloud_lost: false,
                    ha: HaState::WorkingNormally,
                    ha_since: SimTime::ZERO,
                    generation: 1,
                    last_sync: SimTime::ZERO,
                    import: None,
                    css_due: None,
                    css_phase,
                    sf_view: c.storefront_configured.then_some(true),
                    adc_up: true,
                    held: 0,
                    leftover: 0,
                    known_sessions: 0,
                });
            }
            let vda_start = u32::try_from(vdas.len()).unwrap_or(u32::MAX);
            for pool in &rl.vda_pools {
                let group = config
                    .delivery_groups
                    .iter()
                    .position(|g| g.id == pool.delivery_group)
                    .unwrap_or(0);
                let mut stream = rng.fork(&format!("pool/{}", pool.prefix));
                vdas.add_pool(pool, i, group, s.vda_period.as_millis(), &mut stream);
            }
            let vda_count = u32::try_from(vdas.len()).unwrap_or(u32::MAX) - vda_start;
            let mut order: Vec<u32> = (0..vda_count).collect();
            order.sort_unstable_by_key(|v| (vdas.phase_s[(vda_start + v) as usize], *v));
            let members: Vec<(&str, _)> = ids
                .iter()
                .map(|c: &usize| (connectors[*c].fqdn.as_str(), connectors[*c].exclusion()))
                .collect();
            let election = elect(&members);
            rls.push(RlState {
                id: rl.id.clone(),
                name: rl.name.clone(),
                ha_ready: rl.connectors.iter().any(|c| c.storefront_configured),
                connectors: ids,
                ha: HaState::WorkingNormally,
                ha_since: SimTime::ZERO,
                election,
                vda_start,
                vda_count,
                order,
                target: Target::Cloud,
                sweep: None,
                cloud: vda_count,
                unregistered: 0,
                check_due: None,
                next_due: None,
                moves: Default::default(),
                published: None,
                partial_forced: false,
            });
        }
        let sf_phase = SimDuration(
            rng.fork("storefront")
                .below(s.storefront_heartbeat.as_millis()),
        );
        LhcEngine {
            config: config.clone(),
            s,
            rls,
            connectors,
            vdas,
            groups: config.delivery_groups.clone(),
            cloud_generation: 1,
            sf_phase,
            sf_due: None,
            launches: 0,
            started: false,
            wakeup: None,
        }
    }

    /// The initial events at t = 0: configuration warnings, the first election and the
    /// registration counts of every resource location.
    pub(crate) fn start(&mut self, out: &mut Vec<Event>) {
        if self.started {
            return;
        }
        let now = SimTime::ZERO;
        for r in 0..self.rls.len() {
            for (code, message) in self.static_warnings(r) {
                let details = json!({ "code": code, "message": message });
                out.push(ev(now, &self.rls[r].id, "rl.warning", details));
            }
            self.emit_election(r, now, "initial election", None, out);
            self.flush(r, now, out);
        }
        self.started = true;
        self.refresh_wakeup();
    }

    /// Configuration warnings of a resource location: (code, message).
    pub(crate) fn static_warnings(&self, r: usize) -> Vec<(&'static str, String)> {
        let rl = &self.rls[r];
        let mut out = Vec::new();
        if !rl.ha_ready {
            out.push((
                "not_ha_ready",
                format!("resource location \"{}\" is not HA-ready: no connector is configured in StoreFront, so it loses capacity in an outage", rl.id),
            ));
        }
        if rl.connectors.len() == 1 {
            out.push((
                "single_connector",
                format!("resource location \"{}\" has a single connector (Citrix recommends at least 2)", rl.id),
            ));
        }
        if u64::from(rl.vda_count) > MAX_HA_VDAS_PER_RL {
            out.push((
                "over_sizing_limit",
                format!(
                    "resource location \"{}\" has {} VDAs; HA mode supports at most {MAX_HA_VDAS_PER_RL}",
                    rl.id, rl.vda_count
                ),
            ));
        }
        out
    }

    /// Everything due for resource location `r` at `now`, in a fixed order: connector timers
    /// (restarts, cloud lost, CSS), health check, aggregated state, target broker, VDA
    /// contacts, ADC monitor, then the aggregated registration events.
    pub(crate) fn process_rl(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        self.connector_timers(r, now, out);
        if self.rls[r].check_due.is_some_and(|t| t <= now) {
            self.rls[r].check_due = None;
            self.run_checks(r, now, out);
        }
        self.refresh_aggregate(r, now, out);
        self.update_target(r, now, out);
        self.run_sweep(r, now);
        self.update_adc(r, now, out);
        self.flush(r, now, out);
        self.storefront_mark(r, now);
        self.schedule_rl(r, now);
    }

    /// Restarts that complete, clouds that become lost, CSS polls and imports.
    fn connector_timers(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        let ids = self.rls[r].connectors.clone();
        for c in ids {
            if let Power::Restarting { until_ms } = self.connectors[c].power {
                if until_ms <= now.as_millis() {
                    self.bring_up(c, now, "restart complete", out);
                }
            }
            let cc = &self.connectors[c];
            if let (false, Some(since)) = (cc.cloud_lost, cc.link_down_since) {
                if since.saturating_add(self.s.cloud_lost_after) <= now {
                    self.connectors[c].cloud_lost = true;
                    let details = json!({
                        "down_since_ms": since.as_millis(),
                        "reason": format!("no successful connection to the cloud broker for {} (cloud_lost_after)", self.s.cloud_lost_after),
                        "resource_location": self.rls[r].id,
                    });
                    out.push(ev(
                        now,
                        &self.connectors[c].fqdn,
                        "connector.cloud_lost",
                        details,
                    ));
                    self.rls[r].want_check(now, self.s.health_check);
                }
            }
            self.css_timers(c, now, out);
        }
    }

    /// Brings a connector back up with every component healthy; it joins the state of its
    /// resource location and the election runs again.
    pub(crate) fn bring_up(&mut self, c: usize, now: SimTime, why: &str, out: &mut Vec<Event>) {
        let r = self.connectors[c].rl;
        let rl_ha = self.rls[r].ha;
        let since = self.rls[r].ha_since;
        let cc = &mut self.connectors[c];
        cc.power = Power::Up;
        cc.css_ok = true;
        cc.ha_ok = true;
        cc.rbp_ok = true;
        let joined = cc.storefront_configured && cc.ha != rl_ha;
        let previous = cc.ha;
        if cc.storefront_configured {
            cc.ha = rl_ha;
            cc.ha_since = since;
        }
        let details = json!({
            "reason": why,
            "resource_location": self.rls[r].id,
        });
        out.push(ev(now, &self.connectors[c].fqdn, "connector.up", details));
        if joined {
            let details = json!({
                "failed_checks": Vec::<String>::new(),
                "from": previous.as_str(),
                "reason": "back up: joins the state of its resource location (health exchanged with its peers)",
                "resource_location": self.rls[r].id,
                "to": rl_ha.as_str(),
            });
            out.push(ev(
                now,
                &self.connectors[c].fqdn,
                "connector.ha_state",
                details,
            ));
        }
        let reason = format!("{} is back up", self.connectors[c].fqdn);
        self.run_election(r, now, &reason, out);
        self.rls[r].want_check(now, self.s.health_check);
        self.css_refresh(c, now);
    }

    /// Recomputes when resource location `r` next has work.
    pub(crate) fn schedule_rl(&mut self, r: usize, now: SimTime) {
        let rl = &self.rls[r];
        let mut due = rl.check_due;
        let mut take = |t: Option<SimTime>| {
            if let Some(t) = t {
                due = Some(due.map_or(t, |d| d.min(t)));
            }
        };
        take(self.sweep_next(r));
        for &c in &rl.connectors {
            let cc = &self.connectors[c];
            if let Power::Restarting { until_ms } = cc.power {
                take(Some(SimTime(until_ms)));
            }
            if !cc.cloud_lost {
                take(
                    cc.link_down_since
                        .map(|t| t.saturating_add(self.s.cloud_lost_after)),
                );
            }
            take(cc.css_due);
            take(cc.import.map(|i| i.done_at));
        }
        debug_assert!(
            due.is_none_or(|d| d > now),
            "rl {} due again at {now}",
            rl.id
        );
        self.rls[r].next_due = due.map(|d| d.max(SimTime(now.as_millis() + 1)));
    }

    /// When the next VDA of the current sweep contacts its broker.
    pub(crate) fn sweep_next(&self, r: usize) -> Option<SimTime> {
        let rl = &self.rls[r];
        let sweep = rl.sweep.as_ref()?;
        let n = rl.order.len();
        if sweep.done >= n {
            return None;
        }
        let v = rl.vda_start + rl.order[(sweep.first + sweep.done) % n];
        let t = contact_after(
            sweep.start.as_millis(),
            self.vdas.phase_ms(v),
            self.s.vda_period.as_millis(),
        );
        Some(SimTime(t))
    }

    /// Recomputes the engine's next wakeup.
    pub(crate) fn refresh_wakeup(&mut self) {
        self.wakeup = self
            .rls
            .iter()
            .filter_map(|rl| rl.next_due)
            .chain(self.sf_due)
            .min();
    }

    /// The next StoreFront heartbeat strictly after `now`.
    pub(crate) fn next_storefront_beat(&self, now: SimTime) -> SimTime {
        grid_after(now, self.s.storefront_heartbeat, self.sf_phase)
    }

    /// One instant: the StoreFront heartbeat, then every resource location with work.
    fn run_instant(&mut self, t: SimTime, out: &mut Vec<Event>) {
        if self.sf_due.is_some_and(|d| d <= t) {
            self.storefront_beat(t, out);
        }
        for r in 0..self.rls.len() {
            if self.rls[r].next_due.is_some_and(|d| d <= t) {
                self.process_rl(r, t, out);
            }
        }
        self.refresh_wakeup();
    }

    /// A JSON object with the keys in sorted order (the same bytes whatever map type
    /// serde_json was built with).
    pub(crate) fn sorted_object(mut entries: Vec<(String, Value)>) -> Value {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut map = Map::new();
        for (k, v) in entries {
            map.insert(k, v);
        }
        Value::Object(map)
    }
}

impl Engine for LhcEngine {
    fn id(&self) -> EngineId {
        EngineId::Lhc
    }

    fn next_wakeup(&self) -> Option<SimTime> {
        if !self.started {
            return (!self.rls.is_empty()).then_some(SimTime::ZERO);
        }
        self.wakeup
    }

    fn advance(&mut self, now: SimTime, out: &mut Vec<Event>) {
        if !self.started {
            if self.rls.is_empty() {
                self.started = true;
                return;
            }
            self.start(out);
        }
        while let Some(t) = self.wakeup.filter(|t| *t <= now) {
            self.run_instant(t, out);
        }
    }
}
