//! Pure, deterministic simulation engines of Switchyard.
//!
//! This crate does no IO and never reads the wall clock; it builds for `wasm32` so the UI can
//! reuse its types and run what-ifs. A run is a deterministic function of (scenario, seed,
//! timeline of actions): the same inputs give the same events, byte for byte.
//!
//! # The step contract
//!
//! Every engine is state plus a step function whose output is [`Event`]s (the [`Engine`]
//! trait). The runtime never sleeps inside an engine; it tells the [`Simulation`] how far to
//! move simulated time and persists what comes back:
//!
//! 1. [`Engine::next_wakeup`] says when an engine next has work.
//! 2. [`Simulation::advance_to`] visits every due instant up to the target in time order. At
//!    each instant, due actions are applied first (time, then scheduling order), then each
//!    engine whose wakeup has come is [advanced](Engine::advance), in the fixed order of
//!    [`EngineId::ALL`]. Event times never go backwards.
//! 3. Operator actions go through [`Simulation::apply_now`] (now) or
//!    [`Simulation::schedule`] (later). An [`Action`] names the engine it is for; the
//!    simulation routes it there once, and that engine [applies](Apply::apply) its own action
//!    type (checked against its configuration, then its state). A rejected action changes
//!    nothing.
//! 4. Randomness comes from seeded [`Rng`] streams, forked per engine and subject by a stable
//!    label, so adding a heartbeat or an engine never changes another stream.
//!
//! The runtime maps wall time to simulated time with a [`Speed`]; single-step is
//! [`Simulation::step_to_next`].
//!
//! ```
//! use engine::{Scenario, SimTime, Simulation};
//!
//! let src = r#"
//! [scenario]
//! name = "doc"
//!
//! [[core.heartbeats]]
//! id = "hb"
//! interval = "30s"
//! jitter = "2s"
//!
//! [[actions]]
//! at = "1m"
//! actor = "alice"
//! kind = "heartbeat_pause"
//! heartbeat = "hb"
//! "#;
//! let scenario = Scenario::from_toml_str(src, "doc.toml")?;
//! let mut sim = Simulation::new(&scenario, 7);
//! let events = sim.advance_to(SimTime::from_mins(2));
//! for event in &events {
//!     println!("{}", event.to_json_line());
//! }
//! // {"t_ms":0,"engine":"core","subject":"scenario","kind":"simulation.started",...}
//! // {"t_ms":...,"engine":"core","subject":"hb","kind":"heartbeat","details":{...,"seq":1}}
//! // ...
//! // {"t_ms":60000,"engine":"core","subject":"hb","kind":"heartbeat.paused",...,"actor":"alice"}
//! assert_eq!(events[0].kind, "simulation.started");
//! let paused = events.iter().find(|e| e.kind == "heartbeat.paused");
//! assert!(paused.is_some_and(|e| e.t_ms == 60_000 && e.actor.as_deref() == Some("alice")));
//! assert!(events.iter().all(|e| e.kind != "heartbeat" || e.t_ms <= 60_000));
//! assert_eq!(sim.now(), SimTime::from_mins(2));
//! # Ok::<(), engine::ScenarioError>(())
//! ```
//!
//! # Map
//!
//! Shared by every engine: [`clock`] (simulated time, speed), [`duration`] (duration texts),
//! [`rng`], [`event`], [`step`] (the [`Engine`] and [`Apply`] traits), [`action`] (the
//! [`Action`] that names its engine, [`TimedAction`], [`ActionError`], the flat wire form)
//! and [`scenario`] (the file as a whole, errors with their file:line, warnings, the check
//! helpers). [`sim`] composes the engines into one run; [`snapshot`] saves a run's whole
//! state as bytes and restores it with the same future.
//!
//! One folder per engine, each with the same shape: `config.rs` (its section of the
//! scenario file, `validate()` and look-ups), `actions.rs` (its action type, checked against
//! the configuration and against the state, side by side), `engine.rs` (the step contract),
//! the rules in files of their own, `query.rs` and `views.rs` (read-only, for the console):
//!
//! | folder | engine | SPEC |
//! |---|---|---|
//! | [`core`] | heartbeats and notes | §0 |
//! | [`lhc`] | Local Host Cache / HA mode of Cloud Connectors | §1 |
//! | [`lms`] | load management: zones, data collectors, evaluators, placement | §2 |
//! | [`gslb`] | GSLB parent-child topology over MEP, adoption, ADNS | §3 |
//! | [`autoscale`] | autoscale of ADC clusters | §4 |
//!
//! No engine folder imports another; [`role`] holds the console's user roles, shared by the
//! server and the browser bundle.

pub mod action;
pub mod alerts;
pub mod attention;
pub mod autoscale;
pub mod clock;
pub mod core;
pub mod duration;
pub mod event;
pub mod flap;
pub mod gslb;
pub mod lhc;
pub mod lms;
pub mod rng;
pub mod role;
pub mod scenario;
pub mod sim;
pub mod snapshot;
pub mod step;

pub use action::{Action, ActionError, TimedAction};
pub use autoscale::{AutoscaleAction, AutoscaleEngine};
pub use clock::{SimDuration, SimTime, SimTimeParseError, Speed, SpeedParseError};
pub use core::CoreAction;
pub use duration::{format_duration, parse_duration, DurationError};
pub use event::{Details, EngineId, EngineIdParseError, Event};
pub use gslb::{GslbAction, GslbEngine};
pub use lhc::{Component, LhcAction, LhcEngine};
pub use lms::{LmsAction, LmsEngine, SpikeCounter};
pub use rng::Rng;
pub use role::{Role, UnknownRole};
pub use scenario::{parse_actions, ConfigError, FieldPath, Scenario, ScenarioError, Warning};
pub use sim::Simulation;
pub use snapshot::{Snapshot, SnapshotError, SNAPSHOT_VERSION};
pub use step::{Apply, Engine};
