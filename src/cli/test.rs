//! `hookc test`: run the `*.test.yaml` cases beside the rules, with rule coverage.

use super::exit;
use crate::testing;
use crate::{LoadError, Policy};
use std::path::PathBuf;

/// Run the rule tests (`*.test.yaml` beside the rules) and report rule coverage.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Rule directories or files; their `*.rules` form the rule set and their `*.test.yaml` the tests.
    #[arg(default_value = "rules", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Fail when fewer than this percentage of the rules fire in some case.
    #[arg(long, value_name = "PCT", value_parser = percentage)]
    min_coverage: Option<f64>,
}

fn percentage(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(value) if (0.0..=100.0).contains(&value) => Ok(value),
        _ => Err(format!("`{text}` is not a percentage from 0 to 100")),
    }
}

/// Runs `hookc test`.
pub(super) fn run(args: &Args) -> u8 {
    let policy = match Policy::from_paths(&args.paths) {
        Ok(policy) => policy,
        Err(LoadError::Invalid { rendered, .. }) => {
            eprint!("{rendered}");
            super::error("the rules have errors; fix them before testing (`hookc check`)");
            return exit::FAILED;
        }
        Err(other) => {
            super::error(other);
            return exit::USAGE;
        }
    };
    let files = match testing::find_test_files(&args.paths) {
        Ok(files) if files.is_empty() => {
            super::error("no `*.test.yaml` files found beside the rules");
            return exit::USAGE;
        }
        Ok(files) => files,
        Err(error) => {
            super::error(format_args!("cannot list the test files: {error}"));
            return exit::USAGE;
        }
    };
    let report = testing::run(&policy, &files);
    for error in &report.file_errors {
        println!("ERROR {error}");
    }
    for outcome in report.outcomes.iter().filter(|outcome| !outcome.problems.is_empty()) {
        println!("FAIL {} #{} {}", outcome.file.display(), outcome.index, outcome.name);
        for problem in &outcome.problems {
            println!("    {problem}");
        }
    }
    let covered = report.rule_count - report.uncovered.len();
    println!("coverage: {covered} of {} rules fired in some case ({:.1}%)", report.rule_count, report.coverage());
    for (name, origin) in &report.uncovered {
        println!("    never fired: {name} ({origin})");
    }
    let below = args.min_coverage.filter(|minimum| report.coverage() + 1e-9 < *minimum);
    if let Some(minimum) = below {
        println!("coverage {:.1}% is below the required {minimum}%", report.coverage());
    }
    println!("{} passed, {} failed", report.passed(), report.failed());
    if report.failed() > 0 || below.is_some() {
        exit::FAILED
    } else {
        exit::OK
    }
}
