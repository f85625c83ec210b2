//! `[[actions]]`: the timeline of operator actions and injected faults, in a scenario file or
//! in a separate actions file, checked against the scenario.

use serde::{Deserialize, Serialize};

use super::check::{fail, non_empty};
use super::error::{ConfigError, FieldPath};
use super::Scenario;
use crate::action::{Action, TimedAction};
use crate::event::EngineId;

/// A separate actions file: only `[[actions]]` tables.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ActionsFile {
    /// The timeline, in file order.
    pub(crate) actions: Vec<TimedAction>,
}

/// Checks every action against the scenario: the actor (if given) is not blank, and each
/// action fits its engine's configuration (e.g. the heartbeat exists).
pub fn validate_actions(actions: &[TimedAction], scenario: &Scenario) -> Result<(), ConfigError> {
    // Evaluators created earlier in the timeline may be named by later actions.
    let mut created: Vec<String> = Vec::new();
    // After a GSLB topology import, later GSLB actions name the imported sites.
    let mut gslb = std::borrow::Cow::Borrowed(&scenario.gslb);
    for (i, timed) in actions.iter().enumerate() {
        if let Action::EvaluatorSave { name, .. } = &timed.action {
            created.push(name.clone());
        }
        let path = FieldPath::root("actions").index(i);
        if let Some(actor) = &timed.actor {
            non_empty(actor, path.key("actor"))?;
        }
        let checked = match &timed.action {
            Action::Note { text } => {
                non_empty(text, path.key("text"))?;
                Ok(())
            }
            action => match action.engine() {
                EngineId::Core => scenario.core.check_action(action),
                EngineId::Lhc => scenario.lhc.check_action(action),
                EngineId::Lms => scenario.lms.check_action_with(action, &created),
                EngineId::Gslb => gslb.check_action(action),
                EngineId::Autoscale => {
                    // Edited parameters are reported at their exact path in the file
                    // (`actions[3].settings.thresholds[0].max`).
                    if let Action::GroupSettings { group, settings } = action {
                        if scenario.autoscale.group_index(group).is_some() {
                            settings.validate(&path.key("settings"))?;
                        }
                    }
                    scenario.autoscale.check_action(action)
                }
            },
        };
        if let Err(e) = checked {
            return fail(path.key(e.field().unwrap_or("kind")), e.to_string());
        }
        if let Action::TopologyImport { cli } = &timed.action {
            if let Ok(cfg) = crate::gslb::parse_cli(cli) {
                gslb = std::borrow::Cow::Owned(cfg);
            }
        }
    }
    Ok(())
}
