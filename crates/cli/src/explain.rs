//! `hookc explain`: like `eval`, with every rule's condition trace.

use super::input::EventArgs;
use super::report::{exit, Format};

/// Evaluate one native event like `eval`, showing for every rule of the event which tests held,
/// on what values, and what decided the result.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  echo '{\"event\":\"pre_tool_use\",\"tool\":\"Write\",\"args\":{\"file_path\":\"Cargo.lock\"}}' | hookc explain --rules rules/\n  hookc explain --rules rules/ --agent gemini < payload.json"
)]
pub(super) struct Args {
    #[command(flatten)]
    event: EventArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// Runs `hookc explain`.
pub(super) fn run(args: &Args) -> u8 {
    let (policy, event) = match args.event.load() {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let explanation = match hookc_core::explain(&policy, &event) {
        Ok(explanation) => explanation,
        Err(error) => {
            super::report::error(error);
            return exit::FAILED;
        }
    };
    match args.format {
        Format::Human => println!("{explanation}"),
        Format::Json => match serde_json::to_string_pretty(&explanation) {
            Ok(json) => println!("{json}"),
            Err(error) => {
                super::report::error(error);
                return exit::FAILED;
            }
        },
    }
    exit::OK
}
