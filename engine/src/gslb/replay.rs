//! Guided replays of the three documented scenarios of SPEC §3 [seed 003] on the documented
//! topology (SiteP1, SiteP2, SiteP3; Child_Site1 child of SiteP1; SiteP1's backups SiteP2
//! then SiteP3), with the default timings: faults at 10 s, MEP DOWN 10 s later, requests
//! reaching the child 3 s after the decision.

use super::actions::GslbAction;
use super::cli::parse_cli;
use super::engine::GslbEngine;
use super::views::{GuidedReplay, GuidedStep};
use crate::clock::SimTime;
use crate::rng::Rng;
use crate::step::{Apply, Engine};

/// The documented topology as CLI text [seed 003].
pub const DOCUMENTED_TOPOLOGY: &str = "\
# The documented backup-parent topology (seed 003, SPEC §3)
add gslb site SiteP1 10.10.0.1
add gslb site SiteP2 10.20.0.1
add gslb site SiteP3 10.30.0.1
add gslb site Child_Site1 10.10.1.1 -parentSite SiteP1
set gslb site SiteP1 -backupParentlist SiteP2 SiteP3
set gslb site SiteP2 -backupParentlist SiteP3 SiteP1
set gslb site SiteP3 -backupParentlist SiteP1 SiteP2
";

/// One planned step: when, title, the documentation's words, the actions done.
struct Plan {
    at_s: u64,
    title: &'static str,
    expected: &'static str,
    actions: Vec<GslbAction>,
}

fn cut(from: &str, to: &str) -> GslbAction {
    GslbAction::MepCut {
        from: from.into(),
        to: to.into(),
        one_way: false,
    }
}

