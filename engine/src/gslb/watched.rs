//! What can flap in the GSLB engine: each site (UP/DOWN), each parent-parent MEP link (its
//! status from both ends' views) and each child (the parent holding it).

use super::engine::GslbEngine;
use super::mep::status_of;
use super::views::MepStatus;
use crate::attention::watch::Watched;

const MEP_STATUS: [MepStatus; 3] = [MepStatus::Active, MepStatus::Inactive, MepStatus::Down];

impl Watched for GslbEngine {
    fn watch(&self, visit: &mut dyn FnMut(&'static str, &str, u32)) {
        for site in &self.sites {
            visit("site", &site.name, u32::from(site.up));
        }
        let mut name = String::new();
        for a in 0..self.np {
            for b in a + 1..self.np {
                let (a, b) = (super::engine::idx(a), super::engine::idx(b));
                let (_, b_sees, _) = self.direction(a, b);
                let (_, a_sees, _) = self.direction(b, a);
                let status = status_of(a_sees, b_sees);
                let code = MEP_STATUS.iter().position(|s| *s == status).unwrap_or(0);
                name.clear();
                name.push_str(self.name(a));
                name.push('-');
                name.push_str(self.name(b));
                visit("mep_link", &name, code as u32);
            }
        }
        for (c, child) in self.children.iter().enumerate() {
            let site = self.child_site(super::engine::idx(c));
            let parent = child.current.map_or(0, |p| u32::from(p) + 1);
            visit("child", self.name(site), parent);
        }
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
