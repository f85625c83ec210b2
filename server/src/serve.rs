//! `switchyard serve`: opens the database, makes sure an admin exists, loads the scenario,
//! starts the runtime and serves the console until Ctrl-C / SIGTERM. On the signal it stops
//! accepting, ends live streams, gives requests in flight [`CONNECTIONS_GRACE`], then flushes
//! history and exits 0.

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::serve::ListenerExt;
use engine::Role;
use services::store::Lead;
use services::{accounts, history, password, runtime, Services};

use tokio::net::TcpListener;

use crate::cli::{ResumeClock, ServeArgs};

/// After SIGTERM / Ctrl-C, how long requests in flight may take before their connections are
/// closed; the history flush follows, all within the 5 s a service manager is told to wait.
const CONNECTIONS_GRACE: std::time::Duration = std::time::Duration::from_secs(3);
use crate::router;
use crate::scenario_file::load_scenario;

/// Why start-up failed.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The scenario is unusable (exit status 2).
    #[error("{0}")]
    Scenario(#[from] crate::scenario_file::FileError),
    /// The database cannot be used: unknown scheme, unreachable, refused credentials, or
    /// migrated by a newer version (exit status 2, before anything is served).
    #[error("{0}")]
    Database(services::ServiceError),
    /// A backend service failed.
    #[error("{0}")]
    Service(#[from] services::ServiceError),
    /// The unfinished run cannot be resumed (exit status 1).
    #[error("{0}")]
    Resume(String),
    /// The address could not be bound or served.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Runs the command; returns the process exit status.
pub async fn run(args: ServeArgs) -> ExitCode {
    init_tracing(&args.log);
    match serve(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ (StartError::Scenario(_) | StartError::Database(_))) => {
            eprintln!("switchyard: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("switchyard: {e}");
            ExitCode::FAILURE
        }
    }
}

fn init_tracing(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // A second initialisation (tests) is harmless and ignored.
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
}

/// The router's web settings from the flags: the public URLs' origins (the bound address
/// when none is given) and the cookie's `Secure` flag (on by default behind an `https` URL).
fn web_settings(args: &ServeArgs, local: std::net::SocketAddr) -> router::WebSettings {
    let mut web = router::WebSettings::for_addr(local);
    if !args.public_url.is_empty() {
        // Each URL was checked when the command line was read.
        match crate::origin::Origins::from_urls(&args.public_url) {
            Ok(origins) => web.origins = origins,
            Err(e) => tracing::error!(error = %e, "--public-url"),
        }
    }
    web.cookie_secure = args.cookie_secure.unwrap_or(web.origins.any_https());
    if local.ip().is_unspecified() && args.public_url.is_empty() {
        tracing::warn!(
            "listening on every address without --public-url: browsers reaching the console by a \
             host name will have their changes refused; set --public-url to that URL"
        );
    }
    web
}

/// Creates `admin` with a random password when no user exists; returns that password.
pub async fn ensure_first_admin(
    store: &services::Store,
) -> Result<Option<String>, services::ServiceError> {
    if accounts::count(store).await? > 0 {
        return Ok(None);
    }
    let secret = password::random_password();
    match accounts::create(store, "admin", &secret, Role::Admin).await {
        Ok(_) => Ok(Some(secret)),
        // Another console starting on the same database created it first.
        Err(services::ServiceError::Conflict(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

async fn serve(args: ServeArgs) -> Result<(), StartError> {
    let signals = StopSignals::install()?;
    let (scenario, origin) = load_scenario(args.scenario.as_deref())?;
    let store = services::Store::connect(&args.database_url)
        .await
        .map_err(StartError::Database)?;
    // Held until the end of `serve`. On PostgreSQL, while another console leads, this one
    // follows its run (and takes the lead when it can); `--new-run` needs the lead itself.
    let lead = if args.new_run {
        store.lead().await
    } else {
        store.lead_or_follow().await
    }
    .map_err(StartError::Database)?;
    let first_admin = ensure_first_admin(&store).await?;
    let seed = args.seed.unwrap_or(scenario.scenario.seed);
    let speed = args.speed.unwrap_or(scenario.clock.start_speed);
    let (promote, promoted) = tokio::sync::oneshot::channel();
    let (runtime, opened) = if matches!(lead, Lead::Candidate(_)) {
        let handle = follow_run(&args, &store, &scenario, speed, promoted).await?;
        (handle, Opened::Following)
    } else {
        open_run(&args, &store, &scenario, seed, speed).await?
    };
    let seed = u64::from_ne_bytes(runtime.run().seed.to_ne_bytes());
    let speed = runtime.status().speed;
    let services = Services::new(
        store,
        runtime.clone(),
        std::sync::Arc::new(scenario.clone()),
    );
    let listener = TcpListener::bind(args.addr).await?;
    let local = listener.local_addr()?;
    let web = web_settings(&args, local);
    let app = router::build_with(
        services,
        router::leptos_options(&args.site_root, local),
        web,
    )
    .await?;
    let (dns_stop, dns_stopped) = tokio::sync::oneshot::channel::<()>();
    let dns = if args.no_dns {
        None
    } else {
        let stopped = async move {
            let _ = dns_stopped.await;
        };
        let bound = crate::dns::start(args.dns_addr, runtime.clone(), stopped)
            .await
            .map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "DNS responder on {}: {e} (choose another with --dns-addr, or --no-dns)",
                        args.dns_addr
                    ),
                )
            })?;
        Some(bound)
    };
    if !crate::bundle::is_built(Path::new(&args.site_root)) {
        tracing::warn!(site_root = %args.site_root, "the browser bundle is missing (run `make build`): pages will not be interactive");
    }
    println!("Switchyard console: http://{local}/");
    match dns {
        Some(addr) => println!(
            "ADNS responder (GSLB domains) on {addr}, UDP and TCP: dig @{} -p {} <domain>",
            addr.ip(),
            addr.port()
        ),
        None => println!("ADNS responder off (--no-dns)"),
    }
    println!(
        "Scenario “{}” ({origin}), seed {seed}, clock at {speed}; database {}",
        scenario.scenario.name,
        services::store::redacted(&args.database_url)
    );
    let status = runtime.status();
    match opened {
        Opened::New => {}
        Opened::Resumed => println!(
            "Resumed run {} at t = {} ms ({} events; --new-run starts afresh)",
            status.run_id, status.t_ms, status.events_total
        ),
        Opened::Following => println!(
            "Following run {} (t = {} ms), led by another console: pages are served from this \
             console's copy, actions go to the leader; this console takes the lead if the leader stops",
            status.run_id, status.t_ms
        ),
    }
    match first_admin {
        Some(secret) => println!(
            "No user existed, so one was created. Sign in as `admin` with password: {secret}\n\
             (shown once; change it on the Users page)"
        ),
        None => println!(
            "Sign in with an existing account (add one with `switchyard user add --username NAME --role admin`)."
        ),
    }
    // Without TCP_NODELAY every streamed response waits ~40 ms for Nagle + delayed ACK.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
    });
    let announce = runtime.clone();
    let ended = runtime.ended();
    let runtime_failed = Arc::new(AtomicBool::new(false));
    let failed = runtime_failed.clone();
    let server = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        tokio::select! {
            () = signals.recv() => {}
            why = lead.lost(move || {
                // The follower's task rebuilds the run and leads it.
                let _ = promote.send(());
            }) => tracing::error!(%why, "stepping down: this console stops"),
            // The runtime task died (e.g. the run could not be rebuilt when this console took
            // the lead): stop, so that the lead is released for another console.
            () = ended => {
                failed.store(true, Ordering::Relaxed);
                tracing::error!("the runtime stopped: this console stops and releases the lead");
            }
        }
        tracing::info!("stopping: no new connections; live streams end");
        announce.begin_shutdown();
    })
    .into_future();
    let stopping = runtime.stopping();
    tokio::select! {
        served = server => served?,
        () = async { stopping.await; tokio::time::sleep(CONNECTIONS_GRACE).await } => {
            tracing::warn!(
                grace_ms = CONNECTIONS_GRACE.as_millis(),
                "connections still open after the grace period are closed"
            );
        }
    }
    let _ = dns_stop.send(());
    tracing::info!("shutting down: flushing history");
    runtime.shutdown().await;
    if runtime_failed.load(Ordering::Relaxed) {
        return Err(StartError::Resume(
            "the runtime stopped (see the log above); another console may lead the run".into(),
        ));
    }
    Ok(())
}

