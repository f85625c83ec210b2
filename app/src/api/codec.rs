//! [`Form`]: how the server functions take their arguments — a URL-encoded form in a `POST`
//! body, as the framework's own `PostUrl`, except that an argument that does not decode is
//! named in the error (`limit: invalid digit found in string`, not only the message). The
//! router answers such an error with 400 ([`crate::error::AppError::status`]).

use http::Method;
use leptos::server_fn::codec::{Encoding, FromReq, IntoReq};
use leptos::server_fn::error::{FromServerFnError, IntoAppError, ServerFnErrorErr};
use leptos::server_fn::request::{ClientReq, Req};
use leptos::server_fn::ContentType;
use serde::de::DeserializeOwned;

/// A URL-encoded form in a `POST` body.
pub struct Form;

impl ContentType for Form {
    const CONTENT_TYPE: &'static str = "application/x-www-form-urlencoded";
}

impl Encoding for Form {
    const METHOD: Method = Method::POST;
}

/// Implements the [`Form`] encoding for the arguments of server functions (the structs the
/// `#[server]` macro makes, named after each function). The traits are the framework's, so
/// each arguments type is named here (a blanket implementation is not allowed outside the
/// framework); a server function with `input = Form` whose type is missing here does not
/// compile.
macro_rules! form_arguments {
    ($($args:ty),* $(,)?) => {
        /// Decodes `body` as the arguments of every server function that takes a [`Form`] (a
        /// fuzzing aid: the results are dropped).
        #[cfg(test)]
        pub(crate) fn decode_as_every_form(body: &str) {
            $( let _ = decode::<$args>(body); )*
        }
    $(
        impl<E, R> IntoReq<Form, R, E> for $args
        where
            R: ClientReq<E>,
            E: FromServerFnError,
        {
            fn into_req(self, path: &str, accepts: &str) -> Result<R, E> {
                let body = serde_qs::to_string(&self)
                    .map_err(|e| ServerFnErrorErr::Serialization(e.to_string()).into_app_error())?;
                R::try_new_post(path, Form::CONTENT_TYPE, accepts, body)
            }
        }

        impl<E, R> FromReq<Form, R, E> for $args
        where
            R: Req<E> + Send + 'static,
            E: FromServerFnError,
        {
            async fn from_req(req: R) -> Result<Self, E> {
                let body = req.try_into_string().await?;
                decode(&body).map_err(|message| ServerFnErrorErr::Args(message).into_app_error())
            }
        }
    )*};
}

// Every server function but those that plain HTML forms post (`ActionForm` needs the
// framework's own encoding): sign-in, sign-out, the note, and the users page's five forms.
// Their arguments are text, checked inside the function, so their refusals name the field too.
form_arguments!(
    crate::api::admin::AuditEntries,
    crate::api::admin::AuditJson,
    crate::api::admin::ListUsers,
    crate::api::activity::EngineActivity,
    crate::api::alerts::AlertRules,
    crate::api::alerts::Alerts,
    crate::api::attention::Attention,
    crate::api::autoscale::AutoscaleAct,
    crate::api::autoscale::AutoscaleGroup,
    crate::api::autoscale::AutoscaleGroups,
    crate::api::autoscale::AutoscaleList,
    crate::api::autoscale::AutoscaleNodes,
    crate::api::autoscale::AutoscaleSave,
    crate::api::autoscale::AutoscaleWhatIf,
    crate::api::clock::ClockStatus,
    crate::api::clock::RecentEvents,
    crate::api::clock::SetSpeed,
    crate::api::clock::StepClock,
    crate::api::estate::ConfiguredEstate,
    crate::api::gslb::GslbConsole,
    crate::api::gslb::GslbAct,
    crate::api::gslb::GslbBackups,
    crate::api::gslb::GslbExport,
    crate::api::gslb::GslbGuided,
    crate::api::gslb::GslbLinks,
    crate::api::gslb::GslbImport,
    crate::api::gslb::GslbResolve,
    crate::api::gslb::GslbSite,
    crate::api::gslb::GslbTopology,
    crate::api::history::EventJson,
    crate::api::history::ListEvents,
    crate::api::lhc::LhcAct,
    crate::api::lhc::LhcConnectors,
    crate::api::lhc::LhcLocation,
    crate::api::lhc::LhcLocations,
    crate::api::lhc::LhcOverview,
    crate::api::lhc::LhcVdas,
    crate::api::lms::LmsAct,
    crate::api::lms::LmsBlackHoleAb,
    crate::api::lms::LmsEvaluatorAssign,
    crate::api::lms::LmsEvaluatorDelete,
    crate::api::lms::LmsEvaluatorPreview,
    crate::api::lms::LmsEvaluatorSave,
    crate::api::lms::LmsEvaluators,
    crate::api::lms::LmsFarm,
    crate::api::lms::LmsServer,
    crate::api::lms::LmsServers,
    crate::api::lms::LmsSessions,
    crate::api::lms::LmsSettings,
    crate::api::lms::LmsStore,
    crate::api::lms_audit::LmsFormulaAudit,
    crate::api::overview::OverviewCards,
    crate::api::session::Whoami,
    crate::api::time_travel::TimeExtent,
);

