//! `switchyard simulate`: the engines headless, as fast as possible, one JSON object per event
//! on standard output; with `--database-url` the run and its events are also recorded in
//! the database by the same persistence task as `serve`, in larger transactions (nobody reads
//! the run while it is written). Exit status 2 for bad input
//! (scenario, actions, duration).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use engine::{parse_duration, SimTime, Simulation};

use crate::cli::SimulateArgs;
use crate::scenario_file::{load_actions, load_scenario};

/// Simulated time advanced per chunk, so output streams instead of piling up in memory.
const CHUNK_MS: u64 = 60_000;
/// Chunks of events waiting for the persistence task: beyond this the engines wait for the
/// database, so memory stays bounded whatever the event rate.
const PENDING_CHUNKS: usize = 64;

/// Runs the command; returns the process exit status.
pub fn run(args: &SimulateArgs) -> ExitCode {
    match run_inner(args, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("switchyard simulate: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("switchyard simulate: cannot write the output: {e}");
            ExitCode::FAILURE
        }
        Err(Failure::Database(e)) => {
            eprintln!("switchyard simulate: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What stopped a run.
#[derive(Debug)]
pub enum Failure {
    /// Bad input (exit 2); the message names the file, line and field.
    Input(String),
    /// The output could not be written.
    Output(std::io::Error),
    /// The database failed.
    Database(String),
}

/// The black-hole A/B: one JSON object on `out`, a one-line summary per side on stderr.
fn black_hole_ab(
    args: &SimulateArgs,
    scenario: &engine::Scenario,
    seed: u64,
    server: &str,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let over = parse_duration(&args.storm_over)
        .map_err(|e| Failure::Input(format!("--storm-over: {e}")))?;
    let report = engine::lms::black_hole_ab(
        scenario,
        seed,
        server,
        args.storm_users,
        over,
        args.storm_app.as_deref(),
    )
    .map_err(|e| Failure::Input(format!("--black-hole-ab: {e}")))?;
    for side in [&report.fix_off, &report.fix_on] {
        eprintln!(
            "fix {}: {} of {} sessions on {} (busiest server {} %), {} refused",
            if side.fix { "on " } else { "off" },
            side.on_rebooted,
            side.placed,
            report.server,
            side.max_share_pct,
            side.rejected
        );
    }
    let json =
        serde_json::to_string(&report).map_err(|e| Failure::Output(std::io::Error::other(e)))?;
    writeln!(out, "{json}").map_err(Failure::Output)
}

/// Runs the simulation described by `args`, writing JSON lines to `out`.
pub fn run_inner(args: &SimulateArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (scenario, _) =
        load_scenario(Some(&args.scenario)).map_err(|e| Failure::Input(e.to_string()))?;
    let seed = args.seed.unwrap_or(scenario.scenario.seed);
    if let Some(server) = &args.black_hole_ab {
        return black_hole_ab(args, &scenario, seed, server, out);
    }
    let until = parse_duration(args.until.as_deref().unwrap_or_default())
        .map_err(|e| Failure::Input(format!("--until: {e}")))?
        .0;
    let max_days = engine::scenario::limits::MAX_SIMULATED_DAYS;
    if until > max_days * 86_400_000 {
        return Err(Failure::Input(format!("--until: at most {max_days}d")));
    }
    let actions = match &args.actions {
        Some(path) => load_actions(path, &scenario).map_err(|e| Failure::Input(e.to_string()))?,
        None => Vec::new(),
    };
    let mut sim = Simulation::new(&scenario, seed);
    sim.schedule(actions);
    let mut recorder = match &args.database_url {
        Some(url) => Some(Recorder::open(url, &scenario.scenario.name, seed)?),
        None => None,
    };
    let mut out = BufWriter::new(out);
    let mut t = 0;
    loop {
        t = (t + CHUNK_MS).min(until);
        let events = sim.advance_to(SimTime(t));
        if !args.quiet {
            for event in &events {
                writeln!(out, "{}", event.to_json_line()).map_err(Failure::Output)?;
            }
        }
        if let Some(recorder) = &mut recorder {
            if !events.is_empty() {
                recorder.record(events)?;
            }
        }
        if t >= until {
            break;
        }
    }
    if let Some(recorder) = recorder {
        recorder.finish()?;
    }
    out.flush().map_err(Failure::Output)
}

/// Records a headless run through the same persistence task as the server.
struct Recorder {
    /// Held while recording: no console leads the database meanwhile (PostgreSQL). First, so
    /// that it is dropped while the async runtime still runs.
    _lead: services::store::Lead,
    runtime: tokio::runtime::Runtime,
    batches: Option<tokio::sync::mpsc::Sender<services::runtime::writer::Persist>>,
    writer: Option<tokio::task::JoinHandle<()>>,
}

impl Recorder {
    fn open(url: &str, scenario: &str, seed: u64) -> Result<Self, Failure> {
        // One worker: the engines run on this thread while the store is written on the other.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| Failure::Database(format!("cannot start the async runtime: {e}")))?;
        let (batches, writer, lead) = runtime
            .block_on(async {
                let store = services::Store::connect(url).await?;
                // On PostgreSQL a recording is refused while a console leads the database
                // (its writer would share the run numbering with the live one's partitions).
                let lead = store.lead().await?;
                let run = services::history::create_run(&store, scenario, seed, None).await?;
                // A recording is never resumed as a console's own run.
                services::history::end_run(&store, run.id).await?;
                let (tx, rx) = tokio::sync::mpsc::channel(PENDING_CHUNKS);
                // A simulation takes no inputs: its journal side has no sender.
                let connections = services::runtime::writer::Connections::open(
                    store,
                    tokio::sync::mpsc::channel(1).1,
                )
                .await?
                .recording();
                let writer = tokio::spawn(services::runtime::writer::run(
                    connections,
                    run.id,
                    0,
                    rx,
                    std::sync::Arc::default(),
                ));
                Ok::<_, services::ServiceError>((tx, writer, lead))
            })
            .map_err(|e| Failure::Database(e.to_string()))?;
        Ok(Recorder {
            runtime,
            batches: Some(batches),
            writer: Some(writer),
            _lead: lead,
        })
    }

    fn record(&mut self, events: Vec<engine::Event>) -> Result<(), Failure> {
        let Some(batches) = &self.batches else {
            return Ok(());
        };
        self.runtime
            .block_on(batches.send(services::runtime::writer::Persist::Events(events)))
            .map_err(|_| Failure::Database("the persistence task stopped".into()))
    }

    fn finish(mut self) -> Result<(), Failure> {
        self.batches = None;
        if let Some(writer) = self.writer.take() {
            self.runtime
                .block_on(writer)
                .map_err(|e| Failure::Database(format!("persistence task failed: {e}")))?;
        }
        Ok(())
    }
}
