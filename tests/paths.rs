//! The path model end to end: symlinks on a real file system, case-insensitive hosts, and a
//! seeded property test that the index never drops a rule (indexed == exhaustive == bundle).

use hookc::paths::{PathCase, PathSettings};
use hookc::{Event, HookResult, Permission, Policy};
use proptest::bool::weighted;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

fn event(json: serde_json::Value) -> Event {
    Event::from_json(json.to_string().as_bytes()).unwrap()
}

#[cfg(unix)]
#[test]
fn a_link_to_a_protected_file_is_protected() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let repo = root.join("repo");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(repo.join("generated.txt"), "x").unwrap();
    std::fs::write(root.join("outside.txt"), "x").unwrap();
    std::os::unix::fs::symlink(repo.join("generated.txt"), repo.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(&repo, repo.join("src/up")).unwrap();
    std::os::unix::fs::symlink(root.join("outside.txt"), repo.join("src/escape")).unwrap();
    let policy = Policy::from_source(
        "links.rules",
        r#"
        rule guard pre_tool_use when kind == write and path == "generated.txt" => block "hook_blocked" "managed"
        rule confine pre_tool_use when kind == write and not path like "src/**" => deny "writes stay in src"
        "#,
    )
    .unwrap();
    let cwd = repo.to_string_lossy();
    let write = |file: &str| {
        policy
            .evaluate(&event(serde_json::json!({"event": "pre_tool_use", "tool": "Write", "cwd": cwd,
                "args": {"file_path": file, "content": "x"}})))
            .unwrap()
    };
    assert!(write("link.txt").blocking_error.is_some(), "a link to generated.txt");
    assert!(write("src/up/generated.txt").blocking_error.is_some(), "through a linked directory");
    assert!(write("src/up/src/up/generated.txt").blocking_error.is_some(), "through a loop of links");
    let escape = write("src/escape");
    assert_eq!(escape.permission_behavior, Permission::Deny, "a link in src leading out: {escape:?}");
    let inside = write("src/lib.rs");
    assert_eq!(inside.permission_behavior, Permission::Passthrough, "{inside:?}");
}

#[cfg(unix)]
#[test]
fn sql_files_in_the_project_are_read_as_the_clients_own() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let repo = root.join("repo");
    std::fs::create_dir_all(repo.join("db")).unwrap();
    std::fs::write(repo.join("db/001.sql"), "CREATE TABLE t (x int);\nSELECT 1;\n").unwrap();
    std::fs::write(repo.join("db/002.sql"), "-- cleanup\nDROP TABLE accounts;\n").unwrap();
    std::fs::write(repo.join("db/003.sql"), "SELECT * FROM t WHERE id = :x;\n").unwrap();
    std::fs::write(repo.join("db/big.sql"), "SELECT 1;\n".repeat(8_000)).unwrap();
    std::fs::write(root.join("outside.sql"), "SELECT 1;").unwrap();
    std::os::unix::fs::symlink(root.join("outside.sql"), repo.join("db/escape.sql")).unwrap();
    let policy = Policy::from_source(
        "db.rules",
        r#"
        rule drop pre_tool_use when runs sql (subcommand in [drop]) => ask "drops"
        rule unread pre_tool_use when runs sql (subcommand == unread) => ask "unread"
        "#,
    )
    .unwrap();
    let cwd = repo.to_string_lossy();
    let matched = |command: &str| {
        let result = policy
            .evaluate(&event(serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": cwd,
                "args": {"command": command}})))
            .unwrap();
        result.matched.clone()
    };
    assert!(matched("psql -f db/001.sql").is_empty());
    assert_eq!(matched("psql -v ON_ERROR_STOP=1 -f db/002.sql"), ["drop"]);
    assert_eq!(matched("psql app < db/002.sql"), ["drop"]);
    assert_eq!(matched("mysql -e 'SELECT 1' app; sqlite3 app.db < db/002.sql"), ["drop"]);
    // Outside the project, through a link out of it, over the bound, missing, or named after a
    // `cd` of the line: unread.
    for command in [
        "psql -f ../outside.sql",
        "psql -f db/escape.sql",
        "psql -f db/big.sql",
        "psql -f db/none.sql",
        "cd db && psql -f 002.sql",
        "echo 'SELECT 1;' > db/001.sql && psql -f db/001.sql",
        "env -C db psql -f 002.sql",
        "psql -v x=1 -f db/003.sql",
        "ssh h psql -f db/001.sql",
    ] {
        assert_eq!(matched(command), ["unread"], "{command}");
    }
}

