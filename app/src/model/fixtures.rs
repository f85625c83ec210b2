//! Engine views built by hand for the model's unit tests.

use engine::lhc::{HaState, RlView};

/// A resource location Working Normally: three connectors up, 1,000 VDAs on the cloud.
pub fn rl(id: &str) -> RlView {
    RlView {
        id: id.to_owned(),
        name: id.to_owned(),
        ha_state: HaState::WorkingNormally,
        ha_state_since_ms: 0,
        ha_ready: true,
        elected: None,
        candidates: Vec::new(),
        connectors_up: 3,
        connectors_total: 3,
        vdas_total: 1000,
        on_cloud: 1000,
        on_secondary: 0,
        secondary: Default::default(),
        unregistered: 0,
        next_broker: String::new(),
        reregistering: 0,
        adc_vip_up: true,
        warnings: Vec::new(),
    }
}
