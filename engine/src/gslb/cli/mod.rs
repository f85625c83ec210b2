//! The topology as the product's CLI text, both ways: [`parse_cli`] (import, with
//! line-numbered errors) and [`export_cli`]. Export then import gives the same configuration
//! (with parents listed before children).
//!
//! Commands (keywords and option names are case-insensitive, names are not; `"…"` quotes a
//! name with spaces):
//!
//! ```text
//! add gslb site <name> <ip> [-publicIP <ip>] [-parentSite <parent>] [-siteType LOCAL|REMOTE]
//! set gslb site <parent> -backupParentlist <s1> … <s5>
//! unset gslb site <parent> -backupParentlist
//! add gslb service <name> <ip> <type> <port> -siteName <site> [-publicIP <ip>]
//! bind gslb service <name> -monitorName <monitor>
//! add gslb vserver <vs> <type> [-lbMethod ROUNDROBIN|LEASTCONNECTION|STATICPROXIMITY|RTT]
//! bind gslb vserver <vs> -domainName <domain> [-TTL <s>]
//! bind gslb vserver <vs> -serviceName <service>
//! set gslb parameter [-mepKeepAliveTimeout <s>] [-svcStateLearningTime <s>]
//! # a comment
//! # switchyard: site <name> [-version <v>] [-location <a.b.c>]
//! # switchyard: clientLocation <name> <cidr> [-location <a.b.c>] [-rtt <site>=<ms> …]
//! # switchyard: parameter [-healthInterval <s>] [-metricsInterval <s>] [-adoptionDelay <s>]
//! ```
//!
//! `# switchyard:` lines carry what the product's CLI has no command for (versions,
//! locations, client locations, our timings); the product reads them as comments. A parent
//! must be added before its children and a site before it is named as a backup (as on the
//! appliance). `-siteType` is accepted and not modelled. A vserver without `-lbMethod` uses
//! LEASTCONNECTION (the product's default); `-TTL` defaults to 5 s.

mod export;
mod lex;
mod pragma;
mod reader;
#[cfg(test)]
mod tests;

pub use export::export_cli;

use std::collections::BTreeMap;

use crate::gslb::config::GslbConfig;
use reader::Reader;

/// A line of CLI text that cannot be imported. Displayed as `line N: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CliError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong and what is allowed.
    pub message: String,
}

/// The default site version (a site with another gets a `# switchyard: site` line).
pub(crate) const DEFAULT_VERSION: &str = "14.1";
/// The pragma prefix.
pub(crate) const PRAGMA: &str = "# switchyard:";

/// Reads a topology from the product's CLI text (see the module doc). Every error names its
/// 1-based line; nothing panics on any input.
pub fn parse_cli(text: &str) -> Result<GslbConfig, CliError> {
    let mut r = Reader {
        cfg: GslbConfig::default(),
        site_lines: BTreeMap::new(),
        vservers: Vec::new(),
        timing_line: None,
    };
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        last = i + 1;
        r.line(i + 1, line).map_err(|message| CliError {
            line: i + 1,
            message,
        })?;
    }
    for v in &r.vservers {
        for &d in &v.domains {
            if let Some(dom) = r.cfg.domains.get_mut(d) {
                dom.services.clone_from(&v.services);
            }
        }
    }
    r.cfg.validate().map_err(|e| CliError {
        line: r.timing_line.unwrap_or(last.max(1)),
        message: e.to_string(),
    })?;
    Ok(r.cfg)
}