#[test]
fn case_insensitive_hosts_match_every_case() {
    let rules = r#"
        rule exact pre_tool_use when path == "Generated.txt" => deny "exact"
        rule glob pre_tool_use when path like "secrets/**" => deny "glob"
        rule prefix pre_tool_use when path starts_with "Vendor/" => deny "prefix"
        rule regex pre_tool_use when path matches /^build\/.*\.LOG$/ => deny "regex"
        rule unicode pre_tool_use when path like "Ünïcode/**" => deny "unicode"
        rule fold pre_tool_use when path matches /^keys\// => deny "fold"
        rule long-s pre_tool_use when path == "secrets.txt" => deny "long s"
        rule sharp-s pre_tool_use when path matches /straße\.conf$/ => deny "sharp s"
        let dumps = /^dumps\/.*\.SQL$/
        rule named pre_tool_use when path matches dumps => deny "named"
    "#;
    let insensitive = PathSettings::default().with_case(PathCase::Insensitive);
    let sensitive = PathSettings::default().with_case(PathCase::Sensitive);
    let folded = Policy::from_source("case.rules", rules).unwrap().with_path_settings(insensitive.clone());
    let exact = Policy::from_source("case.rules", rules).unwrap().with_path_settings(sensitive);
    let bundled = Policy::from_bundle_bytes(&folded.to_bundle()).unwrap().with_path_settings(insensitive);
    for (file, rule) in [
        ("generated.TXT", "exact"),
        ("SECRETS/key", "glob"),
        ("vendor/x", "prefix"),
        ("BUILD/a.log", "regex"),
        ("üNÏCODE/b", "unicode"),
        ("\u{212A}eys/a", "fold"),
        ("Keys/a", "fold"),
        ("\u{17F}ecrets.txt", "long-s"),
        // Folding turns `ß` into `ss`; the regex, matched with `i`, still sees `ß`.
        ("STRAßE.conf", "sharp-s"),
        // A `let` regex is compiled for each field it tests: a path's folds case.
        ("DUMPS/a.sql", "named"),
    ] {
        let call = event(serde_json::json!({"event": "pre_tool_use", "tool": "Write", "cwd": "/Repo",
            "args": {"file_path": format!("/REPO/{file}")}}));
        for policy in [&folded, &bundled] {
            let result = policy.evaluate(&call).unwrap();
            assert_eq!(result.matched, [rule], "{file}");
            assert_eq!(policy.evaluate_exhaustive(&call).unwrap().result, result, "{file}: exhaustive");
        }
        // With case sensitivity, /REPO is not /Repo and the letters differ.
        assert!(exact.evaluate(&call).unwrap().matched.is_empty(), "{file}");
    }
}

/// On a host whose file names fold case, the baseline reads program names in any case: `SUDO`,
/// `BASH -c`, `Find`, `POWERSHELL` and `Python3` are the programs they run there.
#[test]
fn case_insensitive_hosts_read_program_names_in_any_case() {
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let insensitive = PathSettings::default().with_case(PathCase::Insensitive);
    let folded = Policy::from_paths(&[rules]).unwrap().without_own_files().with_path_settings(insensitive);
    let exact = Policy::from_paths(&[rules]).unwrap().without_own_files();
    for line in [
        "SUDO rm -rf /",
        "BASH -c 'rm -rf ~'",
        "Find / -delete",
        "/USR/BIN/ENV RM -rf /",
        "Python3 -c 'import os; os.system(\"rm -rf ~\")'",
        "POWERSHELL.EXE -Command \"Remove-Item -Recurse -Force ~\"",
    ] {
        let call = event(serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": "/repo",
            "project_root": "/repo", "args": {"command": line}}));
        assert_eq!(folded.evaluate(&call).unwrap().permission_behavior, Permission::Deny, "{line}");
        // Where names do not fold, no program of those names is known to be the lower-case one.
        if !line.starts_with("POWERSHELL") {
            assert_ne!(exact.evaluate(&call).unwrap().permission_behavior, Permission::Deny, "{line}");
        }
    }
}

const WORDS: &[&str] =
    &["rm", "git", "push", "a", "B", "x.txt", "src", "Cargo.lock", "-rf", "é", "<", "/", ">", "|", "sudo", "'q r'"];
