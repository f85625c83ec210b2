//! The read-only view types of the load-management engine, as the console receives them.
//! Every view is `Serialize + Deserialize + Clone`; [`LmsEngine`](super::LmsEngine) builds
//! them (see `query`).

use serde::{Deserialize, Serialize};

use super::config::rules::{Rule, ThrottleLevel};
use super::config::{ElectionPreference, LoadFormula};

/// The farm now: settings, zones and totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FarmView {
    /// How rule loads combine into the load index.
    pub formula: LoadFormula,
    /// A freshly started server reports full load until its services are up.
    pub black_hole_fix: bool,
    /// Timings and tables, each marked documented or assumed.
    pub settings: Vec<SettingView>,
    /// Per-logon throttling load of each level, strongest first.
    pub throttle_levels: Vec<(ThrottleLevel, u32)>,
    /// Zones in configuration order.
    pub zones: Vec<ZoneView>,
    /// Servers in all.
    pub servers_total: u32,
    /// Servers up (services running, not starting).
    pub servers_up: u32,
    /// Servers starting (services not yet up).
    pub servers_starting: u32,
    /// Connected sessions in the farm.
    pub sessions_connected: u32,
    /// Disconnected sessions in the farm.
    pub sessions_disconnected: u32,
    /// Launches placed so far (new sessions and reconnections).
    pub placements: u64,
    /// Launches refused (no candidate below 10000).
    pub rejected: u64,
    /// Logons still to come from logon storms in progress.
    pub storm_pending: u32,
    /// Published applications, configuration order.
    pub applications: Vec<ApplicationView>,
}

/// One setting of the farm, as the console lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingView {
    /// Key as in `[lms]` (`dc_refresh`).
    pub key: String,
    /// What it is.
    pub label: String,
    /// Value as text (`30s`, `500`).
    pub value: String,
    /// `documented` (seed or product documentation) or `assumed` (our default).
    pub source: String,
}

/// A published application and its evaluator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApplicationView {
    /// Name.
    pub name: String,
    /// Its evaluator, if any (applied beside the server's; the higher load wins).
    pub evaluator: Option<String>,
    /// Servers that publish it.
    pub servers: u32,
    /// Sessions of it in the farm (connected and disconnected).
    pub sessions: u32,
}

/// A zone and its data collector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneView {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Host of the data collector, `None` when no server of the zone can be one.
    pub collector: Option<String>,
    /// Election ranking of the last election, best first (hosts).
    pub ranking: Vec<String>,
    /// Servers of the zone.
    pub servers: u32,
    /// Servers of the zone that are up.
    pub servers_up: u32,
    /// Sessions (connected and disconnected) in the zone.
    pub sessions: u32,
}

/// Power state of a server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerPower {
    /// Services running.
    Up,
    /// Booted, services still starting (the black-hole window).
    Starting,
    /// Down (rebooting or crashed).
    Down,
}

/// The load of one rule, at full precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleLoadView {
    /// Code as in `RuleLoads` (`b`, `d`, `1`, ...).
    pub code: char,
    /// The rule tag (`server_user_load`).
    pub rule: String,
    /// Rule load `0.0..=10000.0`.
    pub load: f64,
}

/// Performance counters of a server (the seeded workload model plus spikes).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountersView {
    /// CPU utilization, percent.
    pub cpu: f64,
    /// Memory usage, percent.
    pub memory: f64,
    /// Page swaps per second.
    pub page_swaps: f64,
    /// Page faults per second.
    pub page_faults: f64,
    /// Context switches per second.
    pub context_switches: f64,
    /// Disk data I/O, KB/s.
    pub disk_data_io: f64,
    /// Disk operations per second.
    pub disk_operations: f64,
}

