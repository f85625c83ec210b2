//! The load-management card: servers per load band, the busiest few, zones without a data
//! collector, and the farm's totals.

use engine::lms::views::{FarmView, LoadBands, ServerBand, ServerPower, ServerView};
use serde::{Deserialize, Serialize};

use super::{Tile, WORST_SHOWN};

/// One server in a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerLine {
    /// Host name (its page is `/lms/servers/<host>`).
    pub host: String,
    /// Zone.
    pub zone: String,
    /// True load index.
    pub load: u32,
    /// Up, starting or down.
    pub power: ServerPower,
    /// Connected and disconnected sessions.
    pub sessions: u32,
}

impl ServerLine {
    /// From the engine's view of one server.
    pub fn of(s: &ServerView) -> ServerLine {
        ServerLine {
            host: s.host.clone(),
            zone: s.zone.clone(),
            load: s.load,
            power: s.power,
            sessions: s.connected + s.disconnected,
        }
    }
}

/// The load-management card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LmsSummary {
    /// Servers up (services running, not starting).
    pub servers_up: u32,
    /// Servers in all.
    pub servers_total: u32,
    /// Connected sessions.
    pub sessions_connected: u32,
    /// Disconnected sessions.
    pub sessions_disconnected: u32,
    /// Launches placed so far.
    pub placements: u64,
    /// Launches refused.
    pub rejected: u64,
    /// Whether the black-hole fix is on.
    pub black_hole_fix: bool,
    /// Zones in all.
    pub zones_total: u64,
    /// Zones without a data collector (at most [`WORST_SHOWN`] names).
    pub zones_without_collector: Vec<String>,
    /// How many zones have no data collector in all.
    pub zones_without_collector_count: u64,
    /// Servers not up, then up servers per load band.
    pub by_load: Vec<Tile>,
    /// The most loaded servers, at most [`WORST_SHOWN`].
    pub busiest: Vec<ServerLine>,
}

/// The labels of the up servers' load bands ([`LoadBands::EDGES`]), lowest first.
pub const UP_BAND_LABELS: [&str; 5] = [
    "0–2,499",
    "2,500–4,999",
    "5,000–7,499",
    "7,500–9,999",
    "10,000 (full)",
];

/// The servers table of one load band (its tile's key), most loaded first.
fn band_table(key: &str) -> String {
    format!("/lms?band={key}&sort=load&desc=1#server-table")
}

impl LmsSummary {
    /// From the engine's view of the farm, its load bands and its most loaded servers.
    pub fn of(farm: &FarmView, bands: &LoadBands, busiest: &[ServerView]) -> LmsSummary {
        let mut by_load = vec![Tile {
            label: "not up".to_owned(),
            count: u64::from(bands.not_up),
            href: band_table(&ServerBand::NotUp.key()),
            key: ServerBand::NotUp.key(),
        }];
        by_load.extend(UP_BAND_LABELS.iter().zip(bands.up).enumerate().map(
            |(i, (label, count))| {
                let key = ServerBand::Up(i).key();
                Tile {
                    label: (*label).to_owned(),
                    count: u64::from(count),
                    href: band_table(&key),
                    key,
                }
            },
        ));
        let without: Vec<&str> = farm
            .zones
            .iter()
            .filter(|z| z.collector.is_none())
            .map(|z| z.name.as_str())
            .collect();
        LmsSummary {
            servers_up: farm.servers_up,
            servers_total: farm.servers_total,
            sessions_connected: farm.sessions_connected,
            sessions_disconnected: farm.sessions_disconnected,
            placements: farm.placements,
            rejected: farm.rejected,
            black_hole_fix: farm.black_hole_fix,
            zones_total: farm.zones.len() as u64,
            zones_without_collector_count: without.len() as u64,
            zones_without_collector: without
                .into_iter()
                .take(WORST_SHOWN)
                .map(str::to_owned)
                .collect(),
            by_load,
            busiest: busiest
                .iter()
                .take(WORST_SHOWN)
                .map(ServerLine::of)
                .collect(),
        }
    }

    /// "100 zones, every one with a data collector" or "2 of 100 zones without a data collector".
    pub fn collector_line(&self) -> String {
        match self.zones_without_collector_count {
            0 => format!(
                "{} zone(s), every one with a data collector",
                self.zones_total
            ),
            n => format!(
                "{n} of {} zone(s) without a data collector: no launch can be placed there",
                self.zones_total
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tiles_are_the_servers_not_up_then_each_load_band() {
        let bands = LoadBands {
            not_up: 3,
            up: [10, 20, 30, 40, 7],
        };
        let farm: FarmView =
            serde_json::from_value(serde_json::json!({
                "formula": "sum", "black_hole_fix": true, "settings": [], "throttle_levels": [],
                "zones": [
                    {"id": "z1", "name": "Z1", "collector": "s1", "ranking": [], "servers": 1, "servers_up": 1, "sessions": 0},
                    {"id": "z2", "name": "Z2", "collector": null, "ranking": [], "servers": 1, "servers_up": 0, "sessions": 0}
                ],
                "servers_total": 110, "servers_up": 107, "servers_starting": 0,
                "sessions_connected": 0, "sessions_disconnected": 0, "placements": 0, "rejected": 0,
                "storm_pending": 0, "applications": []
            }))
            .expect("a farm view");
        let s = LmsSummary::of(&farm, &bands, &[]);
        let counts: Vec<u64> = s.by_load.iter().map(|t| t.count).collect();
        assert_eq!(counts, [3, 10, 20, 30, 40, 7]);
        assert_eq!(s.by_load[5].label, "10,000 (full)");
        // Each tile opens the servers table filtered to its own band.
        assert_eq!(
            s.by_load[0].href,
            "/lms?band=not_up&sort=load&desc=1#server-table"
        );
        assert_eq!(
            s.by_load[5].href,
            "/lms?band=band_4&sort=load&desc=1#server-table"
        );
        assert_eq!(s.zones_without_collector, ["Z2"]);
        assert_eq!(
            s.collector_line(),
            "1 of 2 zone(s) without a data collector: no launch can be placed there"
        );
    }
}
