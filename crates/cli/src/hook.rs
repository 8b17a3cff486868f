//! `hookc hook AGENT`: answer one command-hook call of a real agent (`hookc claude` and
//! `hookc gemini` are older spellings of it, kept so that settings already written keep working).

use super::input::{PathArgs, PolicyArgs};
use hookc_agents::{self, HookAnswer, HookFailure, HookOptions};
use hookc_core::vocab::agents::{self, Agent};
use hookc_core::{LoadError, Policy};
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

/// Answer one command-hook call of an agent: its payload on stdin, the decision on stdout and
/// the exit code, in the agent's own protocol.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples (what `hookc init AGENT` writes as the hook command):\n  hookc hook claude --rules /abs/path/rules\n  hookc hook codex --bundle /abs/policy.bundle --trust-key /abs/hookc.pub\n  hookc hook claude --rules rules/ < payload.json    answer one captured payload by hand"
)]
pub(super) struct HookArgs {
    /// The agent calling (its id or an alias: `claude`, `codex`, `gemini`, …).
    #[arg(value_parser = super::input::agent_arg, value_name = "AGENT")]
    agent: &'static Agent,
    /// The agent's name for the event, for agents whose payload does not name it (the hook
    /// command `hookc init` writes for such an agent says it).
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    #[command(flatten)]
    common: Common,
}

/// Answer a Claude Code (or Codex) command hook: `hookc hook claude` (or `hookc hook codex`).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples (settings written by earlier releases):\n  hookc claude --rules /abs/path/rules\n  hookc claude --agent codex --bundle /abs/policy.bundle\n\nNew settings name the agent: `hookc hook claude …`, `hookc hook codex …`."
)]
pub(super) struct ClaudeArgs {
    #[command(flatten)]
    common: Common,
    /// Which agent is calling (recorded as the `agent` field).
    #[arg(long, value_parser = super::input::agent_arg, default_value = "claude", value_name = "AGENT")]
    agent: &'static Agent,
}

/// Answer a Gemini CLI command hook: `hookc hook gemini`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example (settings written by earlier releases):\n  hookc gemini --rules /abs/path/rules\n\nNew settings name the agent: `hookc hook gemini …`."
)]
pub(super) struct GeminiArgs {
    #[command(flatten)]
    common: Common,
}

/// Runs `hookc hook AGENT`.
pub(super) fn run_hook(args: &HookArgs) -> u8 {
    run(args.agent, args.event.clone(), &args.common)
}

/// Runs `hookc claude`.
pub(super) fn run_claude(args: &ClaudeArgs) -> u8 {
    run(args.agent, None, &args.common)
}

/// Runs `hookc gemini`.
pub(super) fn run_gemini(args: &GeminiArgs) -> u8 {
    match agents::find("gemini") {
        Some(gemini) => run(gemini, None, &args.common),
        None => super::report::exit::USAGE,
    }
}

fn run(agent: &'static Agent, event: Option<String>, common: &Common) -> u8 {
    let watchdog = Watchdog::start(agent, event.clone(), Duration::from_secs_f64(common.deadline), common.fail_open);
    let mut settings = common.paths.path_settings();
    settings.guarded = common.policy.guarded(common.audit_log.as_deref());
    let policy = load(&common.policy).map(|policy| policy.with_path_settings(settings));
    let payload = hookc_agents::read_payload(std::io::stdin().lock()).map(Arc::new);
    watchdog.deciding(payload.as_ref().ok());
    // Failures are recorded too: a policy that cannot load is the record to find afterwards.
    let hash = policy.as_ref().map_or("unavailable", Policy::source_hash);
    let audit = super::report::open_audit_log(common.audit_log.as_deref(), hash);
    let options = HookOptions::default()
        .with_audit(audit.as_deref())
        .with_project_root(common.project_root.as_ref().map(|root| root.to_string_lossy().into_owned()))
        .with_fail_open(common.fail_open)
        .with_event(event);
    let answer = hookc_agents::answer_payload(
        agent,
        policy.as_ref().map_err(Clone::clone),
        payload.as_ref().map(|bytes| bytes.as_slice()).map_err(Clone::clone),
        &options,
    );
    super::report::close_audit_log(audit);
    // A compiled-rules cache entry whose blocks do not verify is dropped: this call failed
    // closed, and the next compiles the rules again.
    if let (true, Ok(policy)) = (answer.bundle_damaged, &policy) {
        crate::cache::forget(policy.source_hash());
    }
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
    fn start(agent: &'static Agent, event: Option<String>, deadline: Duration, fail_open: bool) -> Self {
        let stage = Arc::new(Mutex::new(Stage::Reading));
        let shared = Arc::clone(&stage);
        let spawned = std::thread::Builder::new().name("deadline".into()).spawn(move || {
            std::thread::sleep(deadline);
            let stage = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let seconds = deadline.as_secs_f64();
            let (why, payload) = match &*stage {
                Stage::Answered => return,
                Stage::Reading => (HookFailure::PayloadTimeout(seconds), None),
                Stage::Deciding(payload) => (HookFailure::Deadline(seconds), payload.as_deref().map(Vec::as_slice)),
            };
            let options = HookOptions::default().with_fail_open(fail_open).with_event(event);
            let code = print(&hookc_agents::failed(agent, payload, &why, &options));
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
fn load(args: &PolicyArgs) -> Result<Policy, HookFailure> {
    args.policy_for_hook().map_err(|error| {
        HookFailure::Policy(match error {
            LoadError::Invalid { diagnostics, .. } => {
                let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                format!("the rules have {errors} error(s); run `hookc check` on them")
            }
            other => other.to_string(),
        })
    })
}
