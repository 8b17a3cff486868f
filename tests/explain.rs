//! `explain`: traces snapshotted for a few events, and the same result as `eval` everywhere.

use crate::support::{fixtures, hookc, stdout};
use hookc::{Event, Policy};

fn policy() -> Policy {
    Policy::from_paths(&[fixtures("explain").join("policy.rules")]).unwrap().without_own_files()
}

fn explain(json: &str) -> String {
    let event = Event::from_json(json.as_bytes()).unwrap();
    let text = hookc::explain(&policy(), &event).unwrap().to_string();
    // Origins carry the machine's path to the fixture; keep snapshots portable.
    text.replace(&fixtures("explain").display().to_string(), "FIXTURES")
}

#[test]
fn a_rewrite_chain_and_the_permission_it_leads_to() {
    insta::assert_snapshot!(explain(r#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"make deploy prod"}}"#));
}

#[test]
fn a_block_stops_evaluation() {
    insta::assert_snapshot!(explain(r#"{"event":"pre_tool_use","tool":"Read","args":{"path":"app/.env"}}"#));
}

#[test]
fn missing_fields_are_shown_as_missing() {
    insta::assert_snapshot!(explain(r#"{"event":"pre_tool_use","tool":"Glob","args":{"pattern":"*.rs"}}"#));
}

/// Every event of the evaluation table, against the shipped rules and the explain fixture:
/// explaining gives exactly the result evaluating does.
#[test]
fn explain_gives_the_same_result_as_eval() {
    let policies = [
        Policy::from_paths(&[std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")])
            .unwrap()
            .without_own_files(),
        policy(),
    ];
    let mut compared = 0;
    for file in crate::support::fixture_files("eval", "yaml") {
        let groups: Vec<serde_yaml::Value> = serde_yaml::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let events = groups.iter().flat_map(|group| {
            let single = group.get("event").cloned();
            let many = group.get("cases").and_then(|cases| cases.as_sequence().cloned()).unwrap_or_default();
            single.into_iter().chain(many.into_iter().filter_map(|case| case.get("event").cloned()))
        });
        for event in events {
            let json = serde_json::to_vec(&serde_json::to_value(&event).unwrap()).unwrap();
            let event = Event::from_json(&json).unwrap();
            for policy in &policies {
                let evaluated = policy.evaluate(&event).map_err(|error| error.to_string());
                let explained = hookc::explain(policy, &event)
                    .map(|explanation| explanation.result)
                    .map_err(|error| error.to_string());
                assert_eq!(explained, evaluated, "{}", String::from_utf8_lossy(&json));
                compared += 1;
            }
        }
    }
    assert!(compared >= 150, "only {compared} comparisons");
}

#[test]
fn explain_prints_json_with_the_eval_result() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let event = br#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"rm -rf /"}}"#;
    let explained = hookc(root, &["explain", "--rules", "rules", "--format", "json"], event);
    let evaluated = hookc(root, &["eval", "--rules", "rules"], event);
    let explained: serde_json::Value = serde_json::from_str(&stdout(&explained)).unwrap();
    let evaluated: serde_json::Value = serde_json::from_str(&stdout(&evaluated)).unwrap();
    assert_eq!(explained["result"], evaluated);
    assert_eq!(explained["permission_set_by"], "no-rm-root");
    let rules = explained["rules"].as_array().unwrap();
    let rm = rules.iter().find(|trace| trace["rule"] == "no-rm-root").unwrap();
    assert_eq!(rm["outcome"], "fired");
    assert_eq!(rm["tests"][0]["test"], "runs rm");
    assert_eq!(rm["tests"][1]["saw"], "r, f");
    let push = rules.iter().find(|trace| trace["rule"] == "no-force-push").unwrap();
    assert_eq!(push["tests"][0], serde_json::json!({"test": "runs git push", "saw": "rm", "held": false}));
}
