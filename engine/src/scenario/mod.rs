//! Scenario files: the TOML description of an estate (the four engines' sections), its clock
//! and seed, and a timeline of actions. `docs/SCENARIOS.md` documents the format.
//!
//! This folder holds what every engine shares: [`Scenario`] (the whole file), [`meta`]
//! (`[scenario]`, `[clock]`), [`actions`] (the timeline, each action checked by its engine),
//! [`error`] (errors with their file:line), [`limits`] (the size limits), `location` (key paths to lines), [`Warning`], and
//! `check` (validation helpers). Each engine's section lives in its own folder, with its
//! checks: [`crate::core::CoreConfig`], [`crate::lhc::LhcConfig`], [`crate::lms::LmsConfig`],
//! [`crate::gslb::GslbConfig`], [`crate::autoscale::AutoscaleConfig`].
//!
//! Parsing has three steps: TOML syntax (toml_edit, which keeps spans), typed decoding (serde,
//! `deny_unknown_fields` everywhere so a typo names the field), then semantic validation
//! (each section's `validate()`, then the actions against the scenario). Every failure becomes
//! a [`ScenarioError`] `file:line:column: field: message`.

pub mod actions;
pub(crate) mod check;
pub mod error;
pub mod limits;
mod location;
pub mod meta;
mod warning;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use self::actions::{validate_actions, ActionsFile};
pub use self::error::{ConfigError, FieldPath, PathSegment, ScenarioError};
use self::location::{line_col, SourceMap};
use self::meta::{ClockConfig, ScenarioMeta};
pub use self::warning::Warning;
use crate::action::TimedAction;
use crate::attention::AttentionConfig;
use crate::autoscale::AutoscaleConfig;
use crate::core::CoreConfig;
use crate::gslb::GslbConfig;
use crate::lhc::LhcConfig;
use crate::lms::LmsConfig;

/// A whole scenario file. Only `[scenario]` (with its `name`) is required; every other
/// section defaults to empty.
///
/// Serializes back to the same TOML form (with defaults spelled out), so an edited scenario
/// can be exported. Deserializing (from TOML or JSON) only checks types: use
/// [`from_toml_str`](Scenario::from_toml_str), or call [`validate`](Scenario::validate) after
/// deserializing from another source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// `[scenario]`: name, description, seed.
    pub scenario: ScenarioMeta,
    /// `[clock]`.
    #[serde(default)]
    pub clock: ClockConfig,
    /// `[core]`: heartbeats.
    #[serde(default)]
    pub core: CoreConfig,
    /// `[lhc]`: Local Host Cache / HA mode.
    #[serde(default)]
    pub lhc: LhcConfig,
    /// `[lms]`: load management.
    #[serde(default)]
    pub lms: LmsConfig,
    /// `[gslb]`: GSLB parent-child topology.
    #[serde(default)]
    pub gslb: GslbConfig,
    /// `[autoscale]`: autoscale groups.
    #[serde(default)]
    pub autoscale: AutoscaleConfig,
    /// `[attention]`: flap detection per engine.
    #[serde(default)]
    pub attention: AttentionConfig,
    /// `[[actions]]`: the scenario's own timeline, in file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<TimedAction>,
}

impl Scenario {
    /// Parses and validates a scenario file. `origin` is the file name used in errors.
    ///
    /// ```
    /// let err = engine::Scenario::from_toml_str("[scenario]\nnmae = \"x\"\n", "bad.toml");
    /// assert_eq!(
    ///     err.map_err(|e| e.to_string()).err().as_deref(),
    ///     Some("bad.toml:2:1: scenario.nmae: unknown field `nmae`, expected one of `name`, `description`, `seed`")
    /// );
    /// ```
    pub fn from_toml_str(src: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        parse_validated(src, origin, Scenario::validate)
    }

    /// The scenario as TOML text that [`from_toml_str`](Scenario::from_toml_str) reads back
    /// to an equal scenario (defaults spelled out). Kept with a run, so that an earlier run
    /// can be rebuilt after the configured scenario changed.
    pub fn to_toml_string(&self) -> Result<String, String> {
        toml::to_string(self).map_err(|e| e.to_string())
    }

    /// The scenario's name.
    pub fn name(&self) -> &str {
        &self.scenario.name
    }

    /// The scenario's default seed.
    pub fn seed(&self) -> u64 {
        self.scenario.seed
    }

    /// Checks the size limits ([`limits`]), then validates every section, then the actions
    /// against the scenario.
    pub fn validate(&self) -> Result<(), ConfigError> {
        limits::check(self)?;
        self.scenario.validate()?;
        self.clock.validate()?;
        self.core.validate()?;
        self.lhc.validate()?;
        self.lms.validate()?;
        self.gslb.validate()?;
        self.autoscale.validate()?;
        self.attention.validate()?;
        validate_actions(&self.actions, self)
    }

    /// Configuration warnings of a valid scenario (not HA-ready resource locations, sizing
    /// limits, parents on different versions).
    pub fn warnings(&self) -> Vec<Warning> {
        let mut out = self.lhc.warnings();
        out.extend(self.gslb.warnings());
        out
    }
}

/// Parses a separate actions file (only `[[actions]]` tables, same format as in a scenario)
/// and checks each action against `scenario`. `origin` is the file name used in errors.
pub fn parse_actions(
    src: &str,
    origin: &str,
    scenario: &Scenario,
) -> Result<Vec<TimedAction>, ScenarioError> {
    let file: ActionsFile = parse_validated(src, origin, |f: &ActionsFile| {
        validate_actions(&f.actions, scenario)
    })?;
    Ok(file.actions)
}

/// Syntax, then typed decoding, then `validate`; every error located in `src`.
///
/// The source map that locates an error (a `toml_edit` document of the whole file) is built
/// only once there is an error to locate: for a valid file it was most of the time spent
/// here and most of the memory (0.9 s and ~140 MiB for the generated full-scale estate's
/// 1.5 MB). A syntax error fails both parsers, so it is still reported as one.
fn parse_validated<T: DeserializeOwned>(
    src: &str,
    origin: &str,
    validate: impl FnOnce(&T) -> Result<(), ConfigError>,
) -> Result<T, ScenarioError> {
    let error = |offset: usize, field: String, message: &str| {
        let (line, column) = line_col(src, offset);
        ScenarioError {
            origin: origin.to_owned(),
            line,
            column,
            field,
            message: message.trim().replace('\n', "; "),
        }
    };
    let source_map = || {
        toml_edit::Document::parse(src)
            .map(SourceMap::new)
            .map_err(|e| {
                let offset = e.span().map_or(0, |s| s.start);
                error(offset, "(syntax)".to_owned(), e.message())
            })
    };
    let value: T = match toml::from_str(src) {
        Ok(value) => value,
        Err(e) => {
            let map = source_map()?;
            let span = e.span().unwrap_or(0..0);
            let offset = span.start;
            let (path, refined) = map.refine(map.path_at(span), e.message());
            let offset = refined.unwrap_or(offset);
            let field = if path.is_empty() {
                "(document)".to_owned()
            } else {
                path.to_string()
            };
            return Err(error(offset, field, e.message()));
        }
    };
    if let Err(e) = validate(&value) {
        let map = source_map()?;
        return Err(error(
            map.offset_of(&e.path),
            e.path.to_string(),
            &e.message,
        ));
    }
    Ok(value)
}
