//! A site's MEP, adoption and other GSLB events.

use crate::store::Store;

use crate::error::Result;
use crate::history::{recent_events, EventFilter, StoredEvent};

/// Events read per site.
pub const EVENTS: i64 = 300;
/// Rows kept in each of the site page's lists (the newest): a parent at full scale names
/// hundreds of adoptions in a day, a few hundred bytes each on the page.
pub const SHOWN: usize = 50;

/// A site's GSLB events, newest first, split as the site page lists them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteHistory {
    /// `mep.*`: its links going down and up.
    pub links: Vec<StoredEvent>,
    /// `adoption.*`, `child.*`, `backup_list.*`: who adopts whom and why.
    pub adoptions: Vec<StoredEvent>,
    /// Everything else but the answer log (`adns.answered`).
    pub others: Vec<StoredEvent>,
}

/// Every GSLB event of `window` that names `site` (as its subject, a link end, a parent
/// or a backup), newest first, split by kind, at most [`SHOWN`] of each.
pub async fn site_history(store: &Store, window: super::Window, site: &str) -> Result<SiteHistory> {
    let naming = EventFilter {
        engine: Some("gslb".into()),
        details_contains: Some(format!("\"{site}\"")),
        ..window.filter()
    };
    let mut all = recent_events(store, &naming, EVENTS).await?;
    let by_subject = EventFilter {
        details_contains: None,
        subject: Some(site.to_owned()),
        ..naming
    };
    let own = recent_events(store, &by_subject, EVENTS).await?;
    for row in own {
        if !all.iter().any(|r| r.id == row.id) {
            all.push(row);
        }
    }
    all.sort_by(|a, b| b.t_ms.cmp(&a.t_ms).then(b.id.cmp(&a.id)));
    let mut history = SiteHistory::default();
    for row in all {
        let list = if row.kind.starts_with("mep.") {
            &mut history.links
        } else if row.kind.starts_with("adoption.")
            || row.kind.starts_with("child.")
            || row.kind.starts_with("backup_list.")
        {
            &mut history.adoptions
        } else if row.kind != "adns.answered" {
            &mut history.others
        } else {
            continue;
        };
        if list.len() < SHOWN {
            list.push(row);
        }
    }
    Ok(history)
}
