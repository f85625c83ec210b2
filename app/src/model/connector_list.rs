//! The Cloud Connectors list at any scale: every connector of every resource location,
//! searched by FQDN or resource location, filtered by HA state, power and election role,
//! sorted and paged on the server
//! (`/lhc/connectors?q=paris&state=extended_ha&role=elected&sort=registrations&desc=1`).

use engine::lhc::{ConnectorView, HaState, Power};

use crate::error::AppError;
use crate::model::listing::{contains, keyed, page_of, ListPage};
use crate::model::overview::lhc_state_rank;

/// Rows per page of the connectors list.
pub const CONNECTOR_PAGE_SIZE: u32 = 50;

/// A connector's power, as the list filters it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerFilter {
    /// Running.
    Up,
    /// Restarting.
    Restarting,
    /// Down until recovered.
    Down,
}

/// Every power with its URL key.
pub const POWER_KEYS: [(&str, PowerFilter); 3] = [
    ("up", PowerFilter::Up),
    ("restarting", PowerFilter::Restarting),
    ("down", PowerFilter::Down),
];

/// A connector's part in its resource location's secondary-broker election.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElectionRole {
    /// The elected secondary broker.
    Elected,
    /// Ranked, not elected.
    Candidate,
    /// Left out of the election (with the reason on the row).
    Excluded,
}

/// Every election role with its URL key and label.
pub const ROLE_KEYS: [(&str, ElectionRole, &str); 3] = [
    ("elected", ElectionRole::Elected, "elected secondary broker"),
    ("candidate", ElectionRole::Candidate, "candidate"),
    ("excluded", ElectionRole::Excluded, "excluded"),
];

/// The HA state filter: a state, or `no_detection` for a connector StoreFront does not list
/// (it performs no HA detection).
pub fn state_keys() -> Vec<(&'static str, Option<HaState>)> {
    HaState::ALL
        .into_iter()
        .map(|s| (s.as_str(), Some(s)))
        .chain(std::iter::once(("no_detection", None)))
        .collect()
}

/// A column of the list to sort by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConnectorSort {
    /// Resource location, then the file's order.
    #[default]
    Config,
    /// FQDN.
    Fqdn,
    /// Resource location id.
    ResourceLocation,
    /// Down, restarting, then up.
    Power,
    /// HA state, the worst first; no HA detection last.
    State,
    /// Election rank (excluded last).
    Rank,
    /// VDA registrations its secondary broker holds.
    Registrations,
}

/// Every sort with its URL key and column heading, in the table's order.
pub const CONNECTOR_SORTS: [(&str, ConnectorSort, &str); 6] = [
    ("fqdn", ConnectorSort::Fqdn, "Cloud Connector"),
    ("rl", ConnectorSort::ResourceLocation, "Resource location"),
    ("power", ConnectorSort::Power, "Power"),
    ("state", ConnectorSort::State, "HA state"),
    ("rank", ConnectorSort::Rank, "Election rank"),
    (
        "registrations",
        ConnectorSort::Registrations,
        "Registrations",
    ),
];

/// What the connectors list shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnectorQuery {
    /// Only FQDNs or resource locations containing this (case-insensitive).
    pub search: Option<String>,
    /// Only this HA state (`Some(None)`: only connectors without HA detection).
    pub state: Option<Option<HaState>>,
    /// Only this power.
    pub power: Option<PowerFilter>,
    /// Only this election role.
    pub role: Option<ElectionRole>,
    /// Sort column.
    pub sort: ConnectorSort,
    /// Descending order.
    pub descending: bool,
    /// Page, from 1.
    pub page: u32,
}

