//! `hookc fmt`: rewrite rule files in the canonical layout.

use super::exit;
use crate::source::{self, SourceMap};
use std::path::PathBuf;

/// Rewrite rule files in one canonical layout, keeping every comment.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Rule files or directories (searched for `*.rules`).
    #[arg(default_value = "rules", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Change nothing: list the files that would change, and exit 1 if any would.
    #[arg(long)]
    check: bool,
}

/// Runs `hookc fmt`.
pub(super) fn run(args: &Args) -> u8 {
    let sources = match source::read_rule_files(&args.paths) {
        Ok(sources) => sources,
        Err(read_error) => {
            super::error(read_error);
            return exit::USAGE;
        }
    };
    let mut failed = false;
    let mut changed = Vec::new();
    for (id, file) in sources.iter() {
        let formatted = match crate::fmt::format(id, file) {
            Ok(formatted) => formatted,
            Err(diagnostics) => {
                let mut single = SourceMap::default();
                let single_id = single.add(file.clone());
                let diagnostics: Vec<_> = diagnostics
                    .into_iter()
                    .map(|mut d| {
                        d.span.file = single_id;
                        d
                    })
                    .collect();
                eprint!("{}", crate::diagnostic::render(&diagnostics, &single, super::color_stderr()));
                super::error(format_args!("`{}` was not formatted: it has syntax errors", file.name()));
                failed = true;
                continue;
            }
        };
        if formatted == file.text {
            continue;
        }
        changed.push(file.name());
        if !args.check {
            if let Err(io) = std::fs::write(&file.path, &formatted) {
                super::error(format_args!("cannot write `{}`: {io}", file.name()));
                return exit::USAGE;
            }
        }
    }
    for name in &changed {
        if args.check {
            println!("would reformat {name}");
        } else {
            eprintln!("formatted {name}");
        }
    }
    if failed || (args.check && !changed.is_empty()) {
        exit::FAILED
    } else {
        exit::OK
    }
}
