//! Waivers: a named rule lifted where a condition holds, through a last day (inclusive, UTC),
//! judged at call time — in rule files, in both bundle forms and through the compiled-rules
//! cache alike — and shown by explain and the audit record.

use crate::support::stdout;
use hookc::{Event, Policy};
use proptest::prelude::*;

/// `hookc ARGS` in `dir` with `stdin` and these variables set.
fn run(dir: &std::path::Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> std::process::Output {
    let env = env.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect();
    crate::support::hookc_with_env(dir, args, stdin, &env)
}

const RULES: &str = r#"
rule iac/apply pre_tool_use when runs terraform apply => deny "terraform apply needs a person"
rule secrets pre_tool_use when path like "**/.env" => ask "a secret file"
waive iac/apply when cwd like "/repo/infra/**" until 2026-12-31 "the infra sprint"
"#;

fn event(cwd: &str, command: &str) -> Event {
    let json = serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": cwd, "args": {"command": command}});
    Event::from_json(json.to_string().as_bytes()).unwrap()
}

/// Every form the policy can be loaded in: rule text, the binary bundle, the JSON bundle.
fn forms(rules: &str) -> Vec<(&'static str, Policy)> {
    let policy = Policy::from_source("waivers.rules", rules).unwrap();
    let binary = Policy::from_bundle_bytes(&policy.to_bundle()).unwrap();
    let json = Policy::from_bundle_str(&policy.to_bundle_json()).unwrap();
    vec![("rules", policy), ("binary bundle", binary), ("json bundle", json)]
}

fn denied(policy: &Policy, event: &Event, day: &str) -> bool {
    let evaluation = policy.evaluate_on(event, day).expect("a calendar day").unwrap();
    evaluation.result.permission_behavior == hookc::Permission::Deny
}

#[test]
fn a_waiver_lifts_its_rule_where_its_condition_holds_through_its_last_day() {
    let infra = event("/repo/infra/net", "terraform apply");
    let app = event("/repo/app", "terraform apply");
    for (form, policy) in forms(RULES) {
        assert!(!denied(&policy, &infra, "2026-12-01"), "{form}: lifted in infra/");
        assert!(!denied(&policy, &infra, "2026-12-31"), "{form}: lifted on its last day");
        assert!(denied(&policy, &infra, "2027-01-01"), "{form}: the day after, the rule applies again");
        assert!(denied(&policy, &app, "2026-12-01"), "{form}: not lifted outside infra/");
        let waived = policy.evaluate_on(&infra, "2026-12-01").unwrap().unwrap().waived;
        assert_eq!(waived.len(), 1, "{form}");
        assert_eq!(waived[0].rule, "iac/apply");
        assert_eq!(waived[0].until, "2026-12-31");
        assert_eq!(waived[0].reason.as_deref(), Some("the infra sprint"));
        // Other rules are untouched.
        let env = event("/repo/infra", "cat .env");
        let result = policy.evaluate_on(&env, "2026-12-01").unwrap().unwrap().result;
        assert_eq!(result.permission_behavior, hookc::Permission::Ask, "{form}");
    }
}

proptest! {
    /// On any day, a waiver holds exactly when the day is at most its last day, whichever
    /// form the policy was loaded in.
    #[test]
    fn a_waiver_holds_exactly_through_its_last_day(last in 0i64..40_000, offset in -400i64..400) {
        let date = |day: i64| {
            let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(u64::try_from(day).unwrap() * 86_400);
            humantime::format_rfc3339(time).to_string()[..10].to_string()
        };
        let day = (last + offset).max(0);
        let rules = format!(
            "rule r pre_tool_use when runs terraform => deny \"no\"\nwaive r until {}\n",
            date(last)
        );
        let call = event("/repo", "terraform apply");
        for (form, policy) in forms(&rules) {
            prop_assert_eq!(denied(&policy, &call, &date(day)), day > last, "{} on {}", form, date(day));
        }
    }
}

/// Waivers are judged by the day of the call, not of the compilation: a bundle or a cache entry
/// never keeps an expired waiver alive. The hook reads the system clock in UTC; the time zone
/// does not move it.
#[test]
fn the_hook_judges_waivers_by_todays_date_whatever_the_time_zone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    let rules = "rule r pre_tool_use when runs terraform => deny \"no\"\n\
                 waive r until 2020-01-01\n\
                 rule s pre_tool_use when runs pulumi => deny \"no\"\n\
                 waive s until 2999-12-31\n";
    std::fs::write(dir.path().join("rules/a.rules"), rules).unwrap();
    let compiled = run(dir.path(), &["compile", "rules", "-o", "p.hcb"], b"", &[]);
    assert_eq!(compiled.status.code(), Some(0));
    let payload = |command: &str| {
        serde_json::json!({"hook_event_name": "PreToolUse", "cwd": dir.path(), "tool_name": "Bash", "tool_input": {"command": command}})
            .to_string()
    };
    for zone in ["UTC", "Pacific/Kiritimati", "Etc/GMT+12"] {
        for policy in [["--bundle", "p.hcb"], ["--rules", "rules"]] {
            let env = [("TZ", zone), ("XDG_CACHE_HOME", dir.path().to_str().unwrap())];
            let expired =
                run(dir.path(), &["hook", "claude", policy[0], policy[1]], payload("terraform apply").as_bytes(), &env);
            assert!(stdout(&expired).contains("\"deny\""), "{zone} {policy:?}: an expired waiver lifts nothing");
            let current =
                run(dir.path(), &["hook", "claude", policy[0], policy[1]], payload("pulumi up").as_bytes(), &env);
            assert!(!stdout(&current).contains("\"deny\""), "{zone} {policy:?}: a waiver in force lifts its rule");
        }
    }
}

