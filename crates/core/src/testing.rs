//! Rule tests: `*.test.yaml` files beside the rules, each a list of cases that name an event
//! and the parts of the HookResult they expect, plus rule coverage.
//!
//! ```yaml
//! - name: a write to a generated file is blocked
//!   event: {event: pre_tool_use, tool: Write, cwd: /repo, args: {file_path: /repo/Cargo.lock}}
//!   expect:
//!     blockingError: {code: hook_blocked}
//!     matched: [protect-generated]
//! ```
//!
//! `expect` is compared as a subset: only the fields given are checked, and an object compares
//! only the keys it gives (`blockingError: {code: …}` ignores the message); lists and plain values
//! compare whole. Absent result fields compare as their defaults (`permissionBehavior:
//! passthrough`, `matched: []`, `blockingError: null`), so a case can say that nothing happened.
//!
//! `matched_includes: [NAME, …]` instead of `matched` checks only that those rules fired, in any
//! order, among others: a case of a recipe then holds beside other rule sets (the baseline, a
//! team's rules) whose rules may fire too.
//!
//! To test size limits, a value `{$repeat: TEXT, times: N}` anywhere in `event` stands for TEXT
//! repeated N times (at most 64 MiB in all).

use crate::model::event::Event;
use crate::model::result::HookResult;
use crate::Policy;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One case of a test file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// What the case checks.
    pub name: String,
    /// The native event (as `hookc eval` reads it).
    pub event: Value,
    /// The parts of the HookResult expected.
    pub expect: Map<String, Value>,
}

/// One case's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseReport {
    /// The test file.
    pub file: PathBuf,
    /// The case's position in its file (from 1).
    pub index: usize,
    /// The case's name.
    pub name: String,
    /// Empty when the case passed; otherwise one line per difference or error.
    pub problems: Vec<String>,
}

/// The outcome of a whole test run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Every case, in file and case order.
    pub outcomes: Vec<CaseReport>,
    /// Test files that could not be read at all.
    pub file_errors: Vec<String>,
    /// The rules no case made fire: (name, origin).
    pub uncovered: Vec<(String, String)>,
    /// How many rules the set has.
    pub rule_count: usize,
}

impl Report {
    /// Cases that passed.
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|outcome| outcome.problems.is_empty()).count()
    }

    /// Cases that failed, plus unreadable files.
    pub fn failed(&self) -> usize {
        self.outcomes.len() - self.passed() + self.file_errors.len()
    }

    /// The share of rules some case made fire, in percent (100 for an empty rule set).
    pub fn coverage(&self) -> f64 {
        if self.rule_count == 0 {
            return 100.0;
        }
        #[expect(clippy::cast_precision_loss, reason = "rule counts are far below 2^52")]
        let share = (self.rule_count - self.uncovered.len()) as f64 / self.rule_count as f64;
        share * 100.0
    }
}

/// Every `*.test.yaml` below the paths (files given directly are taken only if they are test
/// files), sorted.
pub fn find_test_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, crate::source::ReadError> {
    let is_test = |path: &Path| path.to_string_lossy().ends_with(".test.yaml");
    let mut found = crate::source::find_files(paths, is_test)?;
    found.retain(|path| is_test(path));
    found.sort();
    Ok(found)
}

/// Runs every case of every file against the policy; with a filter, only the cases whose
/// name contains it.
pub fn run(policy: &Policy, files: &[PathBuf], filter: Option<&str>) -> Report {
    let rules = match policy.rules() {
        Ok(rules) => rules,
        Err(reason) => {
            return Report { file_errors: vec![format!("the rules cannot be read: {reason}")], ..Report::default() };
        }
    };
    let mut report = Report { rule_count: rules.len(), ..Report::default() };
    let rule_names: BTreeSet<&str> = rules.iter().map(|rule| rule.name.as_str()).collect();
    let mut fired: BTreeSet<String> = BTreeSet::new();
    for file in files {
        let cases = match std::fs::read_to_string(file)
            .map_err(|error| error.to_string())
            .and_then(|text| serde_yaml::from_str::<Vec<Case>>(&text).map_err(|error| error.to_string()))
        {
            Ok(cases) => cases,
            Err(error) => {
                report.file_errors.push(format!("{}: {error}", file.display()));
                continue;
            }
        };
        if cases.is_empty() {
            report.file_errors.push(format!("{}: the file has no cases", file.display()));
        }
        for (position, case) in cases.into_iter().enumerate() {
            if filter.is_some_and(|filter| !case.name.contains(filter)) {
                continue;
            }
            let (problems, matched) = run_case(policy, &case, &rule_names);
            fired.extend(matched);
            report.outcomes.push(CaseReport { file: file.clone(), index: position + 1, name: case.name, problems });
        }
    }
    report.uncovered = rules
        .iter()
        .filter(|rule| !fired.contains(&rule.name))
        .map(|rule| (rule.name.clone(), rule.origin.clone()))
        .collect();
    report
}

