//! Import and export of the CLI text.

use core::fmt::Write as _;

use proptest::prelude::*;

use super::*;
use crate::clock::SimDuration;
use crate::gslb::config::{GslbMethod, SiteRole};

const WORDS: &[&str] = &[
    "add",
    "set",
    "unset",
    "bind",
    "gslb",
    "site",
    "service",
    "vserver",
    "parameter",
    "-publicIP",
    "-parentSite",
    "-backupParentlist",
    "-siteType",
    "LOCAL",
    "P1",
    "P2",
    "C1",
    "10.0.0.1",
    "10.0.0.2",
    "10.0.1.1",
    "*",
    "-TTL",
    "5",
    "HTTP",
    "80",
    "-lbMethod",
    "RTT",
    "-siteName",
    "-serviceName",
    "-monitorName",
    "-domainName",
    "d.example",
    "vs",
    "s1",
    "#",
    "# switchyard:",
    "clientLocation",
    "1.2.3.0/24",
    "\"a b\"",
    "\"",
    "-rtt",
    "P1=5",
    "-version",
    "11.1-51",
    "-location",
    "EU.FR",
    "-mepKeepAliveTimeout",
    "-adoptionDelay",
    "-svcStateLearningTime",
    "99999999999999999999",
    "-",
    "",
];

proptest! {
    #[test]
    fn any_text_gives_a_config_or_a_line_numbered_error(
        lines in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(WORDS), 0..9),
            0..12,
        )
    ) {
        let text: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
        let text = text.join("\n");
        match parse_cli(&text) {
            Ok(cfg) => {
                let once = export_cli(&cfg);
                let back = parse_cli(&once);
                prop_assert!(back.is_ok(), "{once}\n{back:?}");
                let twice = back.map(|c| export_cli(&c)).unwrap_or_default();
                prop_assert_eq!(once, twice);
            }
            Err(e) => {
                prop_assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}");
                prop_assert!(!e.message.is_empty());
            }
        }
    }
}

const DOC: &str = "\
# the documented topology
add gslb site SiteP1 10.10.0.1 -publicIP 203.0.113.1
add gslb site SiteP2 10.20.0.1
add gslb site SiteP3 10.30.0.1
add gslb site Child_Site1 10.10.1.1 -parentSite SiteP1

set gslb site SiteP1 -backupParentlist SiteP2 SiteP3
";

#[test]
fn the_documented_topology_imports() -> Result<(), CliError> {
    let cfg = parse_cli(DOC)?;
    assert_eq!(cfg.sites.len(), 4);
    assert_eq!(cfg.sites[3].parent.as_deref(), Some("SiteP1"));
    assert_eq!(cfg.sites[3].role, SiteRole::Child);
    assert_eq!(cfg.sites[0].backup_parents, ["SiteP2", "SiteP3"]);
    assert_eq!(cfg.sites[0].public_ip, Some([203, 0, 113, 1].into()));
    let again = parse_cli(&export_cli(&cfg))?;
    assert_eq!(again, cfg);
    Ok(())
}

#[test]
fn bad_lines_name_their_line_and_the_rule() {
    let base = "add gslb site P1 10.0.0.1\nadd gslb site P2 10.0.0.2\nadd gslb site C1 10.0.1.1 -parentSite P1\n";
    let cases = [
        (
            "frobnicate gslb site x",
            "unknown command `frobnicate gslb site`",
        ),
        ("add gslb site P3", "expected add gslb site <name> <ip>"),
        ("add gslb site P3 10.0.0", "\"10.0.0\" is not an IP address"),
        (
            "add gslb site P3 10.0.0.3 -colour red",
            "unknown option -colour for add gslb site",
        ),
        (
            "add gslb site P3 10.0.0.3 -publicIP",
            "-publicIP needs a value",
        ),
        (
            "add gslb site P1 10.0.0.9",
            "duplicate site \"P1\" (first added on line 1)",
        ),
        (
            "add gslb site P3 10.0.0.1",
            "site IP 10.0.0.1 is already used by site \"P1\"",
        ),
        (
            "add gslb site C2 10.0.1.2 -parentSite P9",
            "unknown parent site \"P9\" (parents: P1, P2)",
        ),
        (
            "add gslb site C2 10.0.1.2 -parentSite C1",
            "\"C1\" is a child site: -parentSite must name a parent",
        ),
        (
            "set gslb site P1 -backupParentlist C1",
            "\"C1\" is not a parent site (parents: P1, P2)",
        ),
        (
            "set gslb site P1 -backupParentlist P9",
            "\"P9\" is not a parent site (parents: P1, P2)",
        ),
        (
            "set gslb site P1 -backupParentlist P1",
            "a site cannot be its own backup parent",
        ),
        (
            "set gslb site P1 -backupParentlist P2 P2",
            "duplicate backup parent \"P2\"",
        ),
        (
            "set gslb site P1 -backupParentlist P2 P2 P2 P2 P2 P2",
            "at most 5 backup parents; got 6",
        ),
        (
            "set gslb site P1 -backupParentlist",
            "-backupParentlist needs 1 to 5 parent sites",
        ),
        (
            "set gslb site C1 -backupParentlist P2",
            "\"C1\" is a child site: only parents have backup parents",
        ),
        (
            "set gslb site P9 -backupParentlist P2",
            "unknown site \"P9\"",
        ),
        ("unset gslb site P1 -backupParentlist P2", "takes no value"),
        (
            "add gslb service s1 10.0.0.1 HTTP 99999 -siteName P1",
            "port must be between 1 and 65535",
        ),
        (
            "add gslb service s1 10.0.0.1 HTTP 80",
            "needs -siteName <site>",
        ),
        (
            "add gslb vserver vs HTTP -lbMethod RANDOM",
            "unsupported -lbMethod RANDOM",
        ),
        (
            "bind gslb vserver nope -domainName a.example",
            "unknown vserver \"nope\"",
        ),
        (
            "set gslb parameter -svcStateLearningTime 4000",
            "-svcStateLearningTime must be between 0 and 3600; got 4000",
        ),
        (
            "# switchyard: site P1 -version eleven",
            "expected a release like 14.1",
        ),
        (
            "# switchyard: clientLocation EU 10.0.0.0/99",
            "expected a network like 192.0.2.0/24",
        ),
        (
            "# switchyard: teleport P1",
            "unknown switchyard directive `teleport`",
        ),
        ("add gslb site \"P3 10.0.0.3", "unterminated quote"),
    ];
    for (line, want) in cases {
        let text = format!("{base}{line}\n");
        match parse_cli(&text) {
            Ok(_) => panic!("{line} should be refused"),
            Err(e) => {
                assert_eq!(e.line, 4, "{line}: {e}");
                assert!(e.message.contains(want), "{line}: got `{e}`, want `{want}`");
                assert!(e.to_string().starts_with("line 4: "), "{e}");
            }
        }
    }
}

