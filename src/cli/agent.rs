//! `hookc claude` and `hookc gemini`: answer one command-hook call of a real agent.

use super::input::PolicyArgs;
use crate::adapter::claude::{Claude, Flavor};
use crate::adapter::gemini::Gemini;
use crate::adapter::{decide, failure_answer, Failure, Protocol};
use crate::{LoadError, Policy};

/// Options every agent verb shares.
#[derive(Debug, clap::Args)]
pub(super) struct Common {
    #[command(flatten)]
    policy: PolicyArgs,
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
}

/// Answer a Claude Code (or Codex) command hook: the event on stdin, the decision on stdout.
#[derive(Debug, clap::Args)]
pub(super) struct ClaudeArgs {
    #[command(flatten)]
    common: Common,
    /// Which agent is calling (recorded as the `agent` field).
    #[arg(long, value_enum, default_value_t = Flavor::Claude)]
    agent: Flavor,
}

/// Answer a Gemini CLI command hook: the event on stdin, the decision on stdout.
#[derive(Debug, clap::Args)]
pub(super) struct GeminiArgs {
    #[command(flatten)]
    common: Common,
}

/// Runs `hookc claude`.
pub(super) fn run_claude(args: &ClaudeArgs) -> u8 {
    run(&Claude { flavor: args.agent }, &args.common)
}

/// Runs `hookc gemini`.
pub(super) fn run_gemini(args: &GeminiArgs) -> u8 {
    run(&Gemini, &args.common)
}

fn run<P: Protocol>(protocol: &P, common: &Common) -> u8 {
    let outcome = load(&common.policy).and_then(|policy| {
        let audit = super::open_audit_log(common.audit_log.as_deref(), policy.source_hash());
        let root = common.project_root.as_ref().map(|root| root.to_string_lossy().into_owned());
        let decided = decide(protocol, &policy, std::io::stdin().lock(), audit.as_deref(), root.as_deref());
        super::close_audit_log(audit);
        decided
    });
    let (answer, messages) = match outcome {
        Ok((answer, logs)) => (answer, logs),
        Err(failure) => {
            let (answer, message) = failure_answer(protocol, &failure, common.fail_open);
            (answer, vec![message])
        }
    };
    for message in messages {
        eprintln!("{message}");
    }
    if let Some(stdout) = &answer.stdout {
        println!("{stdout}");
    }
    answer.exit
}

/// Loads the policy, as a one-line failure for the agent to show.
fn load(args: &PolicyArgs) -> Result<Policy, Failure> {
    let loaded = match &args.bundle {
        Some(bundle) => Policy::load_bundle(bundle),
        None => Policy::from_paths(&args.rules),
    };
    loaded.map_err(|error| {
        Failure(match error {
            LoadError::Invalid { diagnostics, .. } => {
                let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                format!("the rules have {errors} error(s); run `hookc check` on them")
            }
            other => other.to_string(),
        })
    })
}
