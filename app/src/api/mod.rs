//! Server functions, one file per area. Each is thin: authorize, call a service, map the
//! error, audit what changed. Their endpoints are fixed names under `/api/` (see each
//! `endpoint`) so scripts and tests can call them directly.

pub mod activity;
pub mod admin;
pub mod alerts;
pub mod attention;
pub mod autoscale;
pub mod clock;
pub mod codec;
pub mod estate;
pub mod gslb;
pub mod history;
pub mod lhc;
pub mod lms;
pub mod lms_audit;
pub mod overview;
pub mod session;
pub mod time_travel;