fn plan(number: u8) -> Option<(&'static str, Vec<Plan>)> {
    let start = Plan {
        at_s: 0,
        title: "The documented topology",
        expected: "SiteP1, SiteP2 and SiteP3 are parents in a full MEP mesh; Child_Site1 is SiteP1's child. SiteP1's backup parents: SiteP2 (higher preference), then SiteP3.",
        actions: Vec::new(),
    };
    let steps = match number {
        1 => (
            "Scenario 1: SiteP1 goes down",
            vec![
                start,
                Plan {
                    at_s: 10,
                    title: "SiteP1 goes down",
                    expected: "SiteP1 stops sending MEP packets.",
                    actions: vec![GslbAction::SiteDown {
                        site: "SiteP1".into(),
                    }],
                },
                Plan {
                    at_s: 20,
                    title: "SiteP2 and SiteP3 see MEP to SiteP1 DOWN",
                    expected: "SiteP2 and SiteP3 detect that MEP to SiteP1 is DOWN. SiteP2 is first in SiteP1's backup list, so it connects to Child_Site1 and sends the list; SiteP3 assumes the child is now SiteP2's.",
                    actions: Vec::new(),
                },
                Plan {
                    at_s: 23,
                    title: "Child_Site1 accepts SiteP2",
                    expected: "Child_Site1 uses the list (SiteP2, SiteP3) to decide; it accepts the connection and becomes SiteP2's child.",
                    actions: Vec::new(),
                },
                Plan {
                    at_s: 60,
                    title: "SiteP1 is back",
                    expected: "When SiteP1 is back it sends a connection request to Child_Site1.",
                    actions: vec![GslbAction::SiteUp {
                        site: "SiteP1".into(),
                    }],
                },
                Plan {
                    at_s: 63,
                    title: "Child_Site1 migrates back to SiteP1",
                    expected: "The original parent's request has priority: Child_Site1 migrates back to SiteP1.",
                    actions: Vec::new(),
                },
            ],
        ),
        2 => (
            "Scenario 2: only the MEP link SiteP1-SiteP2 breaks",
            vec![
                start,
                Plan {
                    at_s: 10,
                    title: "The MEP link SiteP1-SiteP2 breaks",
                    expected: "Only the MEP connection between SiteP1 and SiteP2 is interrupted.",
                    actions: vec![cut("SiteP1", "SiteP2")],
                },
                Plan {
                    at_s: 20,
                    title: "SiteP2 sees SiteP1 DOWN and tries to adopt Child_Site1",
                    expected: "SiteP2 sees MEP to SiteP1 DOWN; first in SiteP1's backup list, it tries to connect to Child_Site1.",
                    actions: Vec::new(),
                },
                Plan {
                    at_s: 23,
                    title: "Child_Site1 rejects SiteP2",
                    expected: "Child_Site1 rejects SiteP2's connection request because its parent, SiteP1, is still up from its point of view.",
                    actions: Vec::new(),
                },
            ],
        ),
        3 => (
            "Scenario 3: SiteP2 still sees SiteP1, SiteP3 and the child do not",
            vec![
                start,
                Plan {
                    at_s: 10,
                    title: "SiteP3-SiteP2 breaks; SiteP1 unreachable from SiteP3 and Child_Site1",
                    expected: "The links SiteP3-SiteP2, SiteP1-SiteP3 and SiteP1-Child_Site1 are cut; SiteP1-SiteP2 stays up.",
                    actions: vec![
                        cut("SiteP3", "SiteP2"),
                        cut("SiteP1", "SiteP3"),
                        cut("SiteP1", "Child_Site1"),
                    ],
                },
                Plan {
                    at_s: 20,
                    title: "SiteP3 and Child_Site1 see SiteP1 DOWN; SiteP2 still sees it up",
                    expected: "SiteP2 takes no action. SiteP3 checks SiteP1's backup list: SiteP2 has a higher preference but is DOWN from its view, so SiteP3 tries to connect to Child_Site1.",
                    actions: Vec::new(),
                },
                Plan {
                    at_s: 23,
                    title: "Child_Site1 accepts SiteP3",
                    expected: "Child_Site1 has detected that SiteP1 is DOWN, so it accepts SiteP3's connection request.",
                    actions: Vec::new(),
                },
                Plan {
                    at_s: 40,
                    title: "The MEP link SiteP1-SiteP2 breaks too",
                    expected: "Now the connection between SiteP1 and SiteP2 is interrupted.",
                    actions: vec![cut("SiteP1", "SiteP2")],
                },
                Plan {
                    at_s: 50,
                    title: "SiteP2 sees SiteP1 DOWN and finds itself the preferred backup",
                    expected: "SiteP2 checks SiteP1's backup list, finds itself the preferred backup and tries to connect to Child_Site1.",
                    actions: Vec::new(),
                },
                Plan {
                    at_s: 53,
                    title: "Child_Site1 migrates from SiteP3 to SiteP2",
                    expected: "Child_Site1 evaluates the new request against SiteP1's list, finds SiteP2 preferred over SiteP3 and migrates from SiteP3 to SiteP2.",
                    actions: Vec::new(),
                },
            ],
        ),
        _ => return None,
    };
    Some(steps)
}

/// A guided replay of documented scenario `number` (1, 2 or 3) on its documented topology:
/// each step's actions, the engine's events until the next step, and the topology then.
pub fn guided_replay(number: u8) -> Option<GuidedReplay> {
    let (title, plans) = plan(number)?;
    let cfg = parse_cli(DOCUMENTED_TOPOLOGY).ok()?;
    let mut engine = GslbEngine::new(&cfg, &Rng::new(u64::from(number)));
    let mut steps = Vec::with_capacity(plans.len());
    for (i, p) in plans.iter().enumerate() {
        let at = p.at_s * 1000;
        let until = plans.get(i + 1).map_or(at + 10_000, |n| n.at_s * 1000 - 1);
        let mut events = Vec::new();
        engine.advance(SimTime(at), &mut events);
        for action in &p.actions {
            // The plan's actions are valid on this topology; a refusal would only leave the
            // step without its events.
            let _ = engine.apply(SimTime(at), action, Some("guided replay"), &mut events);
        }
        engine.advance(SimTime(until), &mut events);
        steps.push(GuidedStep {
            at_ms: at,
            title: p.title.to_owned(),
            expected: p.expected.to_owned(),
            events,
            topology: engine.topology(),
        });
    }
    Some(GuidedReplay {
        number,
        title: title.to_owned(),
        cli: DOCUMENTED_TOPOLOGY.to_owned(),
        steps,
    })
}
