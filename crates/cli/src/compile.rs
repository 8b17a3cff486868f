//! `hookc compile`: check rule files, then write the bundle.

use super::report::exit;
use hookc_core::{LoadError, Policy};
use std::path::PathBuf;

/// Check rule files, then write the compiled bundle.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc compile rules/ -o policy.bundle\n  HOOKC_SIGNING_PASSWORD=… hookc compile rules/ -o policy.bundle --sign hookc.key"
)]
pub(super) struct Args {
    /// Rule files or directories.
    #[arg(default_value = "rules", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Where to write the bundle.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// The bundle's form: `binary` (read in place, each call paying only for the rules it can
    /// reach) or `json` (the language-neutral form, for other tools). hookc reads both.
    #[arg(long, value_enum, default_value_t = Format::Binary)]
    format: Format,
    /// Sign the bundle with this minisign secret key, writing `FILE.minisig` beside it (an
    /// encrypted key's password comes from `HOOKC_SIGNING_PASSWORD`, else the terminal).
    #[arg(long, value_name = "KEY")]
    sign: Option<PathBuf>,
}

/// The bundle forms `hookc compile` writes.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    Binary,
    Json,
}

/// Runs `hookc compile`.
pub(super) fn run(args: &Args) -> u8 {
    let policy = match Policy::from_paths(&args.paths) {
        Ok(policy) => policy,
        Err(LoadError::Invalid { rendered, diagnostics }) => {
            eprint!("{rendered}");
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            super::report::error(format_args!(
                "not compiled: the rules have {errors} error{}",
                super::input::plural(errors)
            ));
            return exit::FAILED;
        }
        Err(other) => {
            super::report::error(other);
            return exit::USAGE;
        }
    };
    let bundle = match args.format {
        Format::Binary => policy.to_bundle(),
        Format::Json => policy.to_bundle_json().into_bytes(),
    };
    // The signature is made first: a bundle is never left beside a stale signature. It covers
    // a binary bundle's header, which holds every block's digest (`docs/bundle.md`).
    let signature = match &args.sign {
        Some(key) => {
            let signed = hookc_core::bundle::signed_part(&bundle).unwrap_or(&bundle);
            match hookc_signing::sign(signed, key, &format!("hookc bundle {}", policy.source_hash())) {
                Ok(signature) => Some(signature),
                Err(message) => {
                    super::report::error(message);
                    return exit::USAGE;
                }
            }
        }
        None => None,
    };
    let signature_path = hookc_signing::signature_path(&args.output);
    let written = write_atomically(&args.output, &bundle).and_then(|()| match &signature {
        Some(signature) => std::fs::write(&signature_path, signature),
        // An old signature of another bundle would only confuse.
        None => match std::fs::remove_file(&signature_path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        },
    });
    if let Err(io) = written {
        super::report::error(format_args!("cannot write `{}`: {io}", args.output.display()));
        return exit::USAGE;
    }
    let rules = policy.len();
    let signed = match signature {
        Some(_) => format!(", signed: `{}`", signature_path.display()),
        None => String::new(),
    };
    eprintln!(
        "compiled {rules} rule{} to `{}` ({}{signed})",
        super::input::plural(rules),
        args.output.display(),
        policy.source_hash()
    );
    exit::OK
}

/// Writes `bytes` to `path` through a temporary file renamed into place, so a hook reading the
/// old bundle meanwhile keeps reading the old file whole, never a mix of the two.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => std::path::Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.persist(path).map(|_| ()).map_err(|error| error.error)
}
