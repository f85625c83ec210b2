//! A site's MEP, adoption and other GSLB events.

use crate::store::Store;

use crate::error::Result;
use crate::history::{recent_events, EventFilter, StoredEvent};

/// Events read per site.
pub const EVENTS: i64 = 300;

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
/// or a backup), newest first, split by kind.
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
        if row.kind.starts_with("mep.") {
            history.links.push(row);
        } else if row.kind.starts_with("adoption.")
            || row.kind.starts_with("child.")
            || row.kind.starts_with("backup_list.")
        {
            history.adoptions.push(row);
        } else if row.kind != "adns.answered" {
            history.others.push(row);
        }
    }
    Ok(history)
}
