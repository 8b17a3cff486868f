//! `hookc check`: parse and lint rule files.

use super::input::plural;
use super::report::exit;
use hookc_core::diagnostic::{self, Diagnostic};
use hookc_core::source;
use std::path::PathBuf;

/// Parse and lint rule files, reporting every problem rustc-style.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc check rules/                       lint every *.rules file below rules/\n  hookc check rules/ --agent codex         also warn where a rule behaves differently on Codex\n  hookc check rules/ --format sarif > hookc.sarif\n  hookc check --explain E0204              what a diagnostic means and how to fix it"
)]
pub(super) struct Args {
    /// Rule files or directories (searched for `*.rules`).
    #[arg(default_value = "rules", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Treat warnings as errors (exit 1 when there are any).
    #[arg(long)]
    deny_warnings: bool,
    /// Also warn where the rules will not do what they say on this agent (W0311): an event
    /// hookc does not answer it at, an answer it does not honour. Repeat for several agents.
    #[arg(long, value_parser = super::input::agent_arg, value_name = "AGENT")]
    agent: Vec<&'static hookc_core::vocab::agents::Agent>,
    /// Print the documentation of a diagnostic code (`E0101`, `W0301`, …), or `all`, and exit.
    #[arg(long, value_name = "CODE")]
    explain: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// rustc-style diagnostics on stderr.
    Human,
    /// A JSON array of diagnostics on stdout.
    Json,
    /// SARIF 2.1.0 on stdout (GitHub code scanning).
    Sarif,
}

/// Runs `hookc check`.
pub(super) fn run(args: &Args) -> u8 {
    if let Some(code) = &args.explain {
        return explain(code);
    }
    let sources = match source::read_rule_files(&args.paths) {
        Ok(sources) => sources,
        Err(read_error) => {
            super::report::error(read_error);
            return exit::USAGE;
        }
    };
    let (mut diagnostics, rules) = match hookc_core::check_sources_for(&sources, &args.agent) {
        Ok(checked) => (checked.warnings, checked.rules.len()),
        Err(diagnostics) => (diagnostics, 0),
    };
    if args.deny_warnings {
        for diagnostic in &mut diagnostics {
            diagnostic.severity = hookc_core::diagnostic::Severity::Error;
        }
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    match args.format {
        Format::Json | Format::Sarif => {
            let json = match args.format {
                Format::Json => {
                    serde_json::to_value(diagnostics.iter().map(|d| d.to_json(&sources)).collect::<Vec<_>>())
                }
                _ => Ok(hookc_core::diagnostic::sarif::log(&diagnostics, &sources)),
            };
            match json.and_then(|json| serde_json::to_string_pretty(&json)) {
                Ok(text) => println!("{text}"),
                Err(json_error) => {
                    super::report::error(json_error);
                    return exit::FAILED;
                }
            }
        }
        Format::Human => {
            eprint!("{}", diagnostic::render(&diagnostics, &sources, super::report::color_stderr()));
            eprintln!("{}", summary(&diagnostics, sources.len(), rules, errors, warnings));
            if errors == 0 {
                // The identity the audit log and a compiled bundle record for these rules.
                eprintln!("policy {}", hookc_core::bundle::source_hash(&sources));
            }
        }
    }
    if errors > 0 {
        exit::FAILED
    } else {
        exit::OK
    }
}

fn summary(diagnostics: &[Diagnostic], files: usize, rules: usize, errors: usize, warnings: usize) -> String {
    let files_text = format!("{files} file{}", plural(files));
    if diagnostics.is_empty() {
        return format!("checked {files_text}: {rules} rule{}, no problems", plural(rules));
    }
    if errors == 0 {
        return format!("checked {files_text}: {rules} rule{}, {warnings} warning{}", plural(rules), plural(warnings));
    }
    format!("error: {files_text} checked: {errors} error{}, {warnings} warning{}", plural(errors), plural(warnings))
}

/// `--explain CODE`: the code's documentation.
fn explain(name: &str) -> u8 {
    if name.eq_ignore_ascii_case("all") {
        print!("{}", hookc_core::diagnostic::all_docs());
        return exit::OK;
    }
    match hookc_core::diagnostic::Code::from_name(name) {
        Some(code) => {
            print!("{}", code.explain());
            exit::OK
        }
        None => {
            let codes: Vec<&str> = hookc_core::diagnostic::Code::ALL.iter().map(|code| code.as_str()).collect();
            super::report::error(format_args!("no diagnostic code `{name}`; the codes are {}", codes.join(", ")));
            exit::USAGE
        }
    }
}
