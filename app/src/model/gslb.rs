//! What the GSLB pages receive: the engine's views, plus a site's MEP and adoption history
//! read back from the persisted events.

use engine::gslb::views::{ClientLocationView, LinkView, SiteView, TopologyView};
use serde::{Deserialize, Serialize};

use super::EventRow;

/// The topology page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GslbPage {
    /// The topology now.
    pub topology: TopologyView,
    /// Client locations for the resolve panel.
    pub locations: Vec<ClientLocationView>,
    /// Simulated ms.
    pub now_ms: u64,
}

/// One site's page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GslbSiteDetail {
    /// The site now.
    pub site: SiteView,
    /// Its MEP links now.
    pub links: Vec<LinkView>,
    /// Parent sites (for the backup-list editor).
    pub parents: Vec<String>,
    /// MEP link state changes that involve the site, newest first.
    pub link_history: Vec<EventRow>,
    /// Adoption offers, acceptances, rejections and migrations that involve the site, newest
    /// first.
    pub adoptions: Vec<EventRow>,
    /// Other events of the site, newest first.
    pub events: Vec<EventRow>,
    /// Simulated ms.
    pub now_ms: u64,
}

/// The fields of an operator action on the topology, as typed (checked on the server).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GslbActInput {
    /// `site_down`, `site_up`, `mep_cut` or `mep_restore`.
    pub op: String,
    /// The site (`site_down`, `site_up`).
    #[serde(default)]
    pub site: String,
    /// One end of the link (the sender when one way).
    #[serde(default)]
    pub from: String,
    /// The other end.
    #[serde(default)]
    pub to: String,
    /// `both` (default) or `one_way`.
    #[serde(default)]
    pub direction: String,
}

/// Splits a typed list of site names (commas and/or spaces).
pub fn split_names(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::split_names;

    #[test]
    fn names_split_on_commas_and_spaces() {
        assert_eq!(
            split_names(" SiteP2, SiteP3  SiteP4,"),
            ["SiteP2", "SiteP3", "SiteP4"]
        );
        assert!(split_names(" , ").is_empty());
    }
}
