//! The hookc application: the command line (one file per verb, each an `Args` struct and a
//! `run` function), the compiled-rules [`cache`], the LSP server, and the agents' settings wiring
//! (`init`, `doctor`).
//!
//! This crate is the top floor: it may import every other hookc crate, and nothing imports it
//! but the `hookc` binary and the integration tests. The language binding crates never do.

#![warn(unreachable_pub)]

pub mod cache;
mod check;
mod compile;
mod doctor;
mod eval;
mod explain;
mod fmt;
mod folder_trust;
mod hook;
mod init;
mod input;
mod launcher;
mod lsp;
mod replay;
mod report;
mod stats;
mod test;
mod wiring;

use clap::{Parser, Subcommand};
pub use report::exit;
use report::{end_quietly_on_closed_pipes, error, print_bytes, ColorChoice, COLOR};
use std::process::ExitCode;

/// hookc: a declarative policy-and-hook engine for AI coding agents.
#[derive(Debug, Parser)]
#[command(name = "hookc", version, about, long_about = None)]
pub(crate) struct Cli {
    /// When to colour diagnostics: `auto` colours a terminal unless `NO_COLOR` is set
    /// (`CLICOLOR_FORCE` colours any output).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    color: ColorChoice,
    /// Refuse to run (exit 2) unless this is hookc VERSION, or a version it is a prefix of
    /// (`0.1` takes `0.1.3`): the project's committed launcher pins the hookc its wiring expects.
    #[arg(long, global = true, value_name = "VERSION")]
    require_version: Option<String>,
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
    /// Answer one hook call of an agent (its payload on stdin, the decision on stdout).
    Hook(hook::HookArgs),
    /// `hookc hook claude` (or `--agent codex`), as settings written by earlier releases say it.
    Claude(hook::ClaudeArgs),
    /// `hookc hook gemini`, as settings written by earlier releases say it.
    Gemini(hook::GeminiArgs),
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
    /// Count, per rule, from audit logs: how often it fired, what it decided (or would have, in
    /// audit mode), and on what.
    Stats(stats::Args),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  hookc completions bash > ~/.local/share/bash-completion/completions/hookc\n  hookc completions zsh > \"${fpath[1]}/_hookc\"\n  hookc completions fish > ~/.config/fish/completions/hookc.fish"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Serve the Language Server Protocol on stdin/stdout, for editors: `check`'s diagnostics,
    /// completion, hover documentation and `fmt` formatting of rule files.
    #[command(after_help = "Example (an editor starts it; see editors/vscode):\n  hookc lsp")]
    Lsp,
    /// Print the man page (roff).
    #[command(after_help = "Example:\n  hookc man > /usr/local/share/man/man1/hookc.1")]
    Man,
}

/// The `lsp` fuzz target's entry (`tests/oracles.rs`): a test hook, only with `testing`.
#[cfg(feature = "testing")]
pub use lsp::exercise as lsp_exercise;

/// Runs the command line and returns the exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let _ = COLOR.set(cli.color);
    if let Some(required) = cli.require_version.as_deref().filter(|required| !launcher::version_matches(required)) {
        // Exit 2: an agent blocks the call and shows this, as when no hookc is found.
        eprintln!(
            "hookc: this is hookc {}, but the project's launcher pins hookc {required}: install that version (or run `hookc init` again to pin this one). This call is blocked.",
            env!("CARGO_PKG_VERSION")
        );
        return ExitCode::from(2);
    }
    // An agent's hook answers on stdout and exits 2 when it cannot (its own handling); every
    // other verb's output may go to a pipe that closes early (`hookc check | head`).
    if !matches!(cli.command, Command::Hook(_) | Command::Claude(_) | Command::Gemini(_)) {
        end_quietly_on_closed_pipes();
    }
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Compile(args) => compile::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Hook(args) => hook::run_hook(&args),
        Command::Claude(args) => hook::run_claude(&args),
        Command::Gemini(args) => hook::run_gemini(&args),
        Command::Init(args) => init::run(&args),
        Command::Doctor(args) => doctor::run(&args),
        Command::Test(args) => test::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut <Cli as clap::CommandFactory>::command(), "hookc", &mut script);
            print_bytes(&script)
        }
        Command::Lsp => match crate::lsp::serve() {
            Ok(()) => exit::OK,
            Err(reason) => {
                error(format_args!("the language server stopped: {reason}"));
                exit::FAILED
            }
        },
        Command::Man => {
            let mut page = Vec::new();
            match clap_mangen::Man::new(<Cli as clap::CommandFactory>::command()).render(&mut page) {
                Ok(()) => print_bytes(&page),
                Err(io) => {
                    error(io);
                    exit::FAILED
                }
            }
        }
    };
    if hookc_core::clock::is_test() {
        // What a test asserts instead of timing the call (src/clock.rs).
        eprintln!("hookc: test clock: waited {} ms", hookc_core::clock::waited().as_millis());
    }
    ExitCode::from(code)
}
