//! Read-only queries for the console; each returns a type of [`views`](super::views).

use core::net::Ipv4Addr;

use super::config::rules::builtin_rules;
use super::config::ThrottleTable;
use super::engine::LmsEngine;
use super::model::{Session, CONNECTED};
use super::rules::{rule_loads_string, Counter};
use super::views::{
    ApplicationView, CountersView, EvaluatorView, FarmView, LoadBands, LoadTableRow, RuleLoadView,
    ServerPage, ServerPower, ServerQuery, ServerSort, ServerView, SessionPage, SessionQuery,
    SessionSort, SessionState, SessionView, SettingView, ZoneView,
};

/// Most rows of one page.
const PAGE_MAX: u32 = 500;

/// A server's place in a sorted list: the sorted column's value, then its host id.
struct ServerKey {
    number: u64,
    text: Option<String>,
    id: u32,
    row: usize,
}

impl LmsEngine {
    /// The farm now: settings, zones, totals, applications.
    pub fn farm(&self) -> FarmView {
        let c = &self.cfg;
        let setting = |key: &str, label: &str, value: String, documented: bool| SettingView {
            key: key.to_owned(),
            label: label.to_owned(),
            value,
            source: if documented { "documented" } else { "assumed" }.to_owned(),
        };
        let settings = vec![
            setting(
                "push_threshold",
                "member pushes when its load moved by",
                c.push_threshold.to_string(),
                true,
            ),
            setting(
                "dc_refresh",
                "collector refreshes its own values every",
                c.dc_refresh.to_string(),
                true,
            ),
            setting(
                "ping_after",
                "collector pings a member silent for",
                c.ping_after.to_string(),
                true,
            ),
            setting(
                "request_after",
                "collector requests values after no update for",
                c.request_after.to_string(),
                true,
            ),
            setting(
                "counter_interval",
                "performance counters sampled every",
                c.counter_interval.to_string(),
                false,
            ),
            setting(
                "sample_interval",
                "load sample for the charts every",
                c.sample_interval.to_string(),
                false,
            ),
            setting(
                "logon_duration",
                "a logon takes",
                c.logon_duration.to_string(),
                false,
            ),
            setting(
                "reboot_duration",
                "a rebooting server is down for",
                c.reboot_duration.to_string(),
                false,
            ),
            setting(
                "services_start",
                "a booted server starts its services in",
                c.services_start.to_string(),
                false,
            ),
            setting(
                "starting_logon_factor",
                "logons on a starting server are slower by",
                format!("x{}", c.starting_logon_factor),
                false,
            ),
            setting(
                "workload.session_duration",
                "mean session length",
                c.workload.session_duration.to_string(),
                false,
            ),
            setting(
                "workload.disconnect_share",
                "sessions that disconnect once",
                format!("{}%", c.workload.disconnect_share),
                false,
            ),
            setting(
                "workload.disconnected_for",
                "mean time disconnected",
                c.workload.disconnected_for.to_string(),
                false,
            ),
        ];
        let mut farm = FarmView {
            formula: c.formula,
            black_hole_fix: c.black_hole_fix,
            settings,
            throttle_levels: ThrottleTable::LEVELS
                .iter()
                .map(|l| (*l, c.throttle.load(*l)))
                .collect(),
            zones: Vec::new(),
            servers_total: u32::try_from(self.servers.len()).unwrap_or(u32::MAX),
            servers_up: 0,
            servers_starting: 0,
            sessions_connected: 0,
            sessions_disconnected: 0,
            placements: self.placements,
            rejected: self.rejected,
            storm_pending: self.storms.iter().map(|s| s.users - s.next).sum(),
            applications: Vec::new(),
        };
        for s in &self.servers {
            match s.power {
                ServerPower::Up => farm.servers_up += 1,
                ServerPower::Starting => farm.servers_starting += 1,
                ServerPower::Down => {}
            }
            farm.sessions_connected += s.connected;
            farm.sessions_disconnected += s.disconnected;
        }
        farm.zones = self
            .zones
            .iter()
            .map(|z| ZoneView {
                id: z.id.clone(),
                name: z.name.clone(),
                collector: z.collector.map(|c| self.servers[c as usize].host.clone()),
                ranking: z
                    .ranking
                    .iter()
                    .map(|s| self.servers[*s as usize].host.clone())
                    .collect(),
                servers: u32::try_from(z.servers.len()).unwrap_or(u32::MAX),
                servers_up: z
                    .servers
                    .iter()
                    .filter(|s| self.servers[**s as usize].power == ServerPower::Up)
                    .count() as u32,
                sessions: z
                    .servers
                    .iter()
                    .map(|s| self.servers[*s as usize].sessions())
                    .sum(),
            })
            .collect();
        farm.applications = self
            .apps
            .iter()
            .enumerate()
            .map(|(i, a)| ApplicationView {
                name: a.name.clone(),
                evaluator: a
                    .evaluator
                    .map(|e| self.evaluators[e as usize].name.clone()),
                servers: u32::try_from(a.index.servers.len()).unwrap_or(u32::MAX),
                sessions: a
                    .index
                    .servers
                    .iter()
                    .map(|s| {
                        self.servers[*s as usize]
                            .app_sessions
                            .iter()
                            .find(|(x, _)| usize::from(*x) == i)
                            .map_or(0, |(_, n)| *n)
                    })
                    .sum(),
            })
            .collect();
        farm
    }

