//! The black-hole A/B (SPEC §2 *Load throttling and the black hole effect*): the same
//! seeded storm right after a reboot, with the fix on and off.

use super::actions::{LmsAction, MAX_STORM_USERS};
use super::engine::LmsEngine;
use super::views::{AbPoint, AbReport, AbRun};
use crate::action::error::ActionError;
use crate::clock::{SimDuration, SimTime};
use crate::rng::Rng;
use crate::scenario::check::within;
use crate::scenario::Scenario;
use crate::step::{Apply, Engine};

/// When the A/B reboots the server (the farm has settled).
pub const AB_REBOOT_AT: SimDuration = SimDuration::from_mins(10);
/// Sampling period of the A/B series.
pub const AB_SAMPLE: SimDuration = SimDuration::from_secs(15);

/// Runs the black-hole A/B on fresh engines built from `scenario.lms` (recurring storms
/// off): at 10 min `server` reboots; once it has booted (after `reboot_duration`, so it is
/// starting) a storm of `users` over `over` (of `app`, or drawn per user) begins; sessions
/// per server are sampled every 15 s until `services_start + over + 1m` after the storm
/// began. Once with the fix on, once off.
pub fn black_hole_ab(
    scenario: &Scenario,
    seed: u64,
    server: &str,
    users: u32,
    over: SimDuration,
    app: Option<&str>,
) -> Result<AbReport, ActionError> {
    let lms = &scenario.lms;
    let host = lms
        .server_index(server)
        .map(|s| lms.servers[s].host.clone())
        .ok_or_else(|| lms.unknown_server("server", server))?;
    within("users", u64::from(users), 1, u64::from(MAX_STORM_USERS))?;
    let storm = LmsAction::LogonStorm {
        users,
        over,
        app: app.map(str::to_owned),
    };
    lms.check_action(&storm)?;
    let run = |fix: bool| -> Result<AbRun, ActionError> {
        let mut cfg = lms.clone();
        cfg.black_hole_fix = fix;
        cfg.workload.recurring_storm = None;
        let mut engine = LmsEngine::new(&cfg, &Rng::new(seed));
        let mut out = Vec::new();
        let reboot_at = SimTime::ZERO.saturating_add(AB_REBOOT_AT);
        engine.advance(reboot_at, &mut out);
        let reboot = LmsAction::ServerReboot {
            server: host.clone(),
        };
        engine.apply(reboot_at, &reboot, None, &mut out)?;
        let storm_at = reboot_at.saturating_add(cfg.reboot_duration);
        engine.advance(storm_at, &mut out);
        let first = out.len();
        engine.apply(storm_at, &storm, None, &mut out)?;
        let end = storm_at
            .saturating_add(cfg.services_start)
            .saturating_add(over)
            .saturating_add(SimDuration::from_mins(1));
        let mut series = Vec::new();
        let mut t = storm_at;
        loop {
            engine.advance(t, &mut out);
            series.push(AbPoint {
                t_ms: t.as_millis() - storm_at.as_millis(),
                sessions: engine.servers.iter().map(|s| s.sessions()).collect(),
            });
            if t >= end {
                break;
            }
            t = t.saturating_add(AB_SAMPLE).min(end);
        }
        let mut per_server = vec![0u32; engine.servers.len()];
        let mut placed = 0u32;
        let mut rejected = 0u32;
        for e in &out[first..] {
            match e.kind.as_str() {
                "session.placed" if e.details["mode"] == "least_loaded" => {
                    placed += 1;
                    if let Some(s) = lms.server_index(&e.subject) {
                        per_server[s] += 1;
                    }
                }
                "session.rejected" => rejected += 1,
                _ => {}
            }
        }
        let on_rebooted = lms.server_index(&host).map_or(0, |s| per_server[s]);
        let max = per_server.iter().copied().max().unwrap_or(0);
        Ok(AbRun {
            fix,
            servers: engine.servers.iter().map(|s| s.host.clone()).collect(),
            series,
            placed,
            rejected,
            on_rebooted,
            max_share_pct: (max * 100).checked_div(placed).unwrap_or(0),
        })
    };
    Ok(AbReport {
        server: host.clone(),
        users,
        over_ms: over.as_millis(),
        fix_on: run(true)?,
        fix_off: run(false)?,
    })
}