/// explain says which waiver lifted a rule; the audit record lists every decision a waiver
/// changed.
#[test]
fn explain_and_the_audit_record_show_what_a_waiver_changed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    let rules = "rule r pre_tool_use when runs terraform => deny \"no\"\nwaive r until 2999-12-31 \"a sprint\"\n";
    std::fs::write(dir.path().join("rules/a.rules"), rules).unwrap();
    let event = br#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"terraform apply"}}"#;
    let explained = run(dir.path(), &["explain", "--rules", "rules", "--format", "json"], event, &[]);
    let explained: serde_json::Value = serde_json::from_str(&stdout(&explained)).unwrap();
    assert_eq!(explained["rules"][0]["outcome"], "waived");
    assert_eq!(explained["rules"][0]["waived_by"]["until"], "2999-12-31");
    assert_eq!(explained["rules"][0]["waived_by"]["reason"], "a sprint");
    let text = stdout(&run(dir.path(), &["explain", "--rules", "rules"], event, &[]));
    assert!(
        text.contains("waived") && text.contains("lifted by the waiver at rules/a.rules:2:1 (until 2999-12-31)"),
        "{text}"
    );

    let payload = br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"terraform apply"}}"#;
    let log = dir.path().join("audit.jsonl");
    let args = ["hook", "claude", "--rules", "rules", "--audit-log", log.to_str().unwrap()];
    run(dir.path(), &args, payload, &[("XDG_CACHE_HOME", dir.path().to_str().unwrap())]);
    let record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&log).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(record["decision"], "none");
    assert_eq!(record["waived"][0]["rule"], "r");
    assert_eq!(record["waived"][0]["waiver"], "rules/a.rules:2:1");
    assert!(record["reason"].as_str().unwrap().contains("waivers"), "{record}");
}

/// A waiver is part of what the digests cover: an edit to it in either bundle form is refused.
#[test]
fn an_edited_waiver_is_refused() {
    let policy = Policy::from_source("waivers.rules", RULES).unwrap();
    let json = policy.to_bundle_json();
    let edited = json.replace("2026-12-31", "2099-12-31");
    assert_ne!(json, edited);
    assert!(matches!(Policy::from_bundle_str(&edited), Err(hookc::bundle::BundleError::Tampered { .. })));
    let mut binary = policy.to_bundle();
    let at = binary.windows(10).position(|window| window == b"2026-12-31").unwrap();
    binary[at..at + 4].copy_from_slice(b"2099");
    assert!(Policy::from_bundle_bytes(&binary).is_err(), "the header's digest covers the waivers");
}

/// `hookc fmt` keeps waivers, and formats them canonically.
#[test]
fn fmt_keeps_waivers() {
    let mut sources = hookc::source::SourceMap::default();
    let id = sources.add(hookc::source::SourceFile::new(
        "w.rules",
        "rule r stop => log \"x\"\nwaive   r   when cwd == \"/a\"   until 2030-01-01  \"why\"\n",
    ));
    let formatted = hookc::format(id, sources.get(id).unwrap()).unwrap();
    assert!(formatted.contains("waive r when cwd == \"/a\" until 2030-01-01 \"why\"\n"), "{formatted}");
}