    /// The view of server `s` at the engine's last instant.
    fn server_view(&self, s: usize) -> ServerView {
        let sv = &self.servers[s];
        let now = self.now;
        let e = sv.evaluator as usize;
        let loads = self.rule_loads_of(s, e, now);
        let ev = &self.evaluators[e];
        let k = sv.counters;
        ServerView {
            host: sv.host.clone(),
            host_id: sv.id,
            zone: self.zones[sv.zone as usize].id.clone(),
            evaluator: ev.name.clone(),
            apps: sv
                .apps
                .iter()
                .map(|a| self.apps[usize::from(*a)].name.clone())
                .collect(),
            election_preference: sv.preference,
            power: sv.power,
            collector: self.zones[sv.zone as usize].collector == Some(s as u32),
            load: sv.load,
            rule_loads: ev
                .rules
                .iter()
                .zip(loads)
                .map(|(r, l)| RuleLoadView {
                    code: r.code(),
                    rule: r.name().to_owned(),
                    load: l,
                })
                .collect(),
            dc_load: sv.dc_load,
            dc_updated_ms: sv.dc_updated,
            dc_contact_ms: sv.dc_contact,
            connected: sv.connected,
            disconnected: sv.disconnected,
            logons_in_progress: self.logons_at(s, now),
            lt_load: ev.lt_load,
            lt_multiplier: self.lt_multiplier(s),
            load_bias: self.load_bias(s),
            counters: CountersView {
                cpu: k[Counter::Cpu as usize],
                memory: k[Counter::Memory as usize],
                page_swaps: k[Counter::PageSwaps as usize],
                page_faults: k[Counter::PageFaults as usize],
                context_switches: k[Counter::ContextSwitches as usize],
                disk_data_io: k[Counter::DiskDataIo as usize],
                disk_operations: k[Counter::DiskOperations as usize],
            },
            started_ms: sv.started_ms,
        }
    }

    /// Server `s`'s `LoadBias`: how far the zone data collector's load for it is from its own
    /// (0 while the collector knows none).
    fn load_bias(&self, s: usize) -> i32 {
        let sv = &self.servers[s];
        sv.dc_load.map_or(0, |d| {
            i32::try_from(i64::from(d) - i64::from(sv.load)).unwrap_or(0)
        })
    }

    /// Server `s`'s `LTMultiplier`: its logons in progress now when its evaluator has a
    /// real-time load (`LTLoad`), else 0.
    fn lt_multiplier(&self, s: usize) -> u32 {
        let ev = &self.evaluators[self.servers[s].evaluator as usize];
        if ev.lt_load > 0 {
            self.logons_at(s, self.now)
        } else {
            0
        }
    }

    fn logons_at(&self, s: usize, now: u64) -> u32 {
        self.servers[s]
            .logons
            .iter()
            .filter(|(_, e)| *e > now)
            .count() as u32
    }