#[test]
fn vservers_services_and_pragmas_round_trip() -> Result<(), CliError> {
    let text = "\
set gslb parameter -mepKeepAliveTimeout 20 -svcStateLearningTime 30
# switchyard: parameter -adoptionDelay 5
add gslb site \"Site P1\" 10.0.0.1
add gslb site C1 10.0.1.1 -parentSite \"Site P1\"
# switchyard: site C1 -version 11.1-51 -location EU.FR.Paris
add gslb service web1 10.0.0.10 HTTP 8080 -siteName \"Site P1\" -publicIP 198.51.100.10
bind gslb service web1 -monitorName http
add gslb service web2 10.0.1.10 SSL 443 -siteName C1
add gslb vserver vs1 HTTP -lbMethod RTT
bind gslb vserver vs1 -domainName www.example.com -TTL 30
bind gslb vserver vs1 -serviceName web2
bind gslb vserver vs1 -domainName alt.example.com
# switchyard: clientLocation Europe 192.0.2.0/24 -location EU -rtt \"Site P1=20\" C1=40
";
    let cfg = parse_cli(text)?;
    assert_eq!(cfg.mep_keepalive_timeout, SimDuration::from_secs(20));
    assert_eq!(cfg.learning_time, SimDuration::from_secs(30));
    assert_eq!(cfg.adoption_delay, SimDuration::from_secs(5));
    assert_eq!(cfg.sites[1].version, "11.1-51");
    assert_eq!(cfg.sites[1].location.as_deref(), Some("EU.FR.Paris"));
    assert_eq!(cfg.sites[0].services[0].port, 8080);
    assert!(cfg.sites[0].services[0].monitor);
    assert!(!cfg.sites[1].services[0].monitor);
    assert_eq!(cfg.domains.len(), 2);
    assert_eq!(cfg.domains[0].method, GslbMethod::Rtt);
    assert_eq!(cfg.domains[0].ttl_s, 30);
    assert_eq!(cfg.domains[1].ttl_s, 5);
    assert_eq!(cfg.domains[1].services, ["web2"]);
    assert_eq!(cfg.client_locations[0].rtt_ms.get("Site P1"), Some(&20));
    let exported = export_cli(&cfg);
    assert_eq!(parse_cli(&exported)?, cfg, "{exported}");
    Ok(())
}

#[test]
fn limits_are_enforced_on_import() {
    let mut text = String::new();
    for p in 0..33 {
        let _ = writeln!(text, "add gslb site P{p} 10.0.{p}.1");
    }
    let err = parse_cli(&text).err();
    assert_eq!(err.as_ref().map(|e| e.line), Some(33));
    assert!(err.is_some_and(|e| e.message.contains("at most 32")));

    let mut text = String::from("add gslb site P 10.0.0.1\n");
    for c in 0..1025u32 {
        let _ = writeln!(
            text,
            "add gslb site C{c} 10.1.{}.{} -parentSite P",
            c / 250,
            c % 250 + 1
        );
    }
    let err = parse_cli(&text).err();
    assert_eq!(err.as_ref().map(|e| e.line), Some(1026));
    assert!(err.is_some_and(|e| e.message.contains("at most 1024")));
}
