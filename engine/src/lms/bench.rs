//! Probes of the placement index for the benchmark (`examples/lms_placement.rs`) and the
//! property tests: the indexed choice, a naive full scan over the same servers that checks
//! every condition, and a way to set the data collector's view directly. Not for the console.

use super::engine::LmsEngine;
use super::views::ServerPower;

impl LmsEngine {
    /// Sets what the data collector holds for server `s` (index in configuration order), for
    /// the server and every one of its applications.
    #[doc(hidden)]
    pub fn probe_set_dc_load(&mut self, s: usize, load: u32) {
        let Some(sv) = self.servers.get_mut(s) else {
            return;
        };
        sv.dc_load = Some(load);
        for a in &mut sv.dc_apps {
            *a = load;
        }
        self.refresh_leaves(s);
    }

    /// The indexed choice for application `app` (index) and client `ip`: (server, load).
    #[doc(hidden)]
    pub fn probe_choose(&self, app: usize, ip: u32) -> Option<(usize, u32)> {
        let index = &self.apps.get(app)?.index;
        let (pos, k) = index.choose(|p| self.admits(index.servers[p] as usize, app, ip))?;
        Some((index.servers[pos] as usize, super::placement::key_load(k)))
    }

    /// The same choice by a full scan of the servers publishing `app`, checking every
    /// condition on the server structs.
    #[doc(hidden)]
    pub fn probe_choose_naive(&self, app: usize, ip: u32) -> Option<(usize, u32)> {
        let mut best: Option<(u32, u32, usize)> = None;
        for (s, sv) in self.servers.iter().enumerate() {
            let Some(k) = sv.apps.iter().position(|a| usize::from(*a) == app) else {
                continue;
            };
            if sv.power == ServerPower::Down
                || self.zones[sv.zone as usize].collector.is_none()
                || sv.dc_load.is_none()
                || !self.admits(s, app, ip)
            {
                continue;
            }
            let load = sv.dc_apps[k];
            if load >= 10_000 {
                continue;
            }
            if best.is_none_or(|(l, id, _)| (load, sv.id) < (l, id)) {
                best = Some((load, sv.id, s));
            }
        }
        best.map(|(l, _, s)| (s, l))
    }

    /// One placement (indexed or naive) that raises the chosen server's view by `bump`,
    /// like a logon push; returns the server.
    #[doc(hidden)]
    pub fn probe_place(&mut self, app: usize, ip: u32, naive: bool, bump: u32) -> Option<usize> {
        let (s, load) = if naive {
            self.probe_choose_naive(app, ip)?
        } else {
            self.probe_choose(app, ip)?
        };
        self.probe_set_dc_load(s, (load + bump).min(10_000));
        Some(s)
    }
}
