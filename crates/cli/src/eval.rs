//! `hookc eval`: one native event in, its HookResult out.

use super::input::EventArgs;
use super::report::exit;
use std::path::PathBuf;

/// Evaluate one native event (JSON) against the rules and print the HookResult (JSON).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  echo '{\"event\":\"pre_tool_use\",\"tool\":\"Bash\",\"args\":{\"command\":\"rm -rf /\"}}' | hookc eval --rules rules/\n  hookc eval --bundle policy.bundle --input event.json\n  hookc eval --rules rules/ --agent claude < payload.json    a payload Claude Code sent its hook"
)]
pub(super) struct Args {
    #[command(flatten)]
    event: EventArgs,
    /// Indent the JSON output.
    #[arg(long)]
    pretty: bool,
    /// Append one JSON line for the decision to this file.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<PathBuf>,
}

/// Runs `hookc eval`.
pub(super) fn run(args: &Args) -> u8 {
    let (policy, event) = match args.event.load() {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let audit = super::report::open_audit_log(args.audit_log.as_deref(), policy.source_hash());
    // The same bound as a hook call: compiling costly patterns stops after the budget.
    let outcome = policy.evaluate_full_bounded(&event);
    if let Some(log) = &audit {
        let error = outcome.as_ref().err().map(ToString::to_string);
        let outcome = outcome.as_ref().map_err(|_| error.as_deref().unwrap_or_default());
        log.record(&hookc_runtime::Observation::of_evaluation(&event, outcome).redacting(policy.redaction()));
    }
    super::report::close_audit_log(audit);
    let evaluation = match outcome {
        Ok(evaluation) => evaluation,
        Err(eval_error) => {
            super::report::error(eval_error);
            return exit::FAILED;
        }
    };
    for log in &evaluation.logs {
        match &log.message {
            Ok(message) => eprintln!("log: {}: {}", log.rule, hookc_core::model::escape_controls(message)),
            Err(reason) => {
                eprintln!("warning: log of rule `{}` failed: {}", log.rule, hookc_core::model::escape_controls(reason))
            }
        }
    }
    let json = if args.pretty {
        serde_json::to_string_pretty(&evaluation.result)
    } else {
        serde_json::to_string(&evaluation.result)
    };
    match json {
        Ok(json) => {
            println!("{json}");
            exit::OK
        }
        Err(json_error) => {
            super::report::error(json_error);
            exit::FAILED
        }
    }
}
