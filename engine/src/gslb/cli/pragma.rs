//! `# switchyard:` lines: what the product's CLI has no command for (versions, locations,
//! client locations, our timings).

use std::collections::BTreeMap;

use super::lex::{check_options, seconds, single, split_options, Tok};
use super::reader::Reader;
use crate::gslb::config::{parse_version, ClientLocationConfig};
use crate::gslb::net::{valid_location, Network, NetworkParseError};

impl Reader {
    pub(super) fn pragma(&mut self, n: usize, toks: &[Tok]) -> Result<(), String> {
        let Some(((what, _), args)) = toks.split_first() else {
            return Err(
                "a `# switchyard:` line needs a directive (site, clientLocation, parameter)".into(),
            );
        };
        let (pos, options) = split_options(args);
        match what.to_ascii_lowercase().as_str() {
            "site" => {
                let [name] = pos.as_slice() else {
                    return Err(
                        "expected # switchyard: site <name> [-version <v>] [-location <a.b.c>]"
                            .into(),
                    );
                };
                check_options(&options, &["version", "location"], "# switchyard: site")?;
                let version = single(&options, "version")?.map(str::to_owned);
                let location = single(&options, "location")?.map(str::to_owned);
                if let Some(v) = &version {
                    parse_version(v)?;
                }
                if let Some(l) = &location {
                    if !valid_location(l) {
                        return Err(format!(
                            "-location takes dotted qualifiers like EU.FR.Paris; got \"{l}\""
                        ));
                    }
                }
                let site = self.site_mut(name)?;
                if let Some(v) = version {
                    site.version = v;
                }
                if location.is_some() {
                    site.location = location;
                }
                Ok(())
            }
            "clientlocation" => {
                let [name, net] = pos.as_slice() else {
                    return Err("expected # switchyard: clientLocation <name> <cidr> [-location <a.b.c>] [-rtt <site>=<ms> …]".into());
                };
                check_options(
                    &options,
                    &["location", "rtt"],
                    "# switchyard: clientLocation",
                )?;
                if self.cfg.client_locations.iter().any(|c| c.name == *name) {
                    return Err(format!("duplicate client location \"{name}\""));
                }
                let network: Network = net.parse().map_err(|e: NetworkParseError| e.to_string())?;
                let location = single(&options, "location")?.map(str::to_owned);
                if !valid_location(location.as_deref().unwrap_or(name)) {
                    return Err(format!(
                        "a client location needs dotted qualifiers like EU.FR.Paris; got \"{}\"",
                        location.as_deref().unwrap_or(name)
                    ));
                }
                let mut rtt_ms = BTreeMap::new();
                for pair in options
                    .iter()
                    .filter(|(o, ..)| o == "rtt")
                    .flat_map(|(_, v, _)| v)
                {
                    let (site, ms) = pair
                        .split_once('=')
                        .ok_or_else(|| format!("-rtt takes <site>=<ms> pairs; got \"{pair}\""))?;
                    if self.cfg.site(site).is_none() {
                        return Err(format!("-rtt names unknown site \"{site}\""));
                    }
                    let ms: u32 =
                        ms.parse().ok().filter(|m| *m <= 60_000).ok_or_else(|| {
                            format!("-rtt {site} takes 0 to 60000 ms; got \"{ms}\"")
                        })?;
                    rtt_ms.insert(site.to_owned(), ms);
                }
                self.cfg.client_locations.push(ClientLocationConfig {
                    name: name.clone(),
                    network,
                    location,
                    rtt_ms,
                });
                Ok(())
            }
            "parameter" => {
                self.timing_line = Some(n);
                if !pos.is_empty() || options.is_empty() {
                    return Err("expected # switchyard: parameter [-healthInterval <s>] [-metricsInterval <s>] [-adoptionDelay <s>]".into());
                }
                check_options(
                    &options,
                    &["healthinterval", "metricsinterval", "adoptiondelay"],
                    "# switchyard: parameter",
                )?;
                if let Some(v) = single(&options, "healthinterval")? {
                    self.cfg.mep_health_interval = seconds(v, "-healthInterval", 1, 300)?;
                }
                if let Some(v) = single(&options, "metricsinterval")? {
                    self.cfg.mep_metrics_interval = seconds(v, "-metricsInterval", 1, 300)?;
                }
                if let Some(v) = single(&options, "adoptiondelay")? {
                    self.cfg.adoption_delay = seconds(v, "-adoptionDelay", 0, 300)?;
                }
                Ok(())
            }
            other => Err(format!(
                "unknown switchyard directive `{other}` (expected site, clientLocation, parameter)"
            )),
        }
    }
}
