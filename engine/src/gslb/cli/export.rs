//! [`export_cli`]: a configuration as the product's CLI text.

use core::fmt::Write as _;

use super::lex::quote;
use super::{DEFAULT_VERSION, PRAGMA};
use crate::gslb::config::{GslbConfig, SiteConfig, SiteRole};

/// Writes a topology as the product's CLI text: parameters, parents, children, versions and
/// locations, backup lists, services, vservers with their domains and services, client
/// locations. [`parse_cli`](super::parse_cli) reads it back to the same configuration (parents first).
pub fn export_cli(cfg: &GslbConfig) -> String {
    let defaults = GslbConfig::default();
    let parents: Vec<&SiteConfig> = cfg
        .sites
        .iter()
        .filter(|s| s.role == SiteRole::Parent)
        .collect();
    let children: Vec<&SiteConfig> = cfg
        .sites
        .iter()
        .filter(|s| s.role == SiteRole::Child)
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# GSLB parent-child topology: {} parent sites, {} child sites (exported by Switchyard)",
        parents.len(),
        children.len()
    );
    let _ = writeln!(
        out,
        "# Lines starting with \"{PRAGMA}\" carry what the product's CLI has no command for."
    );
    if cfg.mep_keepalive_timeout != defaults.mep_keepalive_timeout
        || cfg.learning_time != defaults.learning_time
    {
        let _ = writeln!(
            out,
            "set gslb parameter -mepKeepAliveTimeout {} -svcStateLearningTime {}",
            cfg.mep_keepalive_timeout.as_secs(),
            cfg.learning_time.as_secs()
        );
    }
    let mut ours = Vec::new();
    if cfg.mep_health_interval != defaults.mep_health_interval {
        ours.push(format!(
            "-healthInterval {}",
            cfg.mep_health_interval.as_secs()
        ));
    }
    if cfg.mep_metrics_interval != defaults.mep_metrics_interval {
        ours.push(format!(
            "-metricsInterval {}",
            cfg.mep_metrics_interval.as_secs()
        ));
    }
    if cfg.adoption_delay != defaults.adoption_delay {
        ours.push(format!("-adoptionDelay {}", cfg.adoption_delay.as_secs()));
    }
    if !ours.is_empty() {
        let _ = writeln!(out, "{PRAGMA} parameter {}", ours.join(" "));
    }
    for s in parents.iter().chain(&children) {
        let mut line = format!("add gslb site {} {}", quote(&s.name), s.ip);
        if let Some(p) = s.public_ip {
            let _ = write!(line, " -publicIP {p}");
        }
        if let Some(parent) = &s.parent {
            let _ = write!(line, " -parentSite {}", quote(parent));
        }
        let _ = writeln!(out, "{line}");
    }
    for s in parents.iter().chain(&children) {
        let mut extra = String::new();
        if s.version != DEFAULT_VERSION {
            let _ = write!(extra, " -version {}", quote(&s.version));
        }
        if let Some(l) = &s.location {
            let _ = write!(extra, " -location {}", quote(l));
        }
        if !extra.is_empty() {
            let _ = writeln!(out, "{PRAGMA} site {}{extra}", quote(&s.name));
        }
    }
    for p in &parents {
        if !p.backup_parents.is_empty() {
            let list: Vec<String> = p.backup_parents.iter().map(|b| quote(b)).collect();
            let _ = writeln!(
                out,
                "set gslb site {} -backupParentlist {}",
                quote(&p.name),
                list.join(" ")
            );
        }
    }
    for s in parents.iter().chain(&children) {
        for svc in &s.services {
            let mut line = format!(
                "add gslb service {} {} HTTP {} -siteName {}",
                quote(&svc.name),
                svc.ip,
                svc.port,
                quote(&s.name)
            );
            if let Some(p) = svc.public_ip {
                let _ = write!(line, " -publicIP {p}");
            }
            let _ = writeln!(out, "{line}");
            if svc.monitor {
                let _ = writeln!(
                    out,
                    "bind gslb service {} -monitorName ping",
                    quote(&svc.name)
                );
            }
        }
    }
    for d in &cfg.domains {
        let vs = quote(&format!("vs_{}", d.name));
        let _ = writeln!(
            out,
            "add gslb vserver {vs} HTTP -lbMethod {}",
            d.method.cli_name()
        );
        let _ = writeln!(
            out,
            "bind gslb vserver {vs} -domainName {} -TTL {}",
            quote(&d.name),
            d.ttl_s
        );
        for s in &d.services {
            let _ = writeln!(out, "bind gslb vserver {vs} -serviceName {}", quote(s));
        }
    }
    for c in &cfg.client_locations {
        let mut line = format!("{PRAGMA} clientLocation {} {}", quote(&c.name), c.network);
        if let Some(l) = &c.location {
            let _ = write!(line, " -location {}", quote(l));
        }
        if !c.rtt_ms.is_empty() {
            let pairs: Vec<String> = c
                .rtt_ms
                .iter()
                .map(|(s, ms)| quote(&format!("{s}={ms}")))
                .collect();
            let _ = write!(line, " -rtt {}", pairs.join(" "));
        }
        let _ = writeln!(out, "{line}");
    }
    out
}
