//! `hookc compile`: check rule files, then write the bundle.

use super::exit;
use crate::{LoadError, Policy};
use std::path::PathBuf;

/// Check rule files, then write the compiled bundle.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Rule files or directories.
    #[arg(default_value = "rules", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Where to write the bundle.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

/// Runs `hookc compile`.
pub(super) fn run(args: &Args) -> u8 {
    let policy = match Policy::from_paths(&args.paths) {
        Ok(policy) => policy,
        Err(LoadError::Invalid { rendered, diagnostics }) => {
            eprint!("{rendered}");
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            super::error(format_args!("not compiled: the rules have {errors} error{}", super::input::plural(errors)));
            return exit::FAILED;
        }
        Err(other) => {
            super::error(other);
            return exit::USAGE;
        }
    };
    if let Err(io) = std::fs::write(&args.output, policy.to_bundle()) {
        super::error(format_args!("cannot write `{}`: {io}", args.output.display()));
        return exit::USAGE;
    }
    let rules = policy.table().len();
    eprintln!(
        "compiled {rules} rule{} to `{}` ({})",
        super::input::plural(rules),
        args.output.display(),
        policy.source_hash()
    );
    exit::OK
}
