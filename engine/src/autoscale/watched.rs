//! What can flap in autoscale: each cluster's scaling direction. Scaling out (or in) several
//! times in a row is one state; out and in alternately is the oscillation the detector
//! counts.

use super::decide::Direction;
use super::engine::AutoscaleEngine;
use crate::attention::watch::Watched;

impl Watched for AutoscaleEngine {
    fn subjects(&self, visit: &mut dyn FnMut(&'static str, &str)) {
        let mut name = String::new();
        for group in &self.groups {
            for cluster in &group.clusters {
                name.clear();
                name.push_str(&group.name);
                name.push('/');
                name.push_str(&cluster.zone);
                visit("cluster", &name);
            }
        }
    }

    fn states(&self, out: &mut Vec<u32>) {
        let clusters = self.groups.iter().flat_map(|g| &g.clusters);
        out.extend(clusters.map(|c| match c.last_scale {
            None => 0,
            Some(Direction::Out) => 1,
            Some(Direction::In) => 2,
        }));
    }

    fn state_label(&self, _kind: &str, state: u32) -> String {
        match state {
            1 => "last scaled out",
            2 => "last scaled in",
            _ => "not scaled yet",
        }
        .to_owned()
    }
}