/// One server as the farm page lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerView {
    /// Host name.
    pub host: String,
    /// Host id (1-based, configuration order): the product's `name` column and the
    /// election tie-break.
    pub host_id: u32,
    /// Zone id.
    pub zone: String,
    /// Evaluator name.
    pub evaluator: String,
    /// Published applications.
    pub apps: Vec<String>,
    /// Election preference.
    pub election_preference: ElectionPreference,
    /// Power state.
    pub power: ServerPower,
    /// The server is its zone's data collector.
    pub collector: bool,
    /// True load index now (what the server would report), `0..=10000`.
    pub load: u32,
    /// Rule loads behind `load`, in evaluator order.
    pub rule_loads: Vec<RuleLoadView>,
    /// The load the data collector holds for it (`None`: never reported / unreachable).
    pub dc_load: Option<u32>,
    /// When the data collector's value was last updated (simulated ms).
    pub dc_updated_ms: Option<u64>,
    /// When the data collector last heard from it (push, ping or request; simulated ms).
    pub dc_contact_ms: Option<u64>,
    /// Connected sessions.
    pub connected: u32,
    /// Disconnected sessions.
    pub disconnected: u32,
    /// Logons in progress (they drive the load-throttling rule).
    pub logons_in_progress: u32,
    /// Per-logon throttling load of its level (`LTLoad`), 0 without a throttling rule.
    pub lt_load: u32,
    /// Logons in progress counted by throttling (`LTMultiplier`).
    pub lt_multiplier: u32,
    /// Data collector's view minus true load (`LoadBias`): how stale the view is.
    pub load_bias: i32,
    /// Performance counters now.
    pub counters: CountersView,
    /// When the server last started (simulated ms), if it was rebooted.
    pub started_ms: Option<u64>,
}

/// Column to sort the servers table by.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerSort {
    /// Host id (configuration order).
    #[default]
    HostId,
    /// Host name.
    Host,
    /// Zone, then host id.
    Zone,
    /// True load index.
    Load,
    /// Data collector's view of the load.
    DcLoad,
    /// Connected + disconnected sessions.
    Sessions,
    /// Evaluator name.
    Evaluator,
}

/// How many servers sit in each load band now: the overview's tiles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadBands {
    /// Servers down or still starting (no load index placement can use).
    pub not_up: u32,
    /// Up servers per band of [`LoadBands::EDGES`]: `0..2500`, `2500..5000`, `5000..7500`,
    /// `7500..10000`, and `10000` (full: no new session is placed there).
    pub up: [u32; 5],
}

impl LoadBands {
    /// The lower edge of each band of [`LoadBands::up`].
    pub const EDGES: [u32; 5] = [0, 2500, 5000, 7500, 10000];

    /// The band of a load index.
    pub fn band_of(load: u32) -> usize {
        Self::EDGES.iter().rposition(|e| load >= *e).unwrap_or(0)
    }
}

/// One tile of [`LoadBands`]: the servers not up, or the up servers of one band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerBand {
    /// Down or still starting.
    NotUp,
    /// Up, with a load index in band `n` of [`LoadBands::EDGES`] (0 to 4).
    Up(usize),
}

impl ServerBand {
    /// The band named by a URL key: `not_up`, or `band_0` to `band_4`.
    pub fn parse(key: &str) -> Option<ServerBand> {
        if key == "not_up" {
            return Some(ServerBand::NotUp);
        }
        key.strip_prefix("band_")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n < LoadBands::EDGES.len())
            .map(ServerBand::Up)
    }

    /// Its URL key (the overview tile's key).
    pub fn key(self) -> String {
        match self {
            ServerBand::NotUp => "not_up".to_owned(),
            ServerBand::Up(n) => format!("band_{n}"),
        }
    }

    /// Whether a server with this power and load index is in the band.
    pub fn holds(self, power: ServerPower, load: u32) -> bool {
        match (self, power) {
            (ServerBand::NotUp, ServerPower::Up) => false,
            (ServerBand::NotUp, _) => true,
            (ServerBand::Up(n), ServerPower::Up) => LoadBands::band_of(load) == n,
            (ServerBand::Up(_), _) => false,
        }
    }
}

/// A page of the servers table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerQuery {
    /// Only this zone.
    pub zone: Option<String>,
    /// Only hosts containing this (case-insensitive).
    #[serde(default)]
    pub search: Option<String>,
    /// Only servers of this band of the overview's tiles.
    #[serde(default)]
    pub band: Option<ServerBand>,
    /// Sort column.
    pub sort: ServerSort,
    /// Descending order.
    pub descending: bool,
    /// Rows to skip.
    pub offset: u32,
    /// Rows to return (capped at 500).
    pub limit: u32,
}

/// A page of servers and the total matching.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerPage {
    /// Servers matching the query.
    pub total: u32,
    /// This page.
    pub rows: Vec<ServerView>,
}

/// Connected or disconnected.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionState {
    /// Connected (in the connected-sessions table).
    Connected,
    /// Disconnected (still counts towards load).
    Disconnected,
}