/// How this console came to its run.
enum Opened {
    /// It started a new run.
    New,
    /// It resumed the database's unfinished run.
    Resumed,
    /// It follows the run another console leads.
    Following,
}

/// How long a follower waits for the leading console to have a run to follow.
const FOLLOW_WAIT: std::time::Duration = std::time::Duration::from_secs(15);

/// Follows the run of the console that leads the database (waiting [`FOLLOW_WAIT`] for it to
/// have one); the follower takes the lead when `promoted` fires.
async fn follow_run(
    args: &ServeArgs,
    store: &services::Store,
    scenario: &engine::Scenario,
    speed: engine::Speed,
    promoted: tokio::sync::oneshot::Receiver<()>,
) -> Result<runtime::RuntimeHandle, StartError> {
    let give_up = tokio::time::Instant::now() + FOLLOW_WAIT;
    let (run, start_speed) = loop {
        if let Some(found) = history::unfinished_run(store).await? {
            break found;
        }
        if tokio::time::Instant::now() >= give_up {
            return Err(StartError::Database(services::ServiceError::invalid(
                "database-url",
                format!(
                    "another console leads this database but has no run to follow after {} s",
                    FOLLOW_WAIT.as_secs()
                ),
            )));
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    };
    if run.scenario != scenario.scenario.name {
        return Err(StartError::Resume(format!(
            "the leading console runs run {} of scenario “{}”, not “{}”: start this console with --scenario for it",
            run.id, run.scenario, scenario.scenario.name
        )));
    }
    let start_speed = start_speed.and_then(|s| s.parse().ok()).unwrap_or(speed);
    let options = runtime::RuntimeOptions {
        snapshot_every: args.snapshot_every,
        retention: args.retention.clone(),
    };
    let id = run.id;
    runtime::follow(
        store.clone(),
        std::sync::Arc::new(scenario.clone()),
        run,
        start_speed,
        options,
        promoted,
    )
    .await
    .map_err(|e| StartError::Resume(format!("run {id} cannot be followed: {e}")))
}

/// Resumes the database's unfinished run, or starts a new one (closing any unfinished run)
/// with `--new-run` or when there is none. Returns the runtime and how it came to it.
async fn open_run(
    args: &ServeArgs,
    store: &services::Store,
    scenario: &engine::Scenario,
    seed: u64,
    speed: engine::Speed,
) -> Result<(runtime::RuntimeHandle, Opened), StartError> {
    let options = runtime::RuntimeOptions {
        snapshot_every: args.snapshot_every,
        retention: args.retention.clone(),
    };
    let unfinished = if args.new_run {
        None
    } else {
        history::unfinished_run(store).await?
    };
    if let Some((run, start_speed)) = unfinished {
        if run.scenario != scenario.scenario.name {
            return Err(StartError::Resume(format!(
                "run {} was started with scenario “{}”, not “{}”: start with --scenario for it, or with --new-run to start a new run (nothing is deleted)",
                run.id, run.scenario, scenario.scenario.name
            )));
        }
        let start_speed = start_speed.and_then(|s| s.parse().ok()).unwrap_or(speed);
        let clock = match args.resume {
            ResumeClock::AsItWas => None,
            ResumeClock::Paused => Some(engine::Speed::Paused),
        };
        let id = run.id;
        let handle = runtime::resume(store.clone(), scenario, run, start_speed, clock, options)
            .await
            .map_err(|e| {
                StartError::Resume(format!(
                    "run {id} cannot be resumed: {e}; start with --new-run to start a new run (nothing is deleted)"
                ))
            })?;
        return Ok((handle, Opened::Resumed));
    }
    history::end_unfinished_runs(store).await?;
    let handle =
        runtime::start_with(store.clone(), scenario, seed, Vec::new(), speed, options).await?;
    Ok((handle, Opened::New))
}

/// SIGTERM and SIGINT (Ctrl-C), listened to from the moment this is made: a signal that
/// arrives while the console is still starting is not lost (nor fatal).
struct StopSignals {
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
}

impl StopSignals {
    fn install() -> std::io::Result<StopSignals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(StopSignals {
                terminate: signal(SignalKind::terminate())?,
                interrupt: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        Ok(StopSignals {})
    }

    async fn recv(mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.terminate.recv() => {},
            _ = self.interrupt.recv() => {},
        }
        #[cfg(not(unix))]
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    }
}
