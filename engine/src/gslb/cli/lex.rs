//! Tokens and options of one CLI line, and the value parsers the commands share.

use core::net::IpAddr;

use crate::clock::SimDuration;
use crate::gslb::config::GslbMethod;

/// Parsed options: (lower-case name without `-`, values, line text of the name).
pub(super) type Options = Vec<(String, Vec<String>, String)>;

/// A token and whether it was quoted (a quoted token is never an option).
pub(super) type Tok = (String, bool);

/// Splits a line into tokens: whitespace-separated, `"…"` quotes (with `\"` and `\\`).
pub(super) fn tokens(line: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut tok = String::new();
        let quoted = c == '"';
        if quoted {
            chars.next();
            let mut closed = false;
            while let Some(c) = chars.next() {
                match c {
                    '"' => {
                        closed = true;
                        break;
                    }
                    '\\' => match chars.next() {
                        Some(e) => tok.push(e),
                        None => break,
                    },
                    other => tok.push(other),
                }
            }
            if !closed {
                return Err("unterminated quote".into());
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                tok.push(c);
                chars.next();
            }
        }
        out.push((tok, quoted));
    }
    Ok(out)
}

/// A token as written back: quoted when it has spaces, quotes, or could read as an option.
pub(super) fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && !s.starts_with('-')
        && !s.starts_with('#')
        && !s
            .chars()
            .any(|c| c.is_whitespace() || c == '"' || c == '\\');
    if plain {
        s.to_owned()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Whether a token is an option name (`-name`, not quoted).
pub(super) fn is_option((text, quoted): &Tok) -> bool {
    !quoted && text.len() > 1 && text.starts_with('-')
}

/// Positional arguments, then `-option value…` groups.
pub(super) fn split_options(args: &[Tok]) -> (Vec<String>, Options) {
    let first = args.iter().position(is_option).unwrap_or(args.len());
    let positional = args[..first].iter().map(|(t, _)| t.clone()).collect();
    let mut options: Options = Vec::new();
    for a in &args[first..] {
        if is_option(a) {
            options.push((a.0[1..].to_ascii_lowercase(), Vec::new(), a.0.clone()));
        } else if let Some(last) = options.last_mut() {
            last.1.push(a.0.clone());
        }
    }
    (positional, options)
}

/// Checks option names against `allowed` (lower-case), refuses repeats.
pub(super) fn check_options(
    options: &Options,
    allowed: &[&str],
    command: &str,
) -> Result<(), String> {
    for (i, (name, _, text)) in options.iter().enumerate() {
        if !allowed.contains(&name.as_str()) {
            return Err(format!(
                "unknown option {text} for {command} (expected {})",
                allowed
                    .iter()
                    .map(|a| format!("-{}", canonical(a)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if options[..i].iter().any(|(n, ..)| n == name) {
            return Err(format!("option {text} is given twice"));
        }
    }
    Ok(())
}

/// The product's spelling of an option (for messages).
pub(super) fn canonical(lower: &str) -> &str {
    match lower {
        "publicip" => "publicIP",
        "parentsite" => "parentSite",
        "sitetype" => "siteType",
        "backupparentlist" => "backupParentlist",
        "sitename" => "siteName",
        "monitorname" => "monitorName",
        "lbmethod" => "lbMethod",
        "domainname" => "domainName",
        "ttl" => "TTL",
        "servicename" => "serviceName",
        "mepkeepalivetimeout" => "mepKeepAliveTimeout",
        "svcstatelearningtime" => "svcStateLearningTime",
        "healthinterval" => "healthInterval",
        "metricsinterval" => "metricsInterval",
        "adoptiondelay" => "adoptionDelay",
        "version" => "version",
        "location" => "location",
        "rtt" => "rtt",
        other => other,
    }
}

/// The single value of an option, if present.
pub(super) fn single<'a>(options: &'a Options, name: &str) -> Result<Option<&'a str>, String> {
    match options.iter().find(|(n, ..)| n == name) {
        None => Ok(None),
        Some((_, values, text)) => match values.as_slice() {
            [v] => Ok(Some(v.as_str())),
            [] => Err(format!("{text} needs a value")),
            _ => Err(format!("{text} takes one value; got {}", values.join(" "))),
        },
    }
}

pub(super) fn ip(text: &str) -> Result<IpAddr, String> {
    text.parse()
        .map_err(|_| format!("\"{text}\" is not an IP address"))
}

pub(super) fn seconds(text: &str, option: &str, lo: u64, hi: u64) -> Result<SimDuration, String> {
    let n: u64 = text
        .parse()
        .map_err(|_| format!("{option} takes whole seconds; got \"{text}\""))?;
    if n < lo || n > hi {
        return Err(format!("{option} must be between {lo} and {hi}; got {n}"));
    }
    Ok(SimDuration::from_secs(n))
}

pub(super) fn method(text: &str) -> Result<GslbMethod, String> {
    GslbMethod::ALL
        .into_iter()
        .find(|m| m.cli_name().eq_ignore_ascii_case(text))
        .ok_or_else(|| {
            format!(
                "unsupported -lbMethod {text} (supported: ROUNDROBIN, LEASTCONNECTION, STATICPROXIMITY, RTT)"
            )
        })
}
