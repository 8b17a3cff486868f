//! `hookc test`: run the `*.test.yaml` cases beside the rules, with rule coverage.

use super::report::exit;
use hookc_core::testing;
use hookc_core::{LoadError, Policy};
use std::path::PathBuf;

/// Run the rule tests (`*.test.yaml` beside the rules) and report rule coverage.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc test rules/                         every *.test.yaml below rules/\n  hookc test rules/ --min-coverage 100      fail if a rule never fires\n  hookc test rules/ --filter secrets -v     only the cases named with `secrets`, each named\n  hookc test rules/ --format junit > report.xml"
)]
pub(super) struct Args {
    /// Rule directories or files; their `*.rules` form the rule set and their `*.test.yaml` the tests.
    #[arg(default_value = "rules", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Fail when fewer than this percentage of the rules fire in some case.
    #[arg(long, value_name = "PCT", value_parser = percentage)]
    min_coverage: Option<f64>,
    /// Run only the cases whose name contains this text (coverage then counts those cases).
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Name every case run, passed or not.
    #[arg(short, long)]
    verbose: bool,
    /// How to print the results: `text`, `json` (one document) or `junit` (XML for CI).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// For people.
    Text,
    /// One JSON document.
    Json,
    /// JUnit XML, a test suite per test file.
    Junit,
}

fn percentage(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(value) if (0.0..=100.0).contains(&value) => Ok(value),
        _ => Err(format!("`{text}` is not a percentage from 0 to 100")),
    }
}

/// Runs `hookc test`.
pub(super) fn run(args: &Args) -> u8 {
    // A test file given by name is a test file, not rules; a rule file given by name brings the
    // test file beside it (`a.rules` → `a.test.yaml`).
    let is_test = |path: &PathBuf| path.to_string_lossy().ends_with(".test.yaml");
    let rule_paths: Vec<PathBuf> = args.paths.iter().filter(|path| !is_test(path)).cloned().collect();
    let mut test_paths = args.paths.clone();
    test_paths.extend(
        rule_paths
            .iter()
            .filter(|path| path.extension().is_some_and(|ext| ext == "rules"))
            .map(|path| path.with_extension("test.yaml"))
            .filter(|beside| beside.is_file()),
    );
    if rule_paths.is_empty() {
        super::report::error(
            "no rules given: name the rule files or directories too (`hookc test a.rules a.test.yaml`)",
        );
        return exit::USAGE;
    }
    let policy = match Policy::from_paths(&rule_paths).map(Policy::without_own_files) {
        Ok(policy) => policy,
        Err(LoadError::Invalid { rendered, .. }) => {
            eprint!("{rendered}");
            super::report::error("the rules have errors; fix them before testing (`hookc check`)");
            return exit::FAILED;
        }
        Err(other) => {
            super::report::error(other);
            return exit::USAGE;
        }
    };
    let files = match testing::find_test_files(&test_paths) {
        Ok(files) if files.is_empty() => {
            super::report::error("no `*.test.yaml` files found beside the rules");
            return exit::USAGE;
        }
        Ok(files) => files,
        Err(error) => {
            super::report::error(format_args!("cannot list the test files: {error}"));
            return exit::USAGE;
        }
    };
    let report = testing::run(&policy, &files, args.filter.as_deref());
    if let (Some(filter), true) = (&args.filter, report.outcomes.is_empty()) {
        super::report::error(format_args!("no case's name contains `{filter}`"));
        return exit::FAILED;
    }
    let below = args.min_coverage.filter(|minimum| report.coverage() + 1e-9 < *minimum);
    match args.format {
        Format::Text => print!("{}", text(&report, args.verbose, below)),
        Format::Json => println!("{}", json(&report, below)),
        Format::Junit => print!("{}", junit(&report)),
    }
    if report.failed() > 0 || below.is_some() {
        exit::FAILED
    } else {
        exit::OK
    }
}

