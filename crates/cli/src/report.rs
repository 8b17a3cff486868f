//! How a verb reports: its exit code, one-line errors and colour on stderr, stdout that may be a
//! pipe closed early, and the audit log it writes to.

/// Exit codes shared by every verb.
pub mod exit {
    /// Success.
    pub const OK: u8 = 0;
    /// The rules or the input have errors.
    pub const FAILED: u8 = 1;
    /// Bad usage, or a file that cannot be read or written.
    pub const USAGE: u8 = 2;
}

/// `--format` of the verbs that print for people or as JSON (`explain`, `replay`, `stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Format {
    /// For people: a trace, a transcript, a table.
    Human,
    /// One JSON document.
    Json,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum ColorChoice {
    /// Colour a terminal, following `NO_COLOR` and `CLICOLOR_FORCE`.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The `--color` choice, set once at start.
pub(super) static COLOR: std::sync::OnceLock<ColorChoice> = std::sync::OnceLock::new();

/// Writes to stdout: a closed pipe ends quietly (see [`end_quietly_on_closed_pipes`]).
pub(super) fn print_bytes(bytes: &[u8]) -> u8 {
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
pub(super) fn end_quietly_on_closed_pipes() {
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
pub(super) fn color_stderr() -> bool {
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
pub(super) fn error(message: impl std::fmt::Display) {
    // An error may quote what it could not read (a path, an event's name): never a secret
    // value in it, by the shipped baseline's shapes.
    let message = message.to_string();
    eprintln!("error: {}", hookc_core::redact::apply(None, &message));
}

/// Opens `--audit-log FILE`, if given. The audit log is an observer: if it cannot be opened,
/// that is reported and the decision goes on unchanged.
pub(super) fn open_audit_log(
    path: Option<&std::path::Path>,
    policy_hash: &str,
) -> Option<std::sync::Arc<hookc_core::audit::AuditLog>> {
    let path = path?;
    match hookc_core::audit::AuditLog::open(path, policy_hash) {
        Ok(log) => Some(log),
        Err(io) => {
            eprintln!("hookc: warning: cannot open the audit log `{}`: {io}; not auditing", path.display());
            None
        }
    }
}

/// Flushes and closes an audit log, reporting (never propagating) a failure.
pub(super) fn close_audit_log(log: Option<std::sync::Arc<hookc_core::audit::AuditLog>>) {
    if let Some(Err(io)) = log.map(|log| log.close()) {
        eprintln!("hookc: warning: the audit log could not be written: {io}");
    }
}