/// One session of the dynamic store's session tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionView {
    /// User name.
    pub user: String,
    /// Server host.
    pub server: String,
    /// Application.
    pub app: String,
    /// Client address.
    pub client_ip: String,
    /// Connected or disconnected.
    pub state: SessionState,
    /// When it entered that state (simulated ms).
    pub since_ms: u64,
}

/// A column the session tables sort by.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionSort {
    /// User name (the default).
    #[default]
    User,
    /// Server host name.
    Server,
    /// Application name.
    App,
    /// Client address (by its value: `10.0.0.9` before `10.0.0.10`).
    Client,
    /// When the session entered its state.
    Since,
}

impl SessionSort {
    /// Every column with its URL key, in the tables' order.
    pub const ALL: [(&'static str, SessionSort); 5] = [
        ("user", SessionSort::User),
        ("server", SessionSort::Server),
        ("app", SessionSort::App),
        ("client", SessionSort::Client),
        ("since", SessionSort::Since),
    ];

    /// The column of URL key `key`.
    pub fn parse(key: &str) -> Option<SessionSort> {
        Self::ALL.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
    }
}

/// Which sessions to list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionQuery {
    /// Only this server.
    pub server: Option<String>,
    /// Only this state.
    pub state: Option<SessionState>,
    /// Only users whose name contains this (case-insensitive).
    pub search: Option<String>,
    /// The order (ties by user name).
    pub sort: SessionSort,
    /// Largest first.
    pub desc: bool,
    /// Rows to skip, in that order.
    pub offset: u32,
    /// Rows to return (capped at 500).
    pub limit: u32,
}

/// A page of sessions and the total matching.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionPage {
    /// Sessions matching the query.
    pub total: u32,
    /// This page.
    pub rows: Vec<SessionView>,
}

/// One row of the dynamic store's load table (`LMS_ServerLoadTable`), in the product's
/// notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadTableRow {
    /// `name`: host id.
    pub name: u32,
    /// `Host`.
    pub host: String,
    /// `Zone`.
    pub zone: String,
    /// `Load`, lower-case hex (`64`), as the data collector holds it.
    pub load: String,
    /// `RealTimeRules`: codes of the rules evaluated live on the collector (`d` when the
    /// evaluator throttles), empty otherwise.
    pub real_time_rules: String,
    /// `LoadBias`, decimal.
    pub load_bias: i32,
    /// `LTLoad`, hex.
    pub lt_load: String,
    /// `LTMultiplier`, decimal.
    pub lt_multiplier: u32,
    /// `RuleLoads`, e.g. `1:3e;d:0;6:6;3:24;` (each rule load / 100, hex, rounded).
    pub rule_loads: String,
    /// `ProtocolMask`, hex (ICA and RDP).
    pub protocol_mask: String,
}

/// An evaluator, built-in or custom, and where it is assigned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvaluatorView {
    /// Name.
    pub name: String,
    /// `Default` or `Advanced` (editable, not deletable or renamable).
    pub builtin: bool,
    /// Rules in order.
    pub rules: Vec<Rule>,
    /// Servers using it.
    pub servers: Vec<String>,
    /// Applications using it.
    pub applications: Vec<String>,
}

/// One server's load index now and under an edited evaluator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreviewRow {
    /// Host.
    pub host: String,
    /// Load index now.
    pub now: u32,
    /// Load index with the edited evaluator.
    pub edited: u32,
}

/// Where placements went in a preview, per server (only servers that got some).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementCount {
    /// Host.
    pub host: String,
    /// Placements.
    pub count: u32,
}

/// The what-if of an evaluator edit: indexes now vs edited, and where the next launches go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvaluatorPreview {
    /// The application the launches were for.
    pub app: String,
    /// Launches simulated on each side.
    pub launches: u32,
    /// Servers whose evaluator (server or application) is the edited one.
    pub rows: Vec<PreviewRow>,
    /// Placements with the evaluators as they are.
    pub placements_now: Vec<PlacementCount>,
    /// Placements with the edited evaluator.
    pub placements_edited: Vec<PlacementCount>,
    /// Launches refused with the evaluators as they are.
    pub rejected_now: u32,
    /// Launches refused with the edited evaluator.
    pub rejected_edited: u32,
}

/// Sessions per server at one instant of a black-hole A/B run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbPoint {
    /// Simulated ms since the storm began.
    pub t_ms: u64,
    /// Sessions (connected + disconnected) per server, in [`AbRun::servers`] order.
    pub sessions: Vec<u32>,
}