const PATHS: &[&str] = &[
    "a",
    "src/a.rs",
    "./src/B.rs",
    "/repo/src/a.rs",
    "../repo/x.txt",
    "/etc/passwd",
    "C:\\repo\\a",
    "Cargo.lock",
    "src/gen/x.txt",
    "/repo/.git/config",
    "é/ü.txt",
    "x.txt",
    "SRC/A.RS",
];

fn regex_escape(word: &str) -> String {
    word.chars().map(|c| if c.is_alphanumeric() || c == ' ' { c.to_string() } else { format!("\\{c}") }).collect()
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn word() -> impl Strategy<Value = &'static str> {
    select(WORDS)
}

fn path() -> impl Strategy<Value = &'static str> {
    select(PATHS)
}

fn text(items: &'static [&'static str]) -> BoxedStrategy<String> {
    select(items).prop_map(quoted).boxed()
}

fn regex_piece() -> BoxedStrategy<String> {
    prop_oneof![
        1 => Just(r"\s+".to_string()),
        1 => Just(r"\b".to_string()),
        1 => Just(r"\<".to_string()),
        1 => Just("[a-c]".to_string()),
        1 => Just(".".to_string()),
        1 => (word(), word()).prop_map(|(a, b)| format!("({}|{})", regex_escape(a), regex_escape(b))),
        1 => word().prop_map(|w| format!("{}?", regex_escape(w))),
        1 => word().prop_map(|w| format!("(?:{})*", regex_escape(w))),
        1 => Just(r"\/".to_string()),
        3 => word().prop_map(regex_escape),
    ]
    .boxed()
}

fn regex() -> BoxedStrategy<String> {
    let anchor = select(&["^", r"\A", "(?m)^", "", ""][..]);
    let flags = select(&["", "", "", "i", "m", "s", "x", "U", "is"][..]);
    (anchor, vec(regex_piece(), 1..4), weighted(0.3), option::weighted(0.1, word()), flags)
        .prop_map(|(anchor, pieces, end, alternative, flags)| {
            let mut pattern = format!("{anchor}{}", pieces.concat());
            if end {
                pattern.push('$');
            }
            if let Some(word) = alternative {
                pattern = format!("{pattern}|{}", regex_escape(word));
            }
            format!("/{}/{flags}", pattern.replace('/', r"\/").replace(r"\\/", r"\/"))
        })
        .boxed()
}

fn glob() -> BoxedStrategy<String> {
    let segment = prop_oneof![
        1 => Just("*"),
        1 => Just("**"),
        1 => Just("?"),
        1 => Just("[ab]*"),
        1 => Just("{src,gen}"),
        1 => Just("*.rs"),
        2 => select(&["src", "a", "gen", "x.txt", "Cargo.lock", ".git", "é"][..]),
    ];
    (weighted(0.2), vec(segment, 1..4), weighted(0.15))
        .prop_map(|(dot, segments, absolute)| {
            let joined = dot.then_some(".").into_iter().chain(segments).collect::<Vec<_>>().join("/");
            match absolute {
                true => format!("\"/repo/{joined}\""),
                false => format!("\"{joined}\""),
            }
        })
        .boxed()
}

/// A value of `field` as rule text.
fn value_of(field: &'static str) -> BoxedStrategy<String> {
    match field {
        "path" | "paths" => text(PATHS),
        "tool" => text(&["Bash", "Write", "write_file", "apply_patch", "my_tool"]),
        "kind" => text(&["shell", "write", "read", "other"]),
        "access" => text(&["read", "write"]),
        "programs" => text(WORDS),
        _ => (word(), word()).prop_map(|(a, b)| quoted(&format!("{a} {b}"))).boxed(),
    }
}

fn test() -> BoxedStrategy<String> {
    let fields = select(&["path", "command", "tool", "kind", "args.mode", "paths", "access", "programs"][..]);
    let on_field = fields.prop_flat_map(|field| {
        let value = value_of(field);
        prop_oneof![
            value.clone().prop_map(move |v| format!("{field} == {v}")),
            value.clone().prop_map(move |v| format!("{field} != {v}")),
            (value.clone(), value.clone()).prop_map(move |(a, b)| format!("{field} in [{a}, {b}]")),
            regex().prop_map(move |r| format!("{field} matches {r}")),
            glob().prop_map(move |g| format!("{field} like {g}")),
            value.clone().prop_map(move |v| format!("{field} starts_with {v}")),
            value.prop_map(move |v| format!("{field} ends_with {v}")),
            word().prop_map(move |w| format!("{field} contains {}", quoted(w))),
            (0..6usize).prop_map(move |n| format!("len({field}) > {n}")),
        ]
    });
    let test = (on_field, weighted(0.15)).prop_map(|(test, not)| if not { format!("not {test}") } else { test });
    prop_oneof![15 => runs(), 85 => test].boxed()
}

