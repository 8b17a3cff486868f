//! `hookc claude` and `hookc gemini`: answer one command-hook call of a real agent.

use super::input::{PathArgs, PolicyArgs};
use crate::adapter::claude::Flavor;
use crate::adapter::{self, Failure, HookAnswer, HookOptions, HookProtocol};
use crate::{LoadError, Policy};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Options every agent verb shares.
#[derive(Debug, clap::Args)]
pub(super) struct Common {
    #[command(flatten)]
    policy: PolicyArgs,
    #[command(flatten)]
    paths: PathArgs,
    /// If the policy cannot decide (bad payload, unreadable rules, an evaluation error), let the
    /// call proceed with a warning instead of blocking it.
    #[arg(long)]
    fail_open: bool,
    /// Append one JSON line per decision to this file.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<std::path::PathBuf>,
    /// The project root paths are spelled relative to (default: what the agent tells its hooks,
    /// `CLAUDE_PROJECT_DIR` or `GEMINI_PROJECT_DIR`; for Codex, the directory the hook runs in;
    /// else the event's `cwd`).
    #[arg(long, value_name = "DIR")]
    project_root: Option<std::path::PathBuf>,
    /// Answer within this many seconds, whatever happens: a payload that does not arrive, a
    /// policy that does not decide in time is answered as a failure (blocked, unless
    /// `--fail-open`). Keep it below the agent's hook timeout (`hookc init` writes 10 s), or the
    /// agent gives up first and runs the call.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_DEADLINE, value_parser = deadline)]
    deadline: f64,
}

/// The default per-call deadline, in seconds: below the 10 s timeout `hookc init` writes.
pub(super) const DEFAULT_DEADLINE: f64 = 8.0;

fn deadline(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 3600.0 => Ok(seconds),
        _ => Err(format!("`{text}` is not a number of seconds between 0 and 3600")),
    }
}

/// Answer a Claude Code (or Codex) command hook: the event on stdin, the decision on stdout.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples (what `hookc init claude` / `init codex` writes as the hook command):\n  hookc claude --rules /abs/path/rules\n  hookc claude --agent codex --bundle /abs/policy.bundle --trust-key /abs/hookc.pub\n  hookc claude --rules rules/ < payload.json    answer one captured payload by hand"
)]
pub(super) struct ClaudeArgs {
    #[command(flatten)]
    common: Common,
    /// Which agent is calling (recorded as the `agent` field).
    #[arg(long, value_enum, default_value_t = Flavor::Claude)]
    agent: Flavor,
}

/// Answer a Gemini CLI command hook: the event on stdin, the decision on stdout.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples (what `hookc init gemini` writes as the hook command):\n  hookc gemini --rules /abs/path/rules\n  hookc gemini --rules rules/ < payload.json    answer one captured payload by hand"
)]
pub(super) struct GeminiArgs {
    #[command(flatten)]
    common: Common,
}

/// Runs `hookc claude`.
pub(super) fn run_claude(args: &ClaudeArgs) -> u8 {
    let protocol = match args.agent {
        Flavor::Claude => HookProtocol::Claude,
        Flavor::Codex => HookProtocol::Codex,
    };
    run(protocol, &args.common)
}

/// Runs `hookc gemini`.
pub(super) fn run_gemini(args: &GeminiArgs) -> u8 {
    run(HookProtocol::Gemini, &args.common)
}

fn run(protocol: HookProtocol, common: &Common) -> u8 {
    let watchdog = Watchdog::start(protocol, Duration::from_secs_f64(common.deadline), common.fail_open);
    let policy = load(&common.policy).map(|policy| policy.with_path_settings(common.paths.path_settings()));
    let payload = adapter::read_payload(std::io::stdin().lock()).map(Arc::new);
    watchdog.deciding(payload.as_ref().ok());
    // Failures are recorded too: a policy that cannot load is the record to find afterwards.
    let hash = policy.as_ref().map_or("unavailable", Policy::source_hash);
    let audit = super::open_audit_log(common.audit_log.as_deref(), hash);
    let options = HookOptions {
        audit: audit.as_deref(),
        project_root: common.project_root.as_ref().map(|root| root.to_string_lossy().into_owned()),
        fail_open: common.fail_open,
    };
    let answer = adapter::answer_payload(
        protocol,
        policy.as_ref().map_err(|failure| failure.0.clone()),
        payload.as_ref().map(|bytes| bytes.as_slice()).map_err(Clone::clone),
        &options,
    );
    super::close_audit_log(audit);
    watchdog.answer(&answer)
}

/// Where a call is, for the watchdog: it answers in the call's place when the deadline passes.
enum Stage {
    /// Loading the policy and reading the payload.
    Reading,
    /// Deciding on this payload.
    Deciding(Option<Arc<Vec<u8>>>),
    /// Answered: the watchdog has nothing to do.
    Answered,
}

/// Answers a call that misses its deadline, as a failure of the call, and ends the process.
/// Whoever takes the stage first answers: the call's own answer and the watchdog's never mix.
struct Watchdog {
    stage: Arc<Mutex<Stage>>,
}

impl Watchdog {
    fn start(protocol: HookProtocol, deadline: Duration, fail_open: bool) -> Self {
        let stage = Arc::new(Mutex::new(Stage::Reading));
        let shared = Arc::clone(&stage);
        let spawned = std::thread::Builder::new().name("deadline".into()).spawn(move || {
            std::thread::sleep(deadline);
            let stage = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let seconds = deadline.as_secs_f64();
            let (why, payload) = match &*stage {
                Stage::Answered => return,
                Stage::Reading => (format!("no complete hook payload arrived on stdin within {seconds} s"), None),
                Stage::Deciding(payload) => (
                    format!("the policy did not decide within the {seconds} s deadline (`--deadline`)"),
                    payload.as_deref().map(Vec::as_slice),
                ),
            };
            let code = print(&adapter::failure(protocol, payload, &Failure(why), fail_open));
            // The stage stays locked: the call cannot answer after this one.
            std::process::exit(i32::from(code));
        });
        if let Err(error) = spawned {
            eprintln!("hookc: warning: cannot start the deadline watchdog ({error}); this call has no deadline");
        }
        Watchdog { stage }
    }

    /// The payload is read: a late answer is now about it.
    fn deciding(&self, payload: Option<&Arc<Vec<u8>>>) {
        let mut stage = self.stage.lock().unwrap_or_else(PoisonError::into_inner);
        *stage = Stage::Deciding(payload.cloned());
    }

    /// Prints the call's answer (unless the watchdog already answered) and returns its exit code.
    fn answer(&self, answer: &HookAnswer) -> u8 {
        let mut stage = self.stage.lock().unwrap_or_else(PoisonError::into_inner);
        *stage = Stage::Answered;
        print(answer)
    }
}

/// Writes an answer (stderr lines, then the stdout line) and returns its exit code.
fn print(answer: &HookAnswer) -> u8 {
    for message in &answer.stderr {
        eprintln!("{message}");
    }
    if let Some(stdout) = &answer.stdout {
        println!("{stdout}");
    }
    answer.exit
}

/// Loads the policy, as a one-line failure for the agent to show.
fn load(args: &PolicyArgs) -> Result<Policy, Failure> {
    args.policy().map_err(|error| {
        Failure(match error {
            LoadError::Invalid { diagnostics, .. } => {
                let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                format!("the rules have {errors} error(s); run `hookc check` on them")
            }
            other => other.to_string(),
        })
    })
}
