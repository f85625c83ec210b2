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

/// A GSLB topology of `parents` parents (`P00`…) and `children` children (`C0000`…, dealt
/// round the parents), every site up and every link ACTIVE; the parents form a full mesh.
pub fn topology(parents: usize, children: usize) -> engine::gslb::views::TopologyView {
    use engine::gslb::config::SiteRole;
    use engine::gslb::views::{
        DirectionView, LinkKind, LinkView, MepStatus, SiteView, TopologyView,
    };
    let site = |name: String, role: SiteRole, parent: Option<String>| SiteView {
        name,
        ip: "10.0.0.1".to_owned(),
        public_ip: None,
        role,
        version: "14.1".to_owned(),
        up: true,
        configured_parent: parent.clone(),
        current_parent: parent,
        backup_parents: Vec::new(),
        mep_status: MepStatus::Active,
        peer_view: Vec::new(),
        children: Vec::new(),
        services: Vec::new(),
        learning_until_ms: None,
        since_ms: 0,
    };
    let way = || DirectionView {
        delivering: true,
        seen_up: true,
        since_ms: 0,
    };
    let link = |a: &str, b: &str, kind| LinkView {
        a: a.to_owned(),
        b: b.to_owned(),
        kind,
        initiator: a.to_owned(),
        initiator_rule: "lower IP".to_owned(),
        a_to_b: way(),
        b_to_a: way(),
        status: MepStatus::Active,
        rtt_ms: None,
    };
    let names: Vec<String> = (0..parents).map(|i| format!("P{i:02}")).collect();
    let mut sites: Vec<SiteView> = names
        .iter()
        .map(|n| site(n.clone(), SiteRole::Parent, None))
        .collect();
    let mut links = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            links.push(link(a, b, LinkKind::ParentParent));
        }
    }
    for c in 0..children {
        let parent = names[c % parents].clone();
        let name = format!("C{c:04}");
        links.push(link(&parent, &name, LinkKind::ParentChild));
        sites.push(site(name, SiteRole::Child, Some(parent)));
    }
    TopologyView {
        sites,
        links,
        domains: Vec::new(),
        settings: Vec::new(),
        parents_up: parents as u32,
        parents_total: parents as u32,
        children_total: children as u32,
        children_adopted: 0,
        children_orphaned: 0,
        adoptions: 0,
        rejections: 0,
        dns_answered: 0,
    }
}
