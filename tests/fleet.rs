//! `docs/fleet.md`: the audit record's schema and the OpenTelemetry Collector configuration that
//! ships it, held to what hookc really writes.

use crate::support::{hookc_with_env, stderr};
use serde_json::Value;
use std::path::Path;

fn doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/fleet.md")).unwrap()
}

/// Real records: an `ask` Codex cannot take, a denied shell call with a `log`, a Stop, one the
/// policy could not decide, a call of a tool no table knows (which a rule in audit mode would
/// have asked about), a call to an MCP server no table knows, a write of a file in the project
/// (with the agent's version), a Stop whose continuation is dropped, and a call whose policy
/// could not be loaded.
fn records() -> Vec<serde_json::Map<String, Value>> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.rules"),
        "rule no-rm pre_tool_use when command matches /rm -rf/ => deny \"destructive: {command}\", log \"saw {command}\"\n\
\
         stop => log \"stopped\"\n\
         rule push pre_tool_use when command contains \"push --force\" => ask \"force push\"\n\
         rule again stop when stop_hook_active => continue \"once more\"\n\
         rule fancy pre_tool_use when tool == FancyWrite => ask \"an unknown tool\"\n\
         audit fancy \"rolling out\"\n",
    )
    .unwrap();
    let log = dir.path().join("audit.jsonl");
    // The user as the environment names it (CI may set no `USER`).
    let env: std::collections::BTreeMap<String, String> = [("USER".to_string(), "dev".to_string())].into();
    let hookc = |dir: &Path, args: &[&str], stdin: &[u8]| hookc_with_env(dir, args, stdin, &env);
    // A command line too large to judge: the policy cannot decide.
    let huge = format!(
        r#"{{"session_id":"s-1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"{}"}}}}"#,
        "true;".repeat(600)
    );
    let codex = r#"{"session_id":"s-1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force"}}"#;
    let output = hookc(
        dir.path(),
        &["hook", "codex", "--rules", "p.rules", "--audit-log", log.to_str().unwrap()],
        codex.as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for payload in [
        r#"{"session_id":"s-1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#,
        r#"{"session_id":"s-1","cwd":"/repo","hook_event_name":"Stop","stop_hook_active":false}"#,
        &huge,
        r#"{"session_id":"s-1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"FancyWrite","tool_input":{}}"#,
        r#"{"session_id":"s-1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"mcp__acme__sync","tool_input":{}}"#,
        r#"{"session_id":"s-1","cwd":"/repo","version":"2.1.197","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/repo/.env","content":"x"}}"#,
        r#"{"session_id":"s-1","cwd":"/repo","hook_event_name":"Stop","stop_hook_active":true}"#,
    ] {
        let output = hookc(
            dir.path(),
            &["claude", "--rules", "p.rules", "--audit-log", log.to_str().unwrap()],
            payload.as_bytes(),
        );
        assert!(matches!(output.status.code(), Some(0 | 2)), "{}", stderr(&output));
    }
    // A policy that cannot be loaded: the record still names what the call would have done.
    let edit = r#"{"session_id":"s-1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"src/app.ts","old_string":"a","new_string":"b"}}"#;
    let output = hookc(
        dir.path(),
        &["claude", "--rules", "missing.rules", "--audit-log", log.to_str().unwrap()],
        edit.as_bytes(),
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|line| match serde_json::from_str(line).unwrap() {
            Value::Object(record) => record,
            other => panic!("not an object: {other}"),
        })
        .collect()
}

/// The field names of the schema table.
fn schema_fields(doc: &str) -> Vec<String> {
    let table = doc.split("### Schema").nth(1).unwrap().split("###").next().unwrap();
    table
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .map(|line| line.split('`').next().unwrap().to_string())
        .collect()
}

