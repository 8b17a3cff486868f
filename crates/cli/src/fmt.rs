//! `hookc fmt`: rewrite rule files in the canonical layout.

use super::report::exit;
use hookc_core::source::{self, SourceFile, SourceMap};
use std::io::Read;
use std::path::PathBuf;

/// Rewrite rule files in one canonical layout, keeping every comment.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc fmt rules/            rewrite every *.rules file below rules/\n  hookc fmt --check rules/    list the files that would change (exit 1 if any)\n  hookc fmt --diff rules/     show the changes as a unified diff, changing nothing\n  hookc fmt - < a.rules       format standard input to standard output"
)]
pub(super) struct Args {
    /// Rule files or directories (searched for `*.rules`); `-` reads standard input and writes
    /// the formatted rules to standard output.
    #[arg(default_value = "rules", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Change nothing: list the files that would change, and exit 1 if any would.
    #[arg(long, conflicts_with = "diff")]
    check: bool,
    /// Change nothing: print the changes as a unified diff, and exit 1 if there are any.
    #[arg(long)]
    diff: bool,
}

/// Runs `hookc fmt`.
pub(super) fn run(args: &Args) -> u8 {
    if args.paths.iter().any(|path| path.as_os_str() == "-") {
        return stdin(args);
    }
    let sources = match source::read_rule_files(&args.paths) {
        Ok(sources) => sources,
        Err(read_error) => {
            super::report::error(read_error);
            return exit::USAGE;
        }
    };
    let mut failed = false;
    let mut changed = Vec::new();
    for (_, file) in sources.iter() {
        let Some(formatted) = format(file) else {
            failed = true;
            continue;
        };
        if formatted == file.text {
            continue;
        }
        changed.push(file.name());
        if args.diff {
            print!("{}", diff(file, &formatted));
        } else if !args.check {
            if let Err(io) = replace(&file.path, &formatted) {
                super::report::error(format_args!("cannot write `{}`: {io}", file.name()));
                return exit::USAGE;
            }
        }
    }
    for name in &changed {
        if args.check {
            println!("would reformat {name}");
        } else if !args.diff {
            eprintln!("formatted {name}");
        }
    }
    if failed || ((args.check || args.diff) && !changed.is_empty()) {
        exit::FAILED
    } else {
        exit::OK
    }
}

/// Replaces a rule file in one step (a new file renamed over it, with the old file's
/// permissions): a hook reading the rules meanwhile sees the old text or the new, never an empty
/// or half-written file that would let a call through.
fn replace(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let mut temporary = tempfile::Builder::new().prefix(".hookc-fmt-").tempfile_in(dir)?;
    temporary.write_all(text.as_bytes())?;
    temporary.as_file().set_permissions(std::fs::metadata(path)?.permissions())?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map(drop).map_err(|error| error.error)
}

/// `hookc fmt -`: standard input to standard output (with `--check` or `--diff`, as for files).
fn stdin(args: &Args) -> u8 {
    if args.paths.len() > 1 {
        super::report::error("`-` (standard input) cannot be given with other paths");
        return exit::USAGE;
    }
    let mut text = String::new();
    if let Err(io) = std::io::stdin().take(source::MAX_SOURCE_BYTES + 1).read_to_string(&mut text) {
        super::report::error(format_args!("cannot read standard input: {io}"));
        return exit::USAGE;
    }
    if text.len() as u64 > source::MAX_SOURCE_BYTES {
        super::report::error(format_args!("standard input is larger than the {}-byte limit", source::MAX_SOURCE_BYTES));
        return exit::USAGE;
    }
    let file = SourceFile::new("<stdin>", text);
    let Some(formatted) = format(&file) else { return exit::FAILED };
    let changed = formatted != file.text;
    if args.diff {
        print!("{}", diff(&file, &formatted));
    } else if args.check {
        if changed {
            println!("would reformat <stdin>");
        }
    } else {
        print!("{formatted}");
    }
    if changed && (args.check || args.diff) {
        exit::FAILED
    } else {
        exit::OK
    }
}

/// The file formatted, or `None` after reporting its syntax errors.
fn format(file: &SourceFile) -> Option<String> {
    let mut single = SourceMap::default();
    let id = single.add(file.clone());
    match hookc_core::format(id, file) {
        Ok(formatted) => Some(formatted),
        Err(diagnostics) => {
            eprint!("{}", hookc_core::diagnostic::render(&diagnostics, &single, super::report::color_stderr()));
            super::report::error(format_args!("`{}` was not formatted: it has syntax errors", file.name()));
            None
        }
    }
}

fn diff(file: &SourceFile, formatted: &str) -> String {
    let name = file.name();
    similar::TextDiff::from_lines(file.text.as_str(), formatted).unified_diff().header(&name, &name).to_string()
}
