//! `hookc compile`: check rule files, then write the bundle.

use super::report::exit;
use crate::{LoadError, Policy};
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
    /// Sign the bundle with this minisign secret key, writing `FILE.minisig` beside it (an
    /// encrypted key's password comes from `HOOKC_SIGNING_PASSWORD`, else the terminal).
    #[arg(long, value_name = "KEY")]
    sign: Option<PathBuf>,
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
    let bundle = policy.to_bundle();
    // The signature is made first: a bundle is never left beside a stale signature.
    let signature = match &args.sign {
        Some(key) => {
            match crate::signing::sign(bundle.as_bytes(), key, &format!("hookc bundle {}", policy.source_hash())) {
                Ok(signature) => Some(signature),
                Err(message) => {
                    super::report::error(message);
                    return exit::USAGE;
                }
            }
        }
        None => None,
    };
    let signature_path = crate::signing::signature_path(&args.output);
    let written = std::fs::write(&args.output, bundle).and_then(|()| match &signature {
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