/// Decodes a form into the arguments `T`; the error names the argument it is about.
pub fn decode<T: DeserializeOwned>(body: &str) -> Result<T, String> {
    let config = serde_qs::Config::new(5, false);
    let deserializer =
        serde_qs::Deserializer::with_config(&config, body.as_bytes()).map_err(|e| e.to_string())?;
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let path = e.path().to_string();
        let message = e.inner().to_string();
        match path.as_str() {
            // Nothing decoded yet: the message names the field (`missing field `text``).
            "." | "" => message,
            _ => format!("{path}: {message}"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::decode;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Args {
        limit: u32,
        speed: Option<String>,
        number: Option<u8>,
    }

    #[test]
    fn a_bad_argument_is_named() {
        let cases = [
            ("limit=5", Ok(())),
            ("limit=5&speed=max&number=7", Ok(())),
            ("limit=abc", Err("limit: invalid digit found in string")),
            ("limit=-1", Err("limit: invalid digit found in string")),
            (
                "limit=99999999999",
                Err("limit: number too large to fit in target type"),
            ),
            (
                "limit=1&number=300",
                Err("number: number too large to fit in target type"),
            ),
            ("", Err("missing field `limit`")),
            ("speed=max", Err("missing field `limit`")),
        ];
        for (body, want) in cases {
            let got = decode::<Args>(body).map(|_| ());
            assert_eq!(got, want.map_err(str::to_owned), "{body:?}");
        }
        assert_eq!(
            decode::<Args>("limit=5&speed=max"),
            Ok(Args {
                limit: 5,
                speed: Some("max".into()),
                number: None
            })
        );
    }

    /// What the browser sends for an unfiltered history page (the nav bar's link) decodes: an
    /// argument struct whose fields are all empty encodes as an empty body.
    #[test]
    fn an_unfiltered_history_query_round_trips() {
        use crate::api::history::ListEvents;
        use crate::model::HistoryQuery;
        let empty = ListEvents {
            query: HistoryQuery::default(),
        };
        let body = serde_qs::to_string(&empty).expect("encode");
        assert_eq!(body, "");
        assert_eq!(
            decode::<ListEvents>(&body).map(|a| a.query),
            Ok(HistoryQuery::default())
        );
        let engine = ListEvents {
            query: HistoryQuery {
                engine: Some("lhc".into()),
                ..HistoryQuery::default()
            },
        };
        let body = serde_qs::to_string(&engine).expect("encode");
        assert_eq!(
            decode::<ListEvents>(&body).map(|a| a.query.engine),
            Ok(Some("lhc".into()))
        );
    }

    /// Field names of the server functions' arguments, and a few that none has.
    const KEYS: &[&str] = &[
        "id",
        "role",
        "text",
        "limit",
        "speed",
        "number",
        "at",
        "run",
        "minutes",
        "name",
        "rules",
        "replaces",
        "server",
        "zone",
        "action",
        "group",
        "site",
        "parameter",
        "page",
        "engine",
        "kind",
        "subject",
        "after",
        "before",
        "password",
        "username",
        "next",
        "disabled",
        "cli",
        "domain",
        "client_ip",
        "value",
        "steps",
        "a[b]",
        "a[0]",
        "[",
        "",
    ];

    fn value() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            "[ -~]{0,16}",
            "\\PC{0,8}",
            proptest::sample::select(vec![
                "99999999999999999999",
                "-1",
                "0",
                "4294967296",
                "1e309",
                "nan",
                "true",
                "%00",
                "%ZZ",
                "%C3%28",
                "max",
                "x600",
                "%5B%5D",
            ])
            .prop_map(str::to_owned),
        ]
    }

    /// A form: random keys (mostly known ones) and values, joined by `&`, sometimes raw.
    fn form() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let pair = (proptest::sample::select(KEYS), value(), any::<bool>())
            .prop_map(|(k, v, eq)| if eq { format!("{k}={v}") } else { k.to_owned() });
        prop_oneof![
            8 => proptest::collection::vec(pair, 0..8).prop_map(|pairs| pairs.join("&")),
            1 => "\\PC{0,200}",
        ]
    }

    fn cases() -> u32 {
        std::env::var("FUZZ_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(200)
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: cases(), ..Default::default() })]

        /// Every server function's arguments, from any form body: decoded or refused, never
        /// a panic (`bench/fuzz.sh` runs 10,000 cases).
        #[test]
        fn any_form_body_is_decoded_or_refused(body in form()) {
            super::decode_as_every_form(&body);
            // The six that plain HTML forms post (the framework's own decoding, same rules).
            let _ = decode::<crate::api::session::Login>(&body);
            let _ = decode::<crate::api::session::Logout>(&body);
            let _ = decode::<crate::api::clock::AddNote>(&body);
            let _ = decode::<crate::api::admin::AddUser>(&body);
            let _ = decode::<crate::api::admin::SetUserRole>(&body);
            let _ = decode::<crate::api::admin::ResetUserPassword>(&body);
            let _ = decode::<crate::api::admin::SetUserDisabled>(&body);
            let _ = decode::<crate::api::admin::DeleteUser>(&body);
        }
    }
}