    /// How many servers sit in each load band now (true load index, up servers only).
    pub fn load_bands(&self) -> LoadBands {
        let mut bands = LoadBands::default();
        for s in &self.servers {
            match s.power {
                ServerPower::Up => bands.up[LoadBands::band_of(s.load)] += 1,
                ServerPower::Starting | ServerPower::Down => bands.not_up += 1,
            }
        }
        bands
    }

    /// A page of servers (sorted per [`ServerSort`], ties by host id; at most 500 rows).
    pub fn servers(&self, q: &ServerQuery) -> ServerPage {
        let needle = q.search.as_deref().map(str::to_lowercase);
        let mut rows: Vec<usize> = (0..self.servers.len())
            .filter(|s| {
                let x = &self.servers[*s];
                q.zone
                    .as_deref()
                    .is_none_or(|z| self.zones[x.zone as usize].id == z)
                    && q.band.is_none_or(|b| b.holds(x.power, x.load))
                    && needle
                        .as_deref()
                        .is_none_or(|n| x.host.to_lowercase().contains(n))
            })
            .collect();
        // The column's value: a number, or for the text columns a lower-cased name (built
        // only for those sorts); ties go to the host id, so the order is total.
        let key = |s: usize| -> ServerKey {
            let x = &self.servers[s];
            let (number, text) = match q.sort {
                ServerSort::HostId => (u64::from(x.id), None),
                ServerSort::Host => (0, Some(x.host.to_lowercase())),
                ServerSort::Zone => (u64::from(x.zone), None),
                ServerSort::Load => (u64::from(x.load), None),
                ServerSort::DcLoad => (x.dc_load.map_or(0, |d| u64::from(d) + 1), None),
                ServerSort::Sessions => (u64::from(x.sessions()), None),
                ServerSort::Evaluator => {
                    (0, Some(self.evaluators[x.evaluator as usize].name.clone()))
                }
            };
            ServerKey {
                number,
                text,
                id: x.id,
                row: s,
            }
        };
        let order = |a: &ServerKey, b: &ServerKey| {
            let column = a.number.cmp(&b.number).then_with(|| a.text.cmp(&b.text));
            let column = if q.descending {
                column.reverse()
            } else {
                column
            };
            column.then(a.id.cmp(&b.id))
        };
        let mut keyed: Vec<ServerKey> = rows.drain(..).map(key).collect();
        let total = u32::try_from(keyed.len()).unwrap_or(u32::MAX);
        let limit = q.limit.min(PAGE_MAX) as usize;
        // Only the rows up to the page's end need an order: select them, then sort those.
        let end = (q.offset as usize).saturating_add(limit);
        if end < keyed.len() {
            keyed.select_nth_unstable_by(end, order);
            keyed.truncate(end);
        }
        keyed.sort_unstable_by(order);
        let rows = keyed
            .into_iter()
            .skip(q.offset as usize)
            .map(|k| self.server_view(k.row))
            .collect();
        ServerPage { total, rows }
    }

    /// One server by host name (case-insensitive).
    pub fn server(&self, host: &str) -> Option<ServerView> {
        self.cfg.server_index(host).map(|s| self.server_view(s))
    }