impl ConnectorQuery {
    /// The query as typed in the page's URL; a bad key is refused naming its field and the
    /// keys it takes.
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        search: Option<String>,
        state: Option<&str>,
        power: Option<&str>,
        role: Option<&str>,
        sort: Option<&str>,
        descending: bool,
        page: u32,
    ) -> Result<ConnectorQuery, AppError> {
        let roles: Vec<(&'static str, ElectionRole)> =
            ROLE_KEYS.iter().map(|(k, r, _)| (*k, *r)).collect();
        let sorts: Vec<(&'static str, ConnectorSort)> =
            CONNECTOR_SORTS.iter().map(|(k, s, _)| (*k, *s)).collect();
        Ok(ConnectorQuery {
            search,
            state: keyed("state", &state_keys(), state)?,
            power: keyed("power", &POWER_KEYS, power)?,
            role: keyed("role", &roles, role)?,
            sort: keyed("sort", &sorts, sort)?.unwrap_or_default(),
            descending,
            page,
        })
    }
}

/// A page of the connectors list.
pub type ConnectorPage = ListPage<ConnectorView>;

/// The power filter a connector falls in.
pub fn power_of(c: &ConnectorView) -> PowerFilter {
    match c.power {
        Power::Up => PowerFilter::Up,
        Power::Restarting { .. } => PowerFilter::Restarting,
        Power::Down => PowerFilter::Down,
    }
}

/// The connector's part in the election.
pub fn role_of(c: &ConnectorView) -> ElectionRole {
    match (c.elected, c.election_rank) {
        (true, _) => ElectionRole::Elected,
        (false, Some(_)) => ElectionRole::Candidate,
        (false, None) => ElectionRole::Excluded,
    }
}

/// The page of `connectors` (configuration order) that `q` asks for.
pub fn select_connectors(connectors: Vec<ConnectorView>, q: &ConnectorQuery) -> ConnectorPage {
    let total = connectors.len();
    let needle = q.search.as_deref().map(str::to_lowercase);
    let matching: Vec<ConnectorView> = connectors
        .into_iter()
        .filter(|c| q.state.is_none_or(|s| c.ha_state == s))
        .filter(|c| q.power.is_none_or(|p| power_of(c) == p))
        .filter(|c| q.role.is_none_or(|r| role_of(c) == r))
        .filter(|c| {
            needle
                .as_deref()
                .is_none_or(|n| contains(&c.fqdn, n) || contains(&c.resource_location, n))
        })
        .collect();
    let power_rank = |c: &ConnectorView| match power_of(c) {
        PowerFilter::Down => 0,
        PowerFilter::Restarting => 1,
        PowerFilter::Up => 2,
    };
    let state_rank = |c: &ConnectorView| c.ha_state.map_or(u8::MAX, lhc_state_rank);
    let order = |x: &ConnectorView, y: &ConnectorView| match q.sort {
        ConnectorSort::Config => std::cmp::Ordering::Equal,
        ConnectorSort::Fqdn => x.fqdn.cmp(&y.fqdn),
        ConnectorSort::ResourceLocation => x.resource_location.cmp(&y.resource_location),
        ConnectorSort::Power => power_rank(x).cmp(&power_rank(y)),
        ConnectorSort::State => state_rank(x).cmp(&state_rank(y)),
        ConnectorSort::Rank => {
            let rank = |c: &ConnectorView| c.election_rank.unwrap_or(usize::MAX);
            rank(x).cmp(&rank(y))
        }
        ConnectorSort::Registrations => x.registrations.cmp(&y.registrations),
    };
    page_of(
        total,
        matching,
        order,
        q.descending,
        q.page,
        CONNECTOR_PAGE_SIZE,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Scenario, SimTime, Simulation};

    const DEMO: &str = include_str!("../../../scenarios/demo.toml");

    /// The demo estate's five connectors, with Paris in an outage long enough for its
    /// secondary broker to hold the VDAs.
    fn connectors() -> Vec<ConnectorView> {
        let scenario = Scenario::from_toml_str(DEMO, "demo.toml").ok();
        let Some(scenario) = scenario else {
            return Vec::new();
        };
        let mut sim = Simulation::new(&scenario, scenario.seed());
        sim.advance_to(SimTime::from_millis(60_000));
        let forced = engine::lhc::LhcAction::ForceOutage {
            resource_location: "rl-paris".into(),
            connector: None,
        };
        assert!(sim.apply_now(forced, None).is_ok());
        sim.advance_to(SimTime::from_millis(60 * 60_000));
        sim.lhc().connectors()
    }

    fn fqdns(page: &ConnectorPage) -> Vec<&str> {
        page.rows.iter().map(|c| c.fqdn.as_str()).collect()
    }

    #[test]
    fn connectors_are_searched_filtered_and_sorted() {
        let all = connectors();
        assert_eq!(all.len(), 5);
        let q = |f: fn(&mut ConnectorQuery)| {
            let mut q = ConnectorQuery::default();
            f(&mut q);
            q
        };
        let paris = [
            "cc01.paris.example.com",
            "cc02.paris.example.com",
            "cc03.paris.example.com",
        ];
        let tokyo = ["cc01.tokyo.example.com", "cc02.tokyo.example.com"];
        // Paris's cc03 and both Tokyo connectors are not in StoreFront: no HA detection.
        let cases: [(ConnectorQuery, Vec<&str>); 7] = [
            (q(|_| {}), paris.iter().chain(&tokyo).copied().collect()),
            (q(|q| q.search = Some("TOKYO".into())), tokyo.to_vec()),
            (q(|q| q.search = Some("rl-par".into())), paris.to_vec()),
            (
                q(|q| q.state = Some(Some(HaState::ExtendedHa))),
                paris[..2].to_vec(),
            ),
            (
                q(|q| q.state = Some(None)),
                vec![paris[2], tokyo[0], tokyo[1]],
            ),
            (
                q(|q| {
                    q.state = Some(Some(HaState::WorkingNormally));
                }),
                vec![],
            ),
            (
                q(|q| q.sort = ConnectorSort::Fqdn),
                vec![paris[0], tokyo[0], paris[1], tokyo[1], paris[2]],
            ),
        ];
        for (query, shown) in cases {
            let page = select_connectors(all.clone(), &query);
            assert_eq!(fqdns(&page), shown, "{query:?}");
            assert_eq!(page.total, 5);
        }
        // Each resource location elects a secondary broker, outage or not; during Paris's
        // outage its elected one holds the registrations: it comes first by registrations.
        let elected = select_connectors(all.clone(), &q(|q| q.role = Some(ElectionRole::Elected)));
        assert_eq!(fqdns(&elected), [paris[0], tokyo[0]]);
        let busiest = select_connectors(
            all,
            &q(|q| {
                q.sort = ConnectorSort::Registrations;
                q.descending = true;
            }),
        );
        assert_eq!(busiest.rows[0].fqdn, paris[0]);
        assert!(busiest.rows[0].registrations > 0);
    }

    #[test]
    fn the_url_keys_parse_and_a_bad_one_names_its_field() {
        let q = ConnectorQuery::parse(
            None,
            Some("no_detection"),
            Some("down"),
            Some("excluded"),
            Some("rank"),
            true,
            3,
        );
        let q = q.ok().unwrap_or_default();
        assert_eq!(
            (q.state, q.power, q.role, q.sort, q.descending, q.page),
            (
                Some(None),
                Some(PowerFilter::Down),
                Some(ElectionRole::Excluded),
                ConnectorSort::Rank,
                true,
                3
            )
        );
        for (state, power, role, sort, field) in [
            (Some("outage"), None, None, None, "state"),
            (None, Some("off"), None, None, "power"),
            (None, None, Some("leader"), None, "role"),
            (None, None, None, Some("health"), "sort"),
        ] {
            let err = ConnectorQuery::parse(None, state, power, role, sort, false, 1).err();
            let text = err.map(|e| e.to_string()).unwrap_or_default();
            assert!(text.starts_with(field), "{text}");
        }
    }
}
