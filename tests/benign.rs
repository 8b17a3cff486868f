//! The benign corpus (`tests/corpus/benign/`): ordinary one-liners and short scripts from public
//! documentation and READMEs, each file a language (`network.yaml`: issue 36's classes), each
//! entry its source and licence. Each file was committed before the readers or rules it tests
//! were tuned, so that nothing here is fitted to them. The baseline denies none of them and asks about no more than 1% of any language;
//! the read-only service commands stay allowed with every pack on.

use hookc::{Event, Permission, Policy};
use serde::Deserialize;
use std::path::Path;
use std::sync::OnceLock;

#[derive(Deserialize)]
struct Entry {
    line: String,
    source: String,
    licence: String,
}

fn policy(with_packs: bool) -> &'static Policy {
    static BASELINE: OnceLock<Policy> = OnceLock::new();
    static EVERY_PACK: OnceLock<Policy> = OnceLock::new();
    let root = env!("CARGO_MANIFEST_DIR");
    match with_packs {
        false => BASELINE.get_or_init(|| Policy::from_paths(&[format!("{root}/rules")]).unwrap().without_own_files()),
        true => EVERY_PACK.get_or_init(|| {
            Policy::from_paths(&[format!("{root}/rules"), format!("{root}/packs")]).unwrap().without_own_files()
        }),
    }
}

/// The corpus of one language.
fn corpus(name: &str) -> Vec<Entry> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/benign").join(format!("{name}.yaml"));
    let entries: Vec<Entry> = serde_yaml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for entry in &entries {
        assert!(entry.source.starts_with("https://"), "{name}: {} has no source", entry.line);
        assert!(!entry.licence.trim().is_empty(), "{name}: {} has no licence", entry.line);
    }
    entries
}

/// What the policy answers to `line` sent to Claude Code's shell tool (or its PowerShell tool).
fn decide(line: &str, powershell: bool, with_packs: bool) -> (Permission, Vec<String>) {
    let tool = if powershell { "PowerShell" } else { "Bash" };
    let event = serde_json::json!({
        "event": "pre_tool_use", "tool": tool, "cwd": "/repo", "project_root": "/repo", "args": {"command": line}
    });
    let event = Event::from_json(event.to_string().as_bytes()).unwrap();
    let result = policy(with_packs).evaluate(&event).unwrap();
    (result.permission_behavior, result.matched)
}

/// Every entry of `name`: none denied, and at most 1% asked.
fn holds(name: &str, powershell: bool, with_packs: bool) {
    let entries = corpus(name);
    assert!(entries.len() >= 50, "{name}: {} entries", entries.len());
    let mut asked = Vec::new();
    for entry in &entries {
        let (permission, matched) = decide(&entry.line, powershell, with_packs);
        match permission {
            Permission::Deny => panic!("{name}: denied ({matched:?}): {}", entry.line),
            Permission::Ask => asked.push(format!("{matched:?}: {}", entry.line)),
            _ => {}
        }
    }
    // At most 1%: with fewer than 100 entries, none.
    assert!(
        asked.len() * 100 <= entries.len(),
        "{name}: {} of {} asked:\n{}",
        asked.len(),
        entries.len(),
        asked.join("\n")
    );
}

/// Issue 36's classes: docs and API fetches, registry installs and publishes, local health checks,
/// the environment in builds, tool paths in the project or the toolchain, remotes in use.
#[test]
fn network_environment_and_paths_stay_allowed() {
    holds("network", false, false);
}

#[test]
fn python_stays_allowed() {
    holds("python", false, false);
}

#[test]
fn node_stays_allowed() {
    holds("node", false, false);
}

#[test]
fn perl_stays_allowed() {
    holds("perl", false, false);
}

#[test]
fn ruby_stays_allowed() {
    holds("ruby", false, false);
}

#[test]
fn awk_stays_allowed() {
    holds("awk", false, false);
}

#[test]
fn powershell_stays_allowed() {
    holds("pwsh", true, false);
}

#[test]
fn sql_stays_allowed() {
    holds("sql", false, false);
}

/// Read-only service commands (`kubectl get`, `aws s3 ls`, `terraform plan`): with every pack
/// on, not one asks.
#[test]
fn read_only_services_stay_allowed_with_every_pack() {
    let entries = corpus("services");
    let asked: Vec<String> = entries
        .iter()
        .filter_map(|entry| {
            let (permission, matched) = decide(&entry.line, false, true);
            (permission != Permission::Allow && permission != Permission::Passthrough)
                .then(|| format!("{permission:?} {matched:?}: {}", entry.line))
        })
        .collect();
    assert!(asked.is_empty(), "{} of {} asked or denied:\n{}", asked.len(), entries.len(), asked.join("\n"));
}