    /// A page of sessions, ordered by user name (at most 500 rows).
    pub fn sessions(&self, q: &SessionQuery) -> SessionPage {
        let server = q.server.as_deref().and_then(|h| self.cfg.server_index(h));
        if q.server.is_some() && server.is_none() {
            return SessionPage {
                total: 0,
                rows: Vec::new(),
            };
        }
        let want = q.state.map(|s| match s {
            SessionState::Connected => CONNECTED,
            SessionState::Disconnected => super::model::DISCONNECTED,
        });
        let needle = q.search.as_deref().map(str::to_lowercase);
        let mut list: Vec<(String, u32, &Session)> = self
            .sessions
            .iter()
            .filter(|(_, x)| server.is_none_or(|s| x.server as usize == s))
            .filter(|(_, x)| want.is_none_or(|w| x.state == w))
            .map(|(u, x)| (self.user_name(*u), *u, x))
            .filter(|(name, _, _)| {
                needle
                    .as_deref()
                    .is_none_or(|n| name.to_lowercase().contains(n))
            })
            .collect();
        let host = |x: &Session| self.servers[x.server as usize].host.as_str();
        let app = |x: &Session| self.apps[usize::from(x.app)].name.as_str();
        list.sort_unstable_by(|(a_name, _, a), (b_name, _, b)| {
            let column = match q.sort {
                SessionSort::User => core::cmp::Ordering::Equal,
                SessionSort::Server => host(a).cmp(host(b)),
                SessionSort::App => app(a).cmp(app(b)),
                SessionSort::Client => a.ip.cmp(&b.ip),
                SessionSort::Since => a.since.cmp(&b.since),
            };
            let column = if q.desc { column.reverse() } else { column };
            let by_name = if q.desc && q.sort == SessionSort::User {
                b_name.cmp(a_name)
            } else {
                a_name.cmp(b_name)
            };
            column.then(by_name)
        });
        let total = u32::try_from(list.len()).unwrap_or(u32::MAX);
        let rows = list
            .into_iter()
            .skip(q.offset as usize)
            .take(q.limit.min(PAGE_MAX) as usize)
            .map(|(name, _, x)| SessionView {
                user: name,
                server: host(x).to_owned(),
                app: app(x).to_owned(),
                client_ip: Ipv4Addr::from(x.ip).to_string(),
                state: if x.state == CONNECTED {
                    SessionState::Connected
                } else {
                    SessionState::Disconnected
                },
                since_ms: x.since,
            })
            .collect();
        SessionPage { total, rows }
    }

    /// The dynamic store's load table (`LMS_ServerLoadTable`) in the product's notation.
    pub fn load_table(&self) -> Vec<LoadTableRow> {
        self.load_table_where(|_, _| true)
    }

    /// The load table's rows of the servers whose host name and zone id `keep` accepts, in
    /// host id order. Only those rows are built (a zone of a 10,000-server farm costs its
    /// hundred rows).
    pub fn load_table_where(&self, keep: impl Fn(&str, &str) -> bool) -> Vec<LoadTableRow> {
        (0..self.servers.len())
            .filter(|&s| {
                let sv = &self.servers[s];
                keep(&sv.host, &self.zones[sv.zone as usize].id)
            })
            .map(|s| self.load_table_row(s))
            .collect()
    }

    /// Server `s`'s row of the load table: the fields of [`Self::server_view`] the table
    /// shows, computed alone.
    fn load_table_row(&self, s: usize) -> LoadTableRow {
        let sv = &self.servers[s];
        let e = sv.evaluator as usize;
        let ev = &self.evaluators[e];
        let codes: Vec<(char, f64)> = ev
            .rules
            .iter()
            .zip(self.rule_loads_of(s, e, self.now))
            .map(|(r, l)| (r.code(), l))
            .collect();
        LoadTableRow {
            name: sv.id,
            host: sv.host.clone(),
            zone: self.zones[sv.zone as usize].id.clone(),
            load: sv.dc_load.map_or_else(String::new, |l| format!("{l:x}")),
            real_time_rules: if ev.lt_load > 0 {
                "d".to_owned()
            } else {
                String::new()
            },
            load_bias: self.load_bias(s),
            lt_load: format!("{:x}", ev.lt_load),
            lt_multiplier: self.lt_multiplier(s),
            rule_loads: rule_loads_string(&codes),
            protocol_mask: "3".to_owned(),
        }
    }

    /// Every evaluator, built-ins first.
    pub fn evaluators(&self) -> Vec<EvaluatorView> {
        (0..self.evaluators.len())
            .map(|e| self.evaluator_view(e))
            .collect()
    }

    /// One evaluator by name.
    pub fn evaluator(&self, name: &str) -> Option<EvaluatorView> {
        self.evaluators
            .iter()
            .position(|e| e.name == name)
            .map(|e| self.evaluator_view(e))
    }

    fn evaluator_view(&self, e: usize) -> EvaluatorView {
        let (servers, applications) = self.users_of(e);
        let ev = &self.evaluators[e];
        EvaluatorView {
            name: ev.name.clone(),
            builtin: builtin_rules(&ev.name).is_some(),
            rules: ev.rules.clone(),
            servers,
            applications,
        }
    }
}
