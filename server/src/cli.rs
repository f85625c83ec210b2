//! The command line. Every flag has an environment variable; this file is the one place where
//! configuration is defined, and docs/CONFIGURATION.md lists the same table.
//!
//! | flag | env | default |
//! |---|---|---|
//! | `--addr` | `SWITCHYARD_ADDR` | `127.0.0.1:3000` |
//! | `--database-url` | `SWITCHYARD_DATABASE_URL` | `sqlite://data/switchyard.db` |
//! | `--scenario` | `SWITCHYARD_SCENARIO` | `scenarios/demo.toml` (the embedded copy if absent) |
//! | `--speed` | `SWITCHYARD_SPEED` | the scenario's `clock.start_speed` |
//! | `--seed` | `SWITCHYARD_SEED` | the scenario's `scenario.seed` |
//! | `--site-root` | `SWITCHYARD_SITE_ROOT` | `target/site` |
//! | `--log` | `SWITCHYARD_LOG` | `info` |
//! | `--retention` | `SWITCHYARD_RETENTION` | empty: every engine keeps all its events |
//! | `--public-url` | `SWITCHYARD_PUBLIC_URL` (comma-separated) | the listen address (and `localhost` on a loopback address) |
//! | `--cookie-secure` | `SWITCHYARD_COOKIE_SECURE` | on when a `--public-url` is `https`, off otherwise |

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use engine::{Role, Speed};

/// Switchyard: a management console for simulated application-delivery control planes.
#[derive(Debug, Parser)]
#[command(name = "switchyard", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of `serve` when no sub-command is given.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// The sub-commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the console (the default).
    Serve(ServeArgs),
    /// Manage console users.
    #[command(subcommand)]
    User(UserCommand),
    /// Run the engines headless, as fast as possible, printing every event as a JSON line.
    Simulate(SimulateArgs),
    /// Scenario files.
    #[command(subcommand)]
    Scenario(ScenarioCommand),
}

/// `switchyard scenario …`
#[derive(Debug, Subcommand)]
pub enum ScenarioCommand {
    /// Write a generated scenario (too large to ship as a file) to `--out` or standard output.
    Generate(GenerateArgs),
}

/// Options of `scenario generate`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// Which estate: `full` is all four engines at their benchmark sizes (docs/SCENARIOS.md).
    #[arg(long, value_enum)]
    pub size: crate::generate::Size,
    /// The file to write (standard output when absent).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Options of `serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "SWITCHYARD_ADDR", default_value = "127.0.0.1:3000")]
    pub addr: SocketAddr,
    /// The store: `sqlite://<file>` (created with its migrations if missing) or
    /// `postgres://<user>@<host>/<database>` (PostgreSQL ≥ 15).
    #[arg(
        long,
        env = "SWITCHYARD_DATABASE_URL",
        default_value = "sqlite://data/switchyard.db"
    )]
    pub database_url: String,
    /// Scenario file (TOML) describing the estate to load; the shipped demo by default.
    #[arg(long, env = "SWITCHYARD_SCENARIO")]
    pub scenario: Option<PathBuf>,
    /// Initial clock speed: paused, 1x, 10x, 60x, 600x or max (default: the scenario's).
    #[arg(long, env = "SWITCHYARD_SPEED")]
    pub speed: Option<Speed>,
    /// Seed of the engines' random streams (default: the scenario's).
    #[arg(long, env = "SWITCHYARD_SEED")]
    pub seed: Option<u64>,
    /// Folder holding the built browser bundle (`pkg/`) and public files.
    #[arg(long, env = "SWITCHYARD_SITE_ROOT", default_value = "target/site")]
    pub site_root: String,
    /// Log filter (tracing `EnvFilter` syntax).
    #[arg(long, env = "SWITCHYARD_LOG", default_value = "info")]
    pub log: String,
    /// Address of the ADNS responder (UDP and TCP) answering the GSLB domains; port 0 picks a
    /// free port.
    #[arg(long, env = "SWITCHYARD_DNS_ADDR", default_value = "127.0.0.1:5353")]
    pub dns_addr: SocketAddr,
    /// Do not start the ADNS responder.
    #[arg(long, env = "SWITCHYARD_NO_DNS")]
    pub no_dns: bool,
    /// Start a new run even when the database holds an unfinished one (which is then closed;
    /// its history stays).
    #[arg(long, env = "SWITCHYARD_NEW_RUN")]
    pub new_run: bool,
    /// Simulated time between two snapshots of the run (`30m`, `1h`, ...); one is also taken
    /// at the start and at shutdown. A resume restores the latest and replays the journal
    /// after it.
    #[arg(long, env = "SWITCHYARD_SNAPSHOT_EVERY", default_value = "1h", value_parser = parse_snapshot_every)]
    pub snapshot_every: engine::SimDuration,
    /// How a resumed run's clock goes on: at the speed it had (`as-it-was`) or `paused`.
    #[arg(
        long,
        env = "SWITCHYARD_RESUME",
        value_enum,
        default_value = "as-it-was"
    )]
    pub resume: ResumeClock,
    /// Simulated days of raw events kept per engine, `engine=days[,…]` (e.g. `lms=7,lhc=30`);
    /// an engine not named keeps everything (the default). Charts keep hourly rollups of
    /// their series beyond it; runs stay resumable (journal and snapshots are kept).
    #[arg(long, env = "SWITCHYARD_RETENTION", default_value = "", value_parser = parse_retention)]
    pub retention: services::retention::Retention,
    /// The console's public URL as browsers reach it, e.g. `https://console.example.com`
    /// (repeatable; comma-separated in the environment). State-changing requests from any
    /// other origin are refused (403). Default: the listen address.
    #[arg(
        long = "public-url",
        env = "SWITCHYARD_PUBLIC_URL",
        value_delimiter = ',',
        value_parser = parse_public_url
    )]
    pub public_url: Vec<String>,
    /// Marks the session cookie `Secure` (browsers then send it over HTTPS only): `true` or
    /// `false`, the flag alone meaning `true`. Default: on when a `--public-url` is `https`.
    #[arg(
        long,
        env = "SWITCHYARD_COOKIE_SECURE",
        num_args = 0..=1,
        default_missing_value = "true",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub cookie_secure: Option<bool>,
}