/// `runs PROGRAM [SUBCOMMAND] (TEST)` on one command's fields.
fn runs() -> BoxedStrategy<String> {
    let program = prop_oneof![
        Just(String::new()),
        (word(), word()).prop_map(|(a, b)| format!(" [{}, {}]", quoted(a), quoted(b))),
        (word(), word()).prop_map(|(a, b)| format!(" {} {}", quoted(a), quoted(b))),
        word().prop_map(|a| format!(" {}", quoted(a))),
    ];
    let inner = prop_oneof![
        word().prop_map(|w| format!("flags in [{}, r, f]", quoted(w))),
        glob().prop_map(|g| format!("operands like {g}")),
        path().prop_map(|p| format!("operands == {}", quoted(p))),
        word().prop_map(|w| format!("not words contains {}", quoted(w))),
        word().prop_map(|w| format!("inputs == {} or via == sudo", quoted(w))),
        (glob(), word()).prop_map(|(g, w)| format!("path like {g} and program != {}", quoted(w))),
    ];
    (program, inner).prop_map(|(program, inner)| format!("runs{program} ({inner})")).boxed()
}

/// A rule's condition and its action, `{n}` standing for its number.
fn rule() -> BoxedStrategy<String> {
    let joined = (test(), vec((weighted(0.7), test()), 0..3)).prop_map(|(first, rest)| {
        rest.into_iter()
            .fold(first, |condition, (and, test)| format!("{condition} {} {test}", if and { "and" } else { "or" }))
    });
    let action = prop_oneof![
        Just("deny \"r{n}\"".to_string()),
        Just("ask \"r{n}\"".to_string()),
        Just("allow \"r{n}\"".to_string()),
        Just("block \"code{n}\" \"r{n}\"".to_string()),
        Just("set args.mode = \"m{n}\"".to_string()),
        Just("context \"c{n}\"".to_string()),
        (select(&["rm", "git", "cat"][..]), select(&["-rf /", "push -f", "x.txt"][..]))
            .prop_map(|(program, rest)| format!("set command = \"{program} {rest}\"")),
    ];
    (joined, action).prop_map(|(condition, action)| format!("pre_tool_use when {condition} => {action}")).boxed()
}

/// Rule texts numbered as a rule file.
fn rule_file(rules: &[String]) -> String {
    rules.iter().enumerate().map(|(n, rule)| format!("rule r{n} {}\n", rule.replace("{n}", &n.to_string()))).collect()
}

fn tool_event() -> BoxedStrategy<serde_json::Value> {
    let tool = select(&["Bash", "Write", "write_file", "apply_patch", "my_tool", "mcp__fs__move_file"][..]);
    let command = (word(), word(), word()).prop_map(|(a, b, c)| format!("{a} {b} {c}"));
    let mode = option::weighted(0.5, (word(), word()).prop_map(|(a, b)| format!("{a} {b}")));
    let cwd = option::weighted(0.7, select(&["/repo", "/repo/src", "C:\\repo"][..]));
    (tool, command, (path(), path()), weighted(0.5), mode, cwd)
        .prop_map(|(tool, command, (first, second), file_path, mode, cwd)| {
            let mut args = serde_json::Map::new();
            match tool {
                "Bash" => drop(args.insert("command".into(), command.into())),
                "apply_patch" => {
                    let patch = format!("*** Begin Patch\n*** Update File: {first}\n*** Add File: {second}\n");
                    args.insert("command".into(), patch.into());
                }
                "mcp__fs__move_file" => {
                    args.insert("source".into(), first.into());
                    args.insert("destination".into(), second.into());
                }
                _ => {
                    args.insert(if file_path { "file_path" } else { "path" }.into(), first.into());
                    args.insert("command".into(), command.into());
                }
            }
            if let Some(mode) = mode {
                args.insert("mode".into(), mode.into());
            }
            let mut json = serde_json::json!({"event": "pre_tool_use", "tool": tool, "args": args});
            if let Some(cwd) = cwd {
                json["cwd"] = cwd.into();
            }
            json
        })
        .boxed()
}

