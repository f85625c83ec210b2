//! Local Host Cache events in words (the decisions read through their `reason`): where the
//! VDAs are registered, a connector's components, a launch that went through.

use super::fields::{counted, Fields};
use super::Template;

/// The template of a Local Host Cache kind.
pub(super) fn template(kind: &str) -> Option<Template> {
    Some(match kind {
        "registrations" => registrations,
        "connector.component_failed" => component_failed,
        "connector.component_recovered" => component_recovered,
        "launch.succeeded" => launched,
        _ => return None,
    })
}

/// `160 VDAs on the cloud · 12 on cc01 · 0 unregistered`.
fn registrations(f: Fields<'_>) -> Option<String> {
    let mut parts = vec![format!("{} VDAs on the cloud", f.int("cloud")?)];
    let unregistered = f.int("unregistered")?;
    if let Some(secondary) = f.object("secondary") {
        parts.extend(secondary.0.iter().map(|(fqdn, n)| format!("{n} on {fqdn}")));
    }
    parts.push(format!("{unregistered} unregistered"));
    Some(parts.join(" · "))
}

/// `High Availability Service failed (rl-paris)`.
fn component_failed(f: Fields<'_>) -> Option<String> {
    component(f, "failed")
}

/// `High Availability Service recovered (rl-paris)`.
fn component_recovered(f: Fields<'_>) -> Option<String> {
    component(f, "recovered")
}

fn component(f: Fields<'_>, what: &str) -> Option<String> {
    Some(format!(
        "{} {what} ({})",
        f.text("label")?,
        f.text("resource_location")?
    ))
}

/// `test-user's Windows 11 desktop on PAR-VDI-001 (rl-paris, 1 session) through
/// cc01.paris.example.com, brokered by the cloud`, then the route StoreFront took.
fn launched(f: Fields<'_>) -> Option<String> {
    let broker = match f.text("broker")? {
        "cloud" => "the cloud".to_owned(),
        fqdn => format!("{fqdn} (secondary broker)"),
    };
    let mut line = format!(
        "{}'s {} on {} ({}, {} on it) through {}, brokered by {broker}",
        f.text("user")?,
        f.text("resource")?,
        f.text("vda")?,
        f.text("vda_resource_location")?,
        counted(f.int("sessions")?, "session"),
        f.text("connector")?,
    );
    if let Some(route) = f.text("route") {
        line.push_str(" · ");
        line.push_str(route);
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::super::tests::check;

    #[test]
    fn local_host_cache_events_read_as_words() {
        check(&[
            (
                "registrations",
                r#"{"cloud":160,"secondary":{"cc01.example":12},"unregistered":0}"#,
                "160 VDAs on the cloud · 12 on cc01.example · 0 unregistered",
            ),
            (
                "registrations",
                r#"{"cloud":20,"secondary":{},"unregistered":3}"#,
                "20 VDAs on the cloud · 3 unregistered",
            ),
            (
                "connector.component_failed",
                r#"{"component":"ha_service","label":"High Availability Service","resource_location":"rl-paris"}"#,
                "High Availability Service failed (rl-paris)",
            ),
            (
                "connector.component_recovered",
                r#"{"component":"ha_service","label":"High Availability Service","resource_location":"rl-paris"}"#,
                "High Availability Service recovered (rl-paris)",
            ),
            (
                "launch.succeeded",
                r#"{"broker":"cloud","connector":"cc01.p","resource":"Desktop","route":"AdvancedHealthCheck: routed","sessions":1,"user":"ann","vda":"PAR-001","vda_resource_location":"rl-paris"}"#,
                "ann's Desktop on PAR-001 (rl-paris, 1 session on it) through cc01.p, brokered by the cloud · AdvancedHealthCheck: routed",
            ),
            (
                "launch.succeeded",
                r#"{"broker":"cc02.p","connector":"cc01.p","resource":"Desktop","sessions":2,"user":"ann","vda":"PAR-001","vda_resource_location":"rl-paris"}"#,
                "ann's Desktop on PAR-001 (rl-paris, 2 sessions on it) through cc01.p, brokered by cc02.p (secondary broker)",
            ),
        ]);
    }
}
