//! `hookc claude` and `hookc gemini`: answer one command-hook call of a real agent.

use super::input::{PathArgs, PolicyArgs};
use crate::adapter::claude::Flavor;
use crate::adapter::{answer_hook, Failure, HookOptions, HookProtocol};
use crate::{LoadError, Policy};

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
    let policy = load(&common.policy).map(|policy| policy.with_path_settings(common.paths.path_settings()));
    let audit = match &policy {
        Ok(policy) => super::open_audit_log(common.audit_log.as_deref(), policy.source_hash()),
        Err(_) => None,
    };
    let options = HookOptions {
        audit: audit.as_deref(),
        project_root: common.project_root.as_ref().map(|root| root.to_string_lossy().into_owned()),
        fail_open: common.fail_open,
    };
    let answer =
        answer_hook(protocol, policy.as_ref().map_err(|failure| failure.0.clone()), std::io::stdin().lock(), &options);
    super::close_audit_log(audit);
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
