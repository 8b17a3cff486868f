//! The command line: one file per verb, each an `Args` struct and a `run` function.

mod agent;
mod check;
mod compile;
mod doctor;
mod eval;
mod explain;
mod fmt;
mod init;
mod input;
mod replay;
mod test;
mod wiring;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// hookc: a declarative policy-and-hook engine for AI coding agents.
#[derive(Debug, Parser)]
#[command(name = "hookc", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse and lint rule files; rustc-style diagnostics.
    Check(check::Args),
    /// Check rule files, then write the compiled bundle.
    Compile(compile::Args),
    /// Evaluate one native event (JSON) and print the HookResult (JSON).
    Eval(eval::Args),
    /// Answer a Claude Code or Codex command hook (event on stdin, decision on stdout).
    Claude(agent::ClaudeArgs),
    /// Answer a Gemini CLI command hook (event on stdin, decision on stdout).
    Gemini(agent::GeminiArgs),
    /// Print or write the agent settings that run hookc at every hook point.
    Init(init::Args),
    /// Run every hookc hook an agent's settings wire, with a synthetic payload per event, and
    /// report what would happen.
    Doctor(doctor::Args),
    /// Like `eval`, with every rule's condition trace: which test held, on what value.
    Explain(explain::Args),
    /// Rewrite rule files in one canonical layout, keeping every comment.
    Fmt(fmt::Args),
    /// Run a scripted session through the reference loop with the rules; print the transcript.
    Replay(replay::Args),
    /// Run the rule tests (`*.test.yaml` beside the rules) with rule coverage.
    Test(test::Args),
}

/// Exit codes shared by every verb.
pub mod exit {
    /// Success.
    pub const OK: u8 = 0;
    /// The rules or the input have errors.
    pub const FAILED: u8 = 1;
    /// Bad usage, or a file that cannot be read or written.
    pub const USAGE: u8 = 2;
}

/// Runs the command line and returns the exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Compile(args) => compile::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Claude(args) => agent::run_claude(&args),
        Command::Gemini(args) => agent::run_gemini(&args),
        Command::Init(args) => init::run(&args),
        Command::Doctor(args) => doctor::run(&args),
        Command::Test(args) => test::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Replay(args) => replay::run(&args),
    };
    ExitCode::from(code)
}

/// Whether to colour output written to stderr.
fn color_stderr() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Prints a one-line error to stderr.
fn error(message: impl std::fmt::Display) {
    eprintln!("error: {message}");
}

/// Opens `--audit-log FILE`, if given. The audit log is an observer: if it cannot be opened,
/// that is reported and the decision goes on unchanged.
fn open_audit_log(
    path: Option<&std::path::Path>,
    policy_hash: &str,
) -> Option<std::sync::Arc<crate::agent::audit::AuditLog>> {
    let path = path?;
    match crate::agent::audit::AuditLog::open(path, policy_hash) {
        Ok(log) => Some(log),
        Err(io) => {
            eprintln!("hookc: warning: cannot open the audit log `{}`: {io}; not auditing", path.display());
            None
        }
    }
}

/// Flushes and closes an audit log, reporting (never propagating) a failure.
fn close_audit_log(log: Option<std::sync::Arc<crate::agent::audit::AuditLog>>) {
    if let Some(Err(io)) = log.map(|log| log.close()) {
        eprintln!("hookc: warning: the audit log could not be written: {io}");
    }
}