fn policy_of(rules: &str) -> Policy {
    match Policy::from_source("generated.rules", rules) {
        Ok(policy) => policy,
        Err(error) => panic!("generated rules do not check:\n{rules}\n{error}"),
    }
}

fn config(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(200, 0x1d3c))]

    /// The index may only narrow which rules are tried: for generated rules of every operator,
    /// flag and pattern syntax (proptest, seeded, shrinking to the smallest rule set and event
    /// that disagree), indexed evaluation, exhaustive evaluation and a binary bundle round trip
    /// give the same result — 200 rule sets of 20 rules × 500 events.
    #[test]
    fn the_index_never_drops_a_firing_rule(
        rules in vec(rule(), 20),
        events in vec(tool_event(), 500),
        insensitive in weighted(0.25),
    ) {
        let rules = rule_file(&rules);
        let policy = policy_of(&rules);
        let case = if insensitive { PathCase::Insensitive } else { PathCase::Sensitive };
        let settings =
            PathSettings::default().with_case(case).with_follow_links(false).with_home(Some("/home/u".into()));
        let bundled = Policy::from_bundle_bytes(&policy.to_bundle()).unwrap().with_path_settings(settings.clone());
        let policy = policy.with_path_settings(settings);
        for json in events {
            let event = event(json);
            let indexed = policy.evaluate(&event).map_err(|error| error.to_string());
            let exhaustive = policy.evaluate_exhaustive(&event).map(|e| e.result).map_err(|error| error.to_string());
            let from_bundle = bundled.evaluate(&event).map_err(|error| error.to_string());
            prop_assert_eq!(&indexed, &exhaustive, "indexed vs exhaustive\n{}\n{:?}", rules, event);
            prop_assert_eq!(&indexed, &from_bundle, "rules vs bundle\n{}\n{:?}", rules, event);
        }
    }
}

/// The property above must not hold vacuously: generated rules fire on generated events (drawn
/// from the same strategies, seeded).
#[test]
fn some_generated_rules_fire() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::new(config(1, 0x5eed));
    let mut fired = 0;
    for _ in 0..20 {
        let rules = rule_file(&vec(rule(), 20).new_tree(&mut runner).unwrap().current());
        let policy = policy_of(&rules);
        for json in vec(tool_event(), 100).new_tree(&mut runner).unwrap().current() {
            let result: HookResult = policy.evaluate(&event(json)).unwrap_or_default();
            fired += usize::from(!result.matched.is_empty());
        }
    }
    assert!(fired > 500, "only {fired} of 2000 events fired a rule");
}

/// `in` and `not in` compare a host field's hosts as hosts: `*.` names, addresses and networks,
/// in the policy and in its bundle alike; `not in` holds when some host is outside the list.
#[test]
fn host_lists_hold_names_subdomains_and_networks() {
    let rules = r#"
        let known = ["GitHub.com", "*.example.org", "10.0.0.0/8", "fd00::/8", "192.0.2.7"]
        rule unknown pre_tool_use when egress not in known => ask "unknown"
        rule known pre_tool_use when egress in known => context "known"
    "#;
    let policy = Policy::from_source("hosts.rules", rules).unwrap();
    let bundled = Policy::from_bundle_bytes(&policy.to_bundle()).unwrap();
    for (command, matched) in [
        ("curl https://github.com/x", &["known"][..]),
        ("curl https://api.example.org/x", &["known"]),
        ("curl https://example.org/x", &["unknown"]),
        ("curl http://10.9.8.7/", &["known"]),
        ("curl http://0x0a000001/", &["known"]),
        ("curl http://11.0.0.1/", &["unknown"]),
        ("curl http://[fd00::1]/", &["known"]),
        ("curl http://192.0.2.8/", &["unknown"]),
        ("curl https://github.com/x https://evil.example/", &["unknown", "known"]),
        ("git status", &[]),
    ] {
        let call = event(serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": "/repo",
            "args": {"command": command}}));
        for policy in [&policy, &bundled] {
            let result = policy.evaluate(&call).unwrap();
            assert_eq!(result.matched, matched, "{command}");
        }
    }
}
