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
    /// When to colour diagnostics: `auto` colours a terminal unless `NO_COLOR` is set
    /// (`CLICOLOR_FORCE` colours any output).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ColorChoice {
    /// Colour a terminal, following `NO_COLOR` and `CLICOLOR_FORCE`.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The `--color` choice, set once at start.
static COLOR: std::sync::OnceLock<ColorChoice> = std::sync::OnceLock::new();

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse and lint rule files; rustc-style diagnostics.
    Check(check::Args),
    /// Check rule files, then write the compiled bundle.
    Compile(compile::Args),
    /// Evaluate one native event (JSON) and print the HookResult (JSON).
    Eval(eval::Args),
    /// Answer one hook call of an agent (its payload on stdin, the decision on stdout).
    Hook(agent::HookArgs),
    /// `hookc hook claude` (or `--agent codex`), as settings written by earlier releases say it.
    Claude(agent::ClaudeArgs),
    /// `hookc hook gemini`, as settings written by earlier releases say it.
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
    let _ = COLOR.set(cli.color);
    // An agent's hook answers on stdout and exits 2 when it cannot (its own handling); every
    // other verb's output may go to a pipe that closes early (`hookc check | head`).
    if !matches!(cli.command, Command::Hook(_) | Command::Claude(_) | Command::Gemini(_)) {
        end_quietly_on_closed_pipes();
    }
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Compile(args) => compile::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Hook(args) => agent::run_hook(&args),
        Command::Claude(args) => agent::run_claude(&args),
        Command::Gemini(args) => agent::run_gemini(&args),
        Command::Init(args) => init::run(&args),
        Command::Doctor(args) => doctor::run(&args),
        Command::Test(args) => test::run(&args),
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
    ExitCode::from(code)
}

/// Writes to stdout: a closed pipe ends quietly (see [`end_quietly_on_closed_pipes`]).
fn print_bytes(bytes: &[u8]) -> u8 {
    use std::io::Write;
    match std::io::stdout().lock().write_all(bytes) {
        Ok(()) => exit::OK,
        Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(141),
        Err(io) => {
            error(io);
            exit::USAGE
        }
    }
}

/// A closed pipe on stdout ends the process as one closed under `head` would, quietly (exit
/// 141, as a shell reports a process ended by SIGPIPE), not with a panic's message.
fn end_quietly_on_closed_pipes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// Whether to colour output written to stderr: `--color`, then `CLICOLOR_FORCE` and
/// `NO_COLOR` (<https://no-color.org>), then whether stderr is a terminal.
fn color_stderr() -> bool {
    use std::io::IsTerminal;
    let set = |name| std::env::var_os(name).is_some_and(|value| !value.is_empty() && value != "0");
    match COLOR.get().copied().unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("CLICOLOR_FORCE") => true,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty()) && std::io::stderr().is_terminal()
        }
    }
}

/// Prints a one-line error to stderr.
fn error(message: impl std::fmt::Display) {
    eprintln!("error: {message}");
}

/// Opens `--audit-log FILE`, if given. The audit log is an observer: if it cannot be opened,
/// that is reported and the decision goes on unchanged.
fn open_audit_log(path: Option<&std::path::Path>, policy_hash: &str) -> Option<std::sync::Arc<crate::audit::AuditLog>> {
    let path = path?;
    match crate::audit::AuditLog::open(path, policy_hash) {
        Ok(log) => Some(log),
        Err(io) => {
            eprintln!("hookc: warning: cannot open the audit log `{}`: {io}; not auditing", path.display());
            None
        }
    }
}

/// Flushes and closes an audit log, reporting (never propagating) a failure.
fn close_audit_log(log: Option<std::sync::Arc<crate::audit::AuditLog>>) {
    if let Some(Err(io)) = log.map(|log| log.close()) {
        eprintln!("hookc: warning: the audit log could not be written: {io}");
    }
}
