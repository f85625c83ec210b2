//! The commands of the product's CLI (`add/set/unset gslb site`, services, vservers,
//! parameters), applied line by line to the configuration being read.

use std::collections::BTreeMap;

use super::lex::{check_options, ip, method, seconds, single, split_options, tokens, Options, Tok};
use super::{DEFAULT_VERSION, PRAGMA};
use crate::gslb::config::{
    DomainConfig, GslbConfig, GslbMethod, ServiceConfig, SiteConfig, SiteRole, MAX_CHILDREN,
    MAX_LEARNING_S, MAX_PARENTS,
};

/// A `gslb vserver` being read.
pub(super) struct Vserver {
    pub(super) name: String,
    pub(super) method: GslbMethod,
    pub(super) services: Vec<String>,
    pub(super) domains: Vec<usize>,
}

/// Import state.
pub(super) struct Reader {
    pub(super) cfg: GslbConfig,
    /// Line each site was added on.
    pub(super) site_lines: BTreeMap<String, usize>,
    pub(super) vservers: Vec<Vserver>,
    /// Line of the last timing setting (where a final timing check error is reported).
    pub(super) timing_line: Option<usize>,
}

impl Reader {
    fn parents(&self) -> String {
        let names: Vec<&str> = self
            .cfg
            .sites
            .iter()
            .filter(|s| s.role == SiteRole::Parent)
            .map(|s| s.name.as_str())
            .collect();
        if names.is_empty() {
            "(none)".into()
        } else {
            names.join(", ")
        }
    }

    pub(super) fn site_mut(&mut self, name: &str) -> Result<&mut SiteConfig, String> {
        let known = crate::scenario::check::some_of(self.cfg.sites.iter().map(|s| s.name.as_str()));
        self.cfg
            .sites
            .iter_mut()
            .find(|s| s.name == name)
            .ok_or_else(|| format!("unknown site \"{name}\" (known: {known})"))
    }