fn text(report: &testing::Report, verbose: bool, below: Option<f64>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for error in &report.file_errors {
        let _ = writeln!(out, "ERROR {error}");
    }
    for outcome in &report.outcomes {
        if outcome.problems.is_empty() {
            if verbose {
                let _ = writeln!(out, "ok   {} #{} {}", outcome.file.display(), outcome.index, outcome.name);
            }
            continue;
        }
        let _ = writeln!(out, "FAIL {} #{} {}", outcome.file.display(), outcome.index, outcome.name);
        for problem in &outcome.problems {
            let _ = writeln!(out, "    {problem}");
        }
    }
    let covered = report.rule_count - report.uncovered.len();
    let _ = writeln!(
        out,
        "coverage: {covered} of {} rules fired in some case ({:.1}%)",
        report.rule_count,
        report.coverage()
    );
    for (name, origin) in &report.uncovered {
        let _ = writeln!(out, "    never fired: {name} ({origin})");
    }
    if let Some(minimum) = below {
        let _ = writeln!(out, "coverage {:.1}% is below the required {minimum}%", report.coverage());
    }
    let _ = writeln!(out, "{} passed, {} failed", report.passed(), report.failed());
    out
}

fn json(report: &testing::Report, below: Option<f64>) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = report
        .outcomes
        .iter()
        .map(|outcome| {
            serde_json::json!({
                "file": outcome.file.display().to_string(),
                "index": outcome.index,
                "name": outcome.name,
                "passed": outcome.problems.is_empty(),
                "problems": outcome.problems,
            })
        })
        .collect();
    let uncovered: Vec<serde_json::Value> =
        report.uncovered.iter().map(|(rule, origin)| serde_json::json!({"rule": rule, "origin": origin})).collect();
    serde_json::json!({
        "cases": cases,
        "file_errors": report.file_errors,
        "coverage": {
            "rules": report.rule_count,
            "fired": report.rule_count - report.uncovered.len(),
            "percent": report.coverage(),
            "never_fired": uncovered,
            "below_minimum": below,
        },
        "passed": report.passed(),
        "failed": report.failed(),
    })
}

/// JUnit XML: a `<testsuite>` per test file, a `<testcase>` per case, `<failure>` with its
/// problems; unreadable files are suites with one failing case.
fn junit(report: &testing::Report) -> String {
    use std::fmt::Write;
    let mut suites: Vec<(String, Vec<&testing::CaseReport>)> = Vec::new();
    for outcome in &report.outcomes {
        let file = outcome.file.display().to_string();
        match suites.iter_mut().find(|(name, _)| *name == file) {
            Some((_, cases)) => cases.push(outcome),
            None => suites.push((file, vec![outcome])),
        }
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"hookc test\" tests=\"{}\" failures=\"{}\">",
        report.outcomes.len() + report.file_errors.len(),
        report.failed()
    );
    for (file, cases) in &suites {
        let failures = cases.iter().filter(|case| !case.problems.is_empty()).count();
        let _ = writeln!(out, "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\">", xml(file), cases.len());
        for case in cases {
            let name = format!("#{} {}", case.index, case.name);
            let _ = write!(out, "    <testcase classname=\"{}\" name=\"{}\"", xml(file), xml(&name));
            if case.problems.is_empty() {
                out.push_str("/>\n");
            } else {
                let text = case.problems.join("\n");
                let first = case.problems.first().map_or("", String::as_str);
                let _ = writeln!(
                    out,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
                    xml(first),
                    xml(&text)
                );
            }
        }
        out.push_str("  </testsuite>\n");
    }
    for error in &report.file_errors {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{0}\" tests=\"1\" failures=\"1\">\n    <testcase classname=\"hookc\" name=\"{0}\">\n      <failure message=\"{0}\"/>\n    </testcase>\n  </testsuite>",
            xml(error)
        );
    }
    out.push_str("</testsuites>\n");
    out
}

/// Text as XML attribute or element content. Characters XML 1.0 cannot hold at all (most
/// control characters) become U+FFFD.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}