fn parse_public_url(s: &str) -> Result<String, String> {
    crate::origin::Origins::from_urls(&[s])?;
    Ok(s.trim().to_owned())
}

fn parse_retention(s: &str) -> Result<services::retention::Retention, String> {
    s.parse()
        .map_err(|e: services::retention::RetentionError| e.to_string())
}

fn parse_snapshot_every(s: &str) -> Result<engine::SimDuration, String> {
    match engine::parse_duration(s) {
        Ok(d) if d.as_millis() >= 60_000 => Ok(d),
        Ok(_) => Err("at least 1m (a snapshot per simulated minute)".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// How a resumed run's clock goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ResumeClock {
    /// At the speed the run had when it stopped.
    AsItWas,
    /// Paused, whatever the speed was.
    Paused,
}

/// `switchyard user …`
#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add a user; the password is read from standard input (one line).
    Add(UserAddArgs),
}

/// Options of `user add`.
#[derive(Debug, Clone, Args)]
pub struct UserAddArgs {
    /// The new user's name.
    #[arg(long, env = "SWITCHYARD_USERNAME")]
    pub username: String,
    /// The new user's role.
    #[arg(long, env = "SWITCHYARD_ROLE", value_parser = parse_role)]
    pub role: Role,
    /// The store: `sqlite://<file>` or `postgres://<user>@<host>/<database>`.
    #[arg(
        long,
        env = "SWITCHYARD_DATABASE_URL",
        default_value = "sqlite://data/switchyard.db"
    )]
    pub database_url: String,
}

fn parse_role(s: &str) -> Result<Role, String> {
    s.parse()
        .map_err(|e: engine::role::UnknownRole| e.to_string())
}

/// Options of `simulate`.
#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    /// Scenario file (TOML).
    #[arg(long, env = "SWITCHYARD_SIM_SCENARIO")]
    pub scenario: PathBuf,
    /// Seed (default: the scenario's).
    #[arg(long, env = "SWITCHYARD_SIM_SEED")]
    pub seed: Option<u64>,
    /// Simulated time to run for, e.g. `30m`, `2h`, `1d` (not with `--black-hole-ab`).
    #[arg(
        long,
        env = "SWITCHYARD_SIM_UNTIL",
        required_unless_present = "black_hole_ab"
    )]
    pub until: Option<String>,
    /// Extra timeline of operator actions and faults (TOML `[[actions]]`).
    #[arg(long, env = "SWITCHYARD_SIM_ACTIONS")]
    pub actions: Option<PathBuf>,
    /// Also record the run and its events in this store (`sqlite://` or `postgres://`, as `serve` does).
    #[arg(long, env = "SWITCHYARD_SIM_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Print nothing on stdout (with `--database-url`: only record the run).
    #[arg(long, requires = "database_url")]
    pub quiet: bool,
    /// Instead of a run: the black-hole A/B of load management. Reboots this server, then runs
    /// the same seeded logon storm with the fix on and off, and prints both sides as one JSON
    /// object (sessions per server every 15 s).
    #[arg(long, value_name = "SERVER", conflicts_with_all = ["until", "actions", "database_url"])]
    pub black_hole_ab: Option<String>,
    /// Users of the A/B's storm.
    #[arg(long, default_value_t = 60, requires = "black_hole_ab")]
    pub storm_users: u32,
    /// Spread of the A/B's storm.
    #[arg(long, default_value = "2m", requires = "black_hole_ab")]
    pub storm_over: String,
    /// Application of the A/B's storm (drawn per user when absent).
    #[arg(long, requires = "black_hole_ab")]
    pub storm_app: Option<String>,
}
