//! What can flap in the GSLB engine: each site (UP/DOWN), each parent-parent MEP link (its
//! status from both ends' views) and each child (the parent holding it).

use super::engine::{idx, GslbEngine};
use super::mep::status_of;
use super::views::MepStatus;
use crate::attention::watch::Watched;

const MEP_STATUS: [MepStatus; 3] = [MepStatus::Active, MepStatus::Inactive, MepStatus::Down];

impl Watched for GslbEngine {
    fn subjects_generation(&self) -> u64 {
        self.topology_generation
    }

    fn subjects(&self, visit: &mut dyn FnMut(&'static str, &str)) {
        for site in &self.sites {
            visit("site", &site.name);
        }
        for a in 0..self.np {
            for b in a + 1..self.np {
                let (a, b) = (idx(a), idx(b));
                visit("mep_link", &format!("{}-{}", self.name(a), self.name(b)));
            }
        }
        for c in 0..self.children.len() {
            visit("child", self.name(self.child_site(idx(c))));
        }
    }

    fn states(&self, out: &mut Vec<u32>) {
        out.extend(self.sites.iter().map(|s| u32::from(s.up)));
        for a in 0..self.np {
            for b in a + 1..self.np {
                let (a, b) = (idx(a), idx(b));
                let (_, b_sees, _) = self.direction(a, b);
                let (_, a_sees, _) = self.direction(b, a);
                let status = status_of(a_sees, b_sees);
                let code = MEP_STATUS.iter().position(|s| *s == status).unwrap_or(0);
                out.push(code as u32);
            }
        }
        out.extend(
            self.children
                .iter()
                .map(|c| c.current.map_or(0, |p| u32::from(p) + 1)),
        );
    }

    fn state_label(&self, kind: &str, state: u32) -> String {
        match kind {
            "site" if state == 1 => "UP".to_owned(),
            "site" => "DOWN".to_owned(),
            "mep_link" => MEP_STATUS
                .get(state as usize)
                .map_or("unknown", |s| s.as_str())
                .to_owned(),
            _ => match state.checked_sub(1) {
                Some(p) => format!(
                    "held by {}",
                    self.name(u16::try_from(p).unwrap_or(u16::MAX))
                ),
                None => "orphaned".to_owned(),
            },
        }
    }
}
