//! `[[actions]]`: the timeline of operator actions and injected faults, in a scenario file or
//! in a separate actions file, each checked by its own engine's configuration check.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::check::{fail, non_empty};
use super::error::{ConfigError, FieldPath};
use super::Scenario;
use crate::action::{Action, TimedAction};
use crate::autoscale::AutoscaleAction;
use crate::core::CoreAction;
use crate::gslb::GslbAction;
use crate::lms::LmsAction;

/// A separate actions file: only `[[actions]]` tables.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ActionsFile {
    /// The timeline, in file order.
    pub(crate) actions: Vec<TimedAction>,
}

/// Checks every action against the scenario: the actor (if given) is not blank, and each
/// action fits its engine's configuration (e.g. the heartbeat exists). Earlier actions of the
/// timeline count: an evaluator it creates may be named later, and after a GSLB topology
/// import later GSLB actions name the imported sites.
pub fn validate_actions(actions: &[TimedAction], scenario: &Scenario) -> Result<(), ConfigError> {
    super::limits::check_actions(actions)?;
    let mut created: Vec<String> = Vec::new();
    let mut gslb = Cow::Borrowed(&scenario.gslb);
    for (i, timed) in actions.iter().enumerate() {
        let path = FieldPath::root("actions").index(i);
        if let Some(actor) = &timed.actor {
            non_empty(actor, path.key("actor"))?;
        }
        let checked = match &timed.action {
            Action::Core(CoreAction::Note { text }) => {
                non_empty(text, path.key("text"))?;
                Ok(())
            }
            Action::Core(a) => scenario.core.check_action(a),
            Action::Lhc(a) => scenario.lhc.check_action(a),
            Action::Lms(a) => {
                if let LmsAction::EvaluatorSave { name, .. } = a {
                    created.push(name.clone());
                }
                scenario.lms.check_action_with(a, &created)
            }
            Action::Gslb(a) => gslb.check_action(a),
            Action::Autoscale(a) => {
                // Edited parameters are reported at their exact path in the file
                // (`actions[3].settings.thresholds[0].max`).
                if let AutoscaleAction::GroupSettings { group, settings } = a {
                    if scenario.autoscale.group_index(group).is_some() {
                        settings.validate(&path.key("settings"))?;
                    }
                }
                scenario.autoscale.check_action(a)
            }
        };
        if let Err(e) = checked {
            return fail(path.key(e.field().unwrap_or("kind")), e.to_string());
        }
        if let Action::Gslb(GslbAction::TopologyImport { cli }) = &timed.action {
            if let Ok(cfg) = crate::gslb::parse_cli(cli) {
                gslb = Cow::Owned(cfg);
            }
        }
    }
    Ok(())
}