    pub(super) fn line(&mut self, n: usize, text: &str) -> Result<(), String> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if let Some(rest) = trimmed.strip_prefix(PRAGMA) {
            return self.pragma(n, &tokens(rest)?);
        }
        if trimmed.starts_with('#') {
            return Ok(());
        }
        let toks = tokens(trimmed)?;
        let head: Vec<String> = toks
            .iter()
            .take(3)
            .map(|t| t.0.to_ascii_lowercase())
            .collect();
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        let args = &toks[toks.len().min(3)..];
        match head.as_slice() {
            ["add", "gslb", "site"] => self.add_site(n, args),
            ["set", "gslb", "site"] => self.set_site(args),
            ["unset", "gslb", "site"] => self.unset_site(args),
            ["add", "gslb", "service"] => self.add_service(args),
            ["bind", "gslb", "service"] => self.bind_service(args),
            ["add", "gslb", "vserver"] => self.add_vserver(args),
            ["bind", "gslb", "vserver"] => self.bind_vserver(args),
            ["set", "gslb", "parameter"] => {
                self.timing_line = Some(n);
                self.set_parameter(args)
            }
            _ => Err(format!(
                "unknown command `{}`; expected add/set/unset gslb site, add/bind gslb service, add/bind gslb vserver or set gslb parameter",
                toks.iter()
                    .take(3)
                    .map(|t| t.0.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        }
    }

    fn add_site(&mut self, n: usize, args: &[Tok]) -> Result<(), String> {
        const USAGE: &str = "add gslb site <name> <ip> [-publicIP <ip>] [-parentSite <parent>]";
        let (mut pos, options) = split_options(args);
        if pos.len() == 3
            && (pos[1].eq_ignore_ascii_case("LOCAL") || pos[1].eq_ignore_ascii_case("REMOTE"))
        {
            pos.remove(1);
        }
        let [name, addr] = pos.as_slice() else {
            return Err(format!("expected {USAGE}"));
        };
        if name.trim().is_empty() {
            return Err("a site name must not be empty".into());
        }
        check_options(
            &options,
            &["publicip", "parentsite", "sitetype"],
            "add gslb site",
        )?;
        let addr = ip(addr)?;
        let public_ip = match single(&options, "publicip")? {
            None | Some("*") => None,
            Some(p) => Some(ip(p)?),
        };
        if let Some(t) = single(&options, "sitetype")? {
            if !t.eq_ignore_ascii_case("LOCAL") && !t.eq_ignore_ascii_case("REMOTE") {
                return Err(format!("-siteType is LOCAL or REMOTE; got {t}"));
            }
        }
        if let Some(line) = self.site_lines.get(name) {
            return Err(format!(
                "duplicate site \"{name}\" (first added on line {line})"
            ));
        }
        if let Some(other) = self.cfg.sites.iter().find(|s| s.ip == addr) {
            return Err(format!(
                "site IP {addr} is already used by site \"{}\"",
                other.name
            ));
        }
        let parent = single(&options, "parentsite")?.map(str::to_owned);
        let role = if let Some(p) = &parent {
            match self.cfg.site(p) {
                Some(s) if s.role == SiteRole::Parent => {}
                Some(_) => {
                    return Err(format!(
                    "\"{p}\" is a child site: -parentSite must name a parent site (parents: {})",
                    self.parents()
                ))
                }
                None => {
                    return Err(format!(
                    "unknown parent site \"{p}\" (parents: {}); add a parent before its children",
                    self.parents()
                ))
                }
            }
            SiteRole::Child
        } else {
            SiteRole::Parent
        };
        let count = self.cfg.sites.iter().filter(|s| s.role == role).count();
        match role {
            SiteRole::Parent if count >= MAX_PARENTS => {
                return Err(format!(
                    "too many parent sites: a parent-child topology has at most {MAX_PARENTS} (\"{name}\" would be parent {})",
                    count + 1
                ))
            }
            SiteRole::Child if count >= MAX_CHILDREN => {
                return Err(format!(
                    "too many child sites: a parent-child topology has at most {MAX_CHILDREN} (\"{name}\" would be child {})",
                    count + 1
                ))
            }
            _ => {}
        }
        self.site_lines.insert(name.clone(), n);
        self.cfg.sites.push(SiteConfig {
            name: name.clone(),
            ip: addr,
            public_ip,
            role,
            parent,
            version: DEFAULT_VERSION.to_owned(),
            backup_parents: Vec::new(),
            location: None,
            services: Vec::new(),
        });
        Ok(())
    }

    fn parent_for_backups(
        &mut self,
        args: &[Tok],
        command: &str,
    ) -> Result<(String, Options), String> {
        let (pos, options) = split_options(args);
        let [name] = pos.as_slice() else {
            return Err(format!(
                "expected {command} <parent> -backupParentlist{}",
                if command.starts_with("set") {
                    " <s1> … <s5>"
                } else {
                    ""
                }
            ));
        };
        check_options(&options, &["backupparentlist"], command)?;
        let parents = self.parents();
        let site = self.site_mut(name)?;
        if site.role != SiteRole::Parent {
            return Err(format!(
                "\"{name}\" is a child site: only parents have backup parents (parents: {parents})"
            ));
        }
        if options.is_empty() {
            return Err(format!("{command} {name} needs -backupParentlist"));
        }
        Ok((name.clone(), options))
    }

    fn set_site(&mut self, args: &[Tok]) -> Result<(), String> {
        let (name, options) = self.parent_for_backups(args, "set gslb site")?;
        let list = options
            .iter()
            .find(|(n, ..)| n == "backupparentlist")
            .map(|(_, v, _)| v.clone())
            .unwrap_or_default();
        if list.is_empty() {
            return Err(
                "-backupParentlist needs 1 to 5 parent sites (unset gslb site <parent> -backupParentlist clears the list)"
                    .into(),
            );
        }
        self.cfg.check_backups(&name, &list)?;
        self.site_mut(&name)?.backup_parents = list;
        Ok(())
    }

    fn unset_site(&mut self, args: &[Tok]) -> Result<(), String> {
        let (name, options) = self.parent_for_backups(args, "unset gslb site")?;
        if options.iter().any(|(_, v, _)| !v.is_empty()) {
            return Err("unset gslb site <parent> -backupParentlist takes no value (it clears the whole list)".into());
        }
        self.site_mut(&name)?.backup_parents.clear();
        Ok(())
    }

    fn add_service(&mut self, args: &[Tok]) -> Result<(), String> {
        const USAGE: &str =
            "add gslb service <name> <ip> <type> <port> -siteName <site> [-publicIP <ip>]";
        let (pos, options) = split_options(args);
        let [name, addr, _kind, port] = pos.as_slice() else {
            return Err(format!("expected {USAGE}"));
        };
        if name.trim().is_empty() {
            return Err("a service name must not be empty".into());
        }
        check_options(&options, &["sitename", "publicip"], "add gslb service")?;
        let addr = ip(addr)?;
        let port: u16 = port
            .parse()
            .ok()
            .filter(|p| *p > 0)
            .ok_or_else(|| format!("port must be between 1 and 65535; got \"{port}\""))?;
        let public_ip = single(&options, "publicip")?.map(ip).transpose()?;
        let site = single(&options, "sitename")?
            .ok_or_else(|| format!("add gslb service {name} needs -siteName <site>"))?
            .to_owned();
        if let Some(s) = self
            .cfg
            .sites
            .iter()
            .find(|s| s.services.iter().any(|x| x.name == *name))
        {
            return Err(format!(
                "duplicate service \"{name}\" (already on site \"{}\")",
                s.name
            ));
        }
        self.site_mut(&site)?.services.push(ServiceConfig {
            name: name.clone(),
            ip: addr,
            public_ip,
            port,
            monitor: false,
        });
        Ok(())
    }

    fn bind_service(&mut self, args: &[Tok]) -> Result<(), String> {
        let (pos, options) = split_options(args);
        let [name] = pos.as_slice() else {
            return Err("expected bind gslb service <name> -monitorName <monitor>".into());
        };
        check_options(&options, &["monitorname"], "bind gslb service")?;
        if single(&options, "monitorname")?.is_none() {
            return Err(format!(
                "bind gslb service {name} needs -monitorName <monitor>"
            ));
        }
        let svc = self
            .cfg
            .sites
            .iter_mut()
            .flat_map(|s| s.services.iter_mut())
            .find(|s| s.name == *name)
            .ok_or_else(|| format!("unknown service \"{name}\"; add gslb service first"))?;
        svc.monitor = true;
        Ok(())
    }

    fn add_vserver(&mut self, args: &[Tok]) -> Result<(), String> {
        let (pos, options) = split_options(args);
        let [name, _kind] = pos.as_slice() else {
            return Err(
                "expected add gslb vserver <name> <type> [-lbMethod ROUNDROBIN|LEASTCONNECTION|STATICPROXIMITY|RTT]"
                    .into(),
            );
        };
        check_options(&options, &["lbmethod"], "add gslb vserver")?;
        if self.vservers.iter().any(|v| v.name == *name) {
            return Err(format!("duplicate vserver \"{name}\""));
        }
        let method = single(&options, "lbmethod")?
            .map(method)
            .transpose()?
            .unwrap_or(GslbMethod::LeastConnections);
        self.vservers.push(Vserver {
            name: name.clone(),
            method,
            services: Vec::new(),
            domains: Vec::new(),
        });
        Ok(())
    }

    fn bind_vserver(&mut self, args: &[Tok]) -> Result<(), String> {
        let (pos, options) = split_options(args);
        let [name] = pos.as_slice() else {
            return Err("expected bind gslb vserver <name> -domainName <domain> [-TTL <s>] or -serviceName <service>".into());
        };
        check_options(
            &options,
            &["domainname", "ttl", "servicename"],
            "bind gslb vserver",
        )?;
        let v = self
            .vservers
            .iter()
            .position(|v| v.name == *name)
            .ok_or_else(|| format!("unknown vserver \"{name}\"; add gslb vserver first"))?;
        let domain = single(&options, "domainname")?;
        let service = single(&options, "servicename")?;
        match (domain, service) {
            (Some(d), None) => {
                let ttl = match single(&options, "ttl")? {
                    None => 5,
                    Some(t) => t
                        .parse::<u32>()
                        .map_err(|_| format!("-TTL takes whole seconds; got \"{t}\""))?,
                };
                if self.cfg.domains.iter().any(|x| x.name.eq_ignore_ascii_case(d)) {
                    return Err(format!("domain \"{d}\" is already bound"));
                }
                if d.trim().is_empty() {
                    return Err("-domainName must not be empty".into());
                }
                self.vservers[v].domains.push(self.cfg.domains.len());
                self.cfg.domains.push(DomainConfig {
                    name: d.to_owned(),
                    method: self.vservers[v].method,
                    ttl_s: ttl,
                    services: Vec::new(),
                });
                Ok(())
            }
            (None, Some(s)) => {
                if single(&options, "ttl")?.is_some() {
                    return Err("-TTL goes with -domainName".into());
                }
                let exists = self
                    .cfg
                    .sites
                    .iter()
                    .any(|site| site.services.iter().any(|x| x.name == s));
                if !exists {
                    return Err(format!("unknown service \"{s}\"; add gslb service first"));
                }
                if self.vservers[v].services.iter().any(|x| x == s) {
                    return Err(format!("service \"{s}\" is already bound to \"{name}\""));
                }
                self.vservers[v].services.push(s.to_owned());
                Ok(())
            }
            _ => Err(format!(
                "bind gslb vserver {name} takes either -domainName <domain> [-TTL <s>] or -serviceName <service>"
            )),
        }
    }

    fn set_parameter(&mut self, args: &[Tok]) -> Result<(), String> {
        let (pos, options) = split_options(args);
        if !pos.is_empty() || options.is_empty() {
            return Err("expected set gslb parameter [-mepKeepAliveTimeout <s>] [-svcStateLearningTime <s>]".into());
        }
        check_options(
            &options,
            &["mepkeepalivetimeout", "svcstatelearningtime"],
            "set gslb parameter",
        )?;
        if let Some(v) = single(&options, "mepkeepalivetimeout")? {
            self.cfg.mep_keepalive_timeout = seconds(v, "-mepKeepAliveTimeout", 2, 3600)?;
        }
        if let Some(v) = single(&options, "svcstatelearningtime")? {
            self.cfg.learning_time = seconds(v, "-svcStateLearningTime", 0, MAX_LEARNING_S)?;
        }
        Ok(())
    }
}