#[test]
fn every_field_written_is_in_the_schema_and_every_schema_field_is_written() {
    let records = records();
    assert_eq!(records.len(), 9);
    assert_eq!(records[5]["unknown_server"], true);
    let schema = schema_fields(&doc());
    let mut seen = std::collections::BTreeSet::new();
    for record in &records {
        for key in record.keys() {
            assert!(schema.contains(key), "`{key}` is written but not in docs/fleet.md's schema");
            seen.insert(key.clone());
        }
    }
    for field in &schema {
        assert!(seen.contains(field), "`{field}` is in the schema but no record wrote it: {records:?}");
    }
    assert_eq!(records[0]["decision"], "ask");
    assert!(records[0]["taken_as"].as_str().unwrap().starts_with("instead: deny"), "{:?}", records[0]);
    assert_eq!(records[1]["decision"], "deny");
    assert_eq!(records[1].get("taken_as"), None);
    assert_eq!(records[1]["logs"], serde_json::json!([{"rule": "no-rm", "message": "saw rm -rf /"}]));
    assert_eq!(records[3]["decision"], "error");
    // A rule in audit mode: nothing decided, and what it would have decided recorded.
    assert_eq!(records[4]["decision"], "none");
    assert_eq!(
        records[4]["waived"],
        serde_json::json!([{"rule": "fancy", "waiver": "p.rules:6:1", "reason": "rolling out", "would": {"decision": "ask", "reason": "an unknown tool"}}])
    );
    assert!(records[4]["reason"].as_str().unwrap().contains("audit mode"), "{:?}", records[4]);
    assert!(records[3]["error"].as_str().unwrap().contains("does not judge a line that large"), "{:?}", records[3]);
    // Who, where and which hookc, on every record; the agent's version where it says.
    for record in &records {
        assert_eq!(record["hookc_version"], env!("CARGO_PKG_VERSION"));
        assert!(record["hookc_path"].as_str().is_some_and(|path| path.ends_with("hookc")), "{record:?}");
        assert!(record.contains_key("host") && record.contains_key("uid"), "{record:?}");
        assert_eq!(record["user"], "dev");
    }
    let write = &records[6];
    assert_eq!((write["target"].as_str(), write["target_relative"].as_str()), (Some("/repo/.env"), Some(".env")));
    assert_eq!(write["agent_version"], "2.1.197");
    assert_eq!(write["decision"], "none");
    assert_eq!(write["reason"], "no rule matched");
    assert_eq!(records[2]["reason"], "the rules that fired decide nothing at this event (`log` only)");
    let dropped = &records[7];
    assert_eq!(dropped["decision"], "none");
    assert!(dropped["reason"].as_str().unwrap().contains("already did (`stop_hook_active`)"), "{dropped:?}");
    let failed = &records[8];
    assert_eq!(failed["decision"], "error");
    assert_eq!(failed["policy"], "unavailable");
    assert_eq!(
        (failed["target"].as_str(), failed["target_relative"].as_str()),
        (Some("/repo/src/app.ts"), Some("src/app.ts"))
    );
}

/// A `strptime` layout as a regular expression over what it accepts.
fn layout_regex(layout: &str) -> regex::Regex {
    let mut pattern = String::from("^");
    let mut chars = layout.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            pattern.push_str(&regex::escape(&c.to_string()));
            continue;
        }
        pattern.push_str(match chars.next() {
            Some('Y') => r"\d{4}",
            Some('m' | 'd' | 'H' | 'M' | 'S') => r"\d{2}",
            Some('L') => r"\d{3}",
            other => panic!("layout directive %{other:?} not understood here"),
        });
    }
    pattern.push('$');
    regex::Regex::new(&pattern).unwrap()
}

#[test]
fn the_collector_configuration_maps_a_real_record() {
    let doc = doc();
    let yaml =
        doc.split("```yaml\n").find(|block| block.contains("filelog/hookc")).unwrap().split("```").next().unwrap();
    let config: Value = serde_yaml::from_str(yaml).unwrap();
    let operators = config["receivers"]["filelog/hookc"]["operators"].as_array().unwrap();
    let field = |path: &Value| path.as_str().unwrap().strip_prefix("attributes.").unwrap().to_string();
    let records = records();
    let decided = &records[1];

    let parser = operators.iter().find(|operator| operator["type"] == "json_parser").unwrap();
    assert_eq!((parser["parse_from"].as_str(), parser["parse_to"].as_str()), (Some("body"), Some("attributes")));
    let time = decided[&field(&parser["timestamp"]["parse_from"])].as_str().unwrap();
    let layout = parser["timestamp"]["layout"].as_str().unwrap();
    assert!(layout_regex(layout).is_match(time), "`{time}` does not parse with `{layout}`");

    let severity = &parser["severity"];
    assert!(decided.contains_key(&field(&severity["parse_from"])));
    let mapped: Vec<&str> = severity["mapping"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|value| match value {
            Value::Array(words) => words.iter().filter_map(Value::as_str).collect(),
            word => vec![word.as_str().unwrap()],
        })
        .collect();
    for decision in ["block", "deny", "ask", "allow", "rewrite", "stop", "continue", "context", "none", "error"] {
        assert!(mapped.contains(&decision), "decision `{decision}` has no severity");
        assert!(doc.contains(&format!("`{decision}`")), "decision `{decision}` is not in the schema");
    }

    let schema = schema_fields(&doc);
    for operator in operators.iter().filter(|operator| operator["type"] == "move") {
        let from = field(&operator["from"]);
        assert!(schema.contains(&from), "moves `{from}`, which is not in the schema");
        if operator.get("if").is_none() {
            for record in &records {
                assert!(
                    record.contains_key(&from),
                    "moves `{from}` unconditionally, but a record lacks it: {record:?}"
                );
            }
        }
    }
}