/// The fields a HookResult has, with the value each takes when absent.
fn defaults() -> Map<String, Value> {
    let defaults = json!({
        "permissionBehavior": "passthrough", "permissionReason": null, "blockingError": null,
        "updatedInput": null, "updatedOutput": null, "additionalContext": [],
        "preventContinuation": false, "stopReason": null, "forceContinue": null, "matched": []
    });
    match defaults {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// Runs one case: its problems (empty if it passed) and the rules that fired.
fn run_case(policy: &Policy, case: &Case, rule_names: &BTreeSet<&str>) -> (Vec<String>, Vec<String>) {
    let mut problems = Vec::new();
    let defaults = defaults();
    for key in case.expect.keys().filter(|key| !defaults.contains_key(*key) && *key != MATCHED_INCLUDES) {
        let known: Vec<&str> = defaults.keys().map(String::as_str).chain([MATCHED_INCLUDES]).collect();
        let hint = crate::diagnostic::did_you_mean(key, known)
            .map(|best| format!("; did you mean `{best}`?"))
            .unwrap_or_default();
        problems.push(format!("`expect` names `{key}`, which a HookResult does not have{hint}"));
    }
    for key in ["matched", MATCHED_INCLUDES] {
        if let Some(Value::Array(names)) = case.expect.get(key) {
            for name in names.iter().filter_map(Value::as_str).filter(|name| !rule_names.contains(name)) {
                problems.push(format!("`{key}` names the rule `{name}`, which the rule set does not have"));
            }
        }
    }
    if case.expect.contains_key("matched") && case.expect.contains_key(MATCHED_INCLUDES) {
        problems.push(format!("`expect` gives both `matched` and `{MATCHED_INCLUDES}`: give one"));
    }
    let event = match expand_repeats(&case.event)
        .and_then(|event| serde_json::to_vec(&event).map_err(|error| error.to_string()))
        .and_then(|bytes| Event::from_json(&bytes).map_err(|error| error.to_string()))
    {
        Ok(event) => event,
        Err(error) => {
            problems.push(format!("bad event: {error}"));
            return (problems, Vec::new());
        }
    };
    let result = match policy.evaluate(&event) {
        Ok(result) => result,
        Err(error) => {
            problems.push(format!("evaluation failed: {error}"));
            return (problems, Vec::new());
        }
    };
    let actual = full_result(&result, defaults);
    for (key, expected) in &case.expect {
        if let Some(actual) = actual.get(key) {
            compare(key, expected, actual, &mut problems);
        }
    }
    match case.expect.get(MATCHED_INCLUDES) {
        Some(Value::Array(names)) => {
            for name in names.iter().filter_map(Value::as_str) {
                if !result.matched.iter().any(|matched| matched == name) {
                    problems.push(format!(
                        "`{MATCHED_INCLUDES}`: the rule `{name}` did not fire (fired: {})",
                        if result.matched.is_empty() { "none".to_string() } else { result.matched.join(", ") }
                    ));
                }
            }
        }
        Some(_) => problems.push(format!("`{MATCHED_INCLUDES}` takes a list of rule names")),
        None => {}
    }
    (problems, result.matched)
}

/// The `expect` key that checks some rules fired, among any others.
const MATCHED_INCLUDES: &str = "matched_includes";

/// The largest text `$repeat` may make.
const MAX_REPEAT_BYTES: usize = 64 * 1024 * 1024;

/// Replaces every `{$repeat: TEXT, times: N}` by TEXT repeated N times.
fn expand_repeats(value: &Value) -> Result<Value, String> {
    Ok(match value {
        Value::Object(object) if object.contains_key("$repeat") => {
            let text = object.get("$repeat").and_then(Value::as_str).ok_or("`$repeat` takes a string")?;
            let times = object.get("times").and_then(Value::as_u64).ok_or("`$repeat` needs `times`, a whole number")?;
            if object.len() != 2 {
                return Err("`$repeat` takes only `times` beside it".to_string());
            }
            let times = usize::try_from(times).map_err(|_| "`times` is too large")?;
            if text.len().saturating_mul(times) > MAX_REPEAT_BYTES {
                return Err(format!("`$repeat` would make more than {MAX_REPEAT_BYTES} bytes"));
            }
            Value::String(text.repeat(times))
        }
        Value::Object(object) => {
            let mut expanded = Map::new();
            for (key, value) in object {
                expanded.insert(key.clone(), expand_repeats(value)?);
            }
            Value::Object(expanded)
        }
        Value::Array(items) => Value::Array(items.iter().map(expand_repeats).collect::<Result<_, _>>()?),
        other => other.clone(),
    })
}

/// The result as JSON with every field present.
fn full_result(result: &HookResult, mut defaults: Map<String, Value>) -> Map<String, Value> {
    if let Ok(Value::Object(given)) = serde_json::to_value(result) {
        defaults.extend(given);
    }
    defaults
}

/// Subset comparison: objects compare the keys expected, everything else compares whole.
fn compare(path: &str, expected: &Value, actual: &Value, problems: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(expected), Value::Object(actual)) => {
            for (key, value) in expected {
                let at = format!("{path}.{key}");
                match actual.get(key) {
                    Some(actual) => compare(&at, value, actual, problems),
                    None if value.is_null() => {}
                    None => problems.push(format!("{at}: expected {value}, got nothing")),
                }
            }
        }
        _ if expected == actual => {}
        _ => problems.push(format!("{path}: expected {expected}, got {actual}")),
    }
}