/// One side of the black-hole A/B.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbRun {
    /// The fix was on.
    pub fix: bool,
    /// Servers, host order of the series.
    pub servers: Vec<String>,
    /// One point per sample (every 15 simulated seconds).
    pub series: Vec<AbPoint>,
    /// Launches placed.
    pub placed: u32,
    /// Launches refused.
    pub rejected: u32,
    /// Sessions the rebooted server received.
    pub on_rebooted: u32,
    /// Largest share of the storm's sessions any one server got, percent.
    pub max_share_pct: u32,
}

/// The black-hole A/B: the same seeded storm after a reboot, fix on and off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbReport {
    /// The rebooted server.
    pub server: String,
    /// Users in the storm.
    pub users: u32,
    /// Storm length, ms.
    pub over_ms: u64,
    /// With the fix.
    pub fix_on: AbRun,
    /// Without the fix.
    pub fix_off: AbRun,
}

/// One server in the formula audit: its load index under each formula.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRow {
    /// Host.
    pub host: String,
    /// Zone id.
    pub zone: String,
    /// The server's evaluator.
    pub evaluator: String,
    /// Load index under `max + 5% x sum(others)` (the seed's).
    pub sum: u32,
    /// Load index under `max + 5% x average(others)` (the 7.x product's).
    pub average: u32,
}

/// Where an audit's launches went on one server, under each formula.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditPlacement {
    /// Host.
    pub host: String,
    /// Launches placed there under the sum formula.
    pub sum: u32,
    /// Launches placed there under the average formula.
    pub average: u32,
}

/// A launch the two formulas place differently (`None`: refused).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchDifference {
    /// Which launch, from 1.
    pub launch: u32,
    /// Its server under the sum formula.
    pub sum: Option<String>,
    /// Its server under the average formula.
    pub average: Option<String>,
}

/// The formula audit: every server's index under both formulas and where the next launches
/// would go under each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormulaAudit {
    /// The farm's formula now.
    pub in_force: LoadFormula,
    /// The application the launches were for.
    pub app: String,
    /// Every published application (those an audit may place).
    pub applications: Vec<String>,
    /// Launches placed under each formula.
    pub launches: u32,
    /// Servers in the farm.
    #[serde(default)]
    pub servers_total: u32,
    /// Every server, configuration order (a reader may keep only some: see
    /// `servers_total`).
    pub rows: Vec<AuditRow>,
    /// Servers that got launches under either formula.
    pub placements: Vec<AuditPlacement>,
    /// Launches refused under the sum formula.
    pub rejected_sum: u32,
    /// Launches refused under the average formula.
    pub rejected_average: u32,
    /// Launches placed differently.
    pub differing: u32,
    /// The first differing launches (at most 20), in order.
    pub differences: Vec<LaunchDifference>,
}

#[cfg(test)]
mod tests {
    use super::{LoadBands, ServerBand, ServerPower};

    #[test]
    fn a_band_key_round_trips_and_holds_only_its_servers() {
        for key in ["not_up", "band_0", "band_4"] {
            assert_eq!(
                ServerBand::parse(key).map(ServerBand::key).as_deref(),
                Some(key)
            );
        }
        for bad in ["", "band_5", "band_x", "up", "band_-1"] {
            assert_eq!(ServerBand::parse(bad), None, "{bad}");
        }
        let cases = [
            (ServerBand::NotUp, ServerPower::Down, 0, true),
            (ServerBand::NotUp, ServerPower::Starting, 10_000, true),
            (ServerBand::NotUp, ServerPower::Up, 0, false),
            (ServerBand::Up(0), ServerPower::Up, 2_499, true),
            (ServerBand::Up(0), ServerPower::Up, 2_500, false),
            (ServerBand::Up(4), ServerPower::Up, 10_000, true),
            (ServerBand::Up(4), ServerPower::Starting, 10_000, false),
        ];
        for (band, power, load, expected) in cases {
            assert_eq!(
                band.holds(power, load),
                expected,
                "{band:?} {power:?} {load}"
            );
        }
    }

    #[test]
    fn each_load_index_falls_in_one_band() {
        let cases = [
            (0, 0),
            (2499, 0),
            (2500, 1),
            (4999, 1),
            (5000, 2),
            (7499, 2),
            (7500, 3),
            (9999, 3),
            (10000, 4),
            (u32::MAX, 4),
        ];
        for (load, band) in cases {
            assert_eq!(LoadBands::band_of(load), band, "load {load}");
        }
    }
}
