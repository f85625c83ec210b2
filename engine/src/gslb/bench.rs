//! Probes for the benchmark (`examples/gslb_bench.rs`) and the property tests: the adoption
//! decision on its own, and a consistency check of the parent-child state. Not for the
//! console.

use super::engine::GslbEngine;
use super::model::Decision;

impl GslbEngine {
    /// The decision parent `observer` takes about the children of parent `down` from its
    /// current view (by name): `Some(None)` = it adopts, `Some(Some(p))` = it defers to `p`,
    /// `None` = no decision (unknown names, or no backup can adopt).
    #[doc(hidden)]
    pub fn probe_decide(&self, observer: &str, down: &str) -> Option<Option<String>> {
        let x = *self.by_name.get(observer)?;
        let p = *self.by_name.get(down)?;
        if usize::from(x) >= self.np || usize::from(p) >= self.np {
            return None;
        }
        match self.decide(x, p) {
            Decision::Adopt => Some(None),
            Decision::Defer(b) => Some(Some(self.name(b).to_owned())),
            Decision::Nobody => None,
        }
    }

    /// Every child as (name, original parent, current parent), configuration order.
    #[doc(hidden)]
    pub fn probe_children(&self) -> Vec<(String, String, Option<String>)> {
        self.children
            .iter()
            .enumerate()
            .map(|(c, ch)| {
                (
                    self.name(self.child_site(super::engine::idx(c))).to_owned(),
                    self.name(ch.original).to_owned(),
                    ch.current.map(|p| self.name(p).to_owned()),
                )
            })
            .collect()
    }

    /// Number of timers waiting (the engine's pending work).
    #[doc(hidden)]
    pub fn probe_timers(&self) -> usize {
        self.timers.len()
    }
}
