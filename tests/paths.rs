//! The path model end to end: symlinks on a real file system, case-insensitive hosts, and a
//! seeded property test that the index never drops a rule (indexed == exhaustive == bundle).

use crate::support::Rng;
use hookc::paths::{PathCase, PathSettings};
use hookc::{Event, HookResult, Permission, Policy};

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
    "#;
    let insensitive = PathSettings { case: PathCase::Insensitive, ..PathSettings::default() };
    let sensitive = PathSettings { case: PathCase::Sensitive, ..PathSettings::default() };
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

fn regex_piece(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => r"\s+".into(),
        1 => r"\b".into(),
        2 => r"\<".into(),
        3 => "[a-c]".into(),
        4 => ".".into(),
        5 => format!("({}|{})", regex_escape(rng.pick(WORDS)), regex_escape(rng.pick(WORDS))),
        6 => format!("{}?", regex_escape(rng.pick(WORDS))),
        7 => format!("(?:{})*", regex_escape(rng.pick(WORDS))),
        8 => r"\/".into(),
        _ => regex_escape(rng.pick(WORDS)),
    }
}

fn regex_escape(word: &str) -> String {
    word.chars().map(|c| if c.is_alphanumeric() || c == ' ' { c.to_string() } else { format!("\\{c}") }).collect()
}

fn regex(rng: &mut Rng) -> String {
    let mut pattern = String::new();
    match rng.below(5) {
        0 => pattern.push('^'),
        1 => pattern.push_str(r"\A"),
        2 => pattern.push_str("(?m)^"),
        _ => {}
    }
    for _ in 0..1 + rng.below(3) {
        pattern.push_str(&regex_piece(rng));
    }
    if rng.chance(30) {
        pattern.push('$');
    }
    if rng.chance(10) {
        pattern = format!("{pattern}|{}", regex_escape(rng.pick(WORDS)));
    }
    let flags = ["", "", "", "i", "m", "s", "x", "U", "is"][rng.below(9)];
    format!("/{}/{flags}", pattern.replace('/', r"\/").replace(r"\\/", r"\/"))
}

fn glob(rng: &mut Rng) -> String {
    let mut segments = Vec::new();
    if rng.chance(20) {
        segments.push(".".to_string());
    }
    for _ in 0..1 + rng.below(3) {
        segments.push(match rng.below(8) {
            0 => "*".into(),
            1 => "**".into(),
            2 => "?".into(),
            3 => "[ab]*".into(),
            4 => "{src,gen}".into(),
            5 => "*.rs".into(),
            _ => rng.pick(&["src", "a", "gen", "x.txt", "Cargo.lock", ".git", "é"]).to_string(),
        });
    }
    let joined = segments.join("/");
    if rng.chance(15) {
        format!("\"/repo/{joined}\"")
    } else {
        format!("\"{joined}\"")
    }
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn test(rng: &mut Rng) -> String {
    if rng.chance(15) {
        return runs(rng);
    }
    let field = rng.pick(&["path", "command", "tool", "kind", "args.mode", "paths", "access", "programs"]);
    let text = |rng: &mut Rng| match field {
        "path" | "paths" => quoted(rng.pick(PATHS)),
        "tool" => quoted(rng.pick(&["Bash", "Write", "write_file", "apply_patch", "my_tool"])),
        "kind" => quoted(rng.pick(&["shell", "write", "read", "other"])),
        "access" => quoted(rng.pick(&["read", "write"])),
        "programs" => quoted(rng.pick(WORDS)),
        _ => quoted(&format!("{} {}", rng.pick(WORDS), rng.pick(WORDS))),
    };
    let test = match rng.below(9) {
        0 => format!("{field} == {}", text(rng)),
        1 => format!("{field} != {}", text(rng)),
        2 => format!("{field} in [{}, {}]", text(rng), text(rng)),
        3 => format!("{field} matches {}", regex(rng)),
        4 => format!("{field} like {}", glob(rng)),
        5 => format!("{field} starts_with {}", text(rng)),
        6 => format!("{field} ends_with {}", text(rng)),
        7 => format!("{field} contains {}", quoted(rng.pick(WORDS))),
        _ => format!("len({field}) > {}", rng.below(6)),
    };
    if rng.chance(15) {
        format!("not {test}")
    } else {
        test
    }
}

/// `runs PROGRAM [SUBCOMMAND] (TEST)` on one command's fields.
fn runs(rng: &mut Rng) -> String {
    let program = match rng.below(4) {
        0 => String::new(),
        1 => format!(" [{}, {}]", quoted(rng.pick(WORDS)), quoted(rng.pick(WORDS))),
        2 => format!(" {} {}", quoted(rng.pick(WORDS)), quoted(rng.pick(WORDS))),
        _ => format!(" {}", quoted(rng.pick(WORDS))),
    };
    let inner = match rng.below(6) {
        0 => format!("flags in [{}, r, f]", quoted(rng.pick(WORDS))),
        1 => format!("operands like {}", glob(rng)),
        2 => format!("operands == {}", quoted(rng.pick(PATHS))),
        3 => format!("not words contains {}", quoted(rng.pick(WORDS))),
        4 => format!("inputs == {} or via == sudo", quoted(rng.pick(WORDS))),
        _ => format!("path like {} and program != {}", glob(rng), quoted(rng.pick(WORDS))),
    };
    format!("runs{program} ({inner})")
}

fn rule(rng: &mut Rng, n: usize) -> String {
    let mut condition = test(rng);
    for _ in 0..rng.below(3) {
        let joiner = if rng.chance(70) { "and" } else { "or" };
        condition = format!("{condition} {joiner} {}", test(rng));
    }
    let action = match rng.below(7) {
        6 => format!(
            "set command = \"{} {}\"",
            rng.pick(&["rm", "git", "cat"]),
            rng.pick(&["-rf /", "push -f", "x.txt"])
        ),
        0 => format!("deny \"r{n}\""),
        1 => format!("ask \"r{n}\""),
        2 => format!("allow \"r{n}\""),
        3 => format!("block \"code{n}\" \"r{n}\""),
        4 => format!("set args.mode = \"m{n}\""),
        _ => format!("context \"c{n}\""),
    };
    format!("rule r{n} pre_tool_use when {condition} => {action}\n")
}

fn tool_event(rng: &mut Rng) -> Event {
    let tool = rng.pick(&["Bash", "Write", "write_file", "apply_patch", "my_tool", "mcp__fs__move_file"]);
    let command = format!("{} {} {}", rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS));
    let mut args = serde_json::Map::new();
    match tool {
        "Bash" => drop(args.insert("command".into(), command.into())),
        "apply_patch" => {
            let patch =
                format!("*** Begin Patch\n*** Update File: {}\n*** Add File: {}\n", rng.pick(PATHS), rng.pick(PATHS));
            args.insert("command".into(), patch.into());
        }
        "mcp__fs__move_file" => {
            args.insert("source".into(), rng.pick(PATHS).into());
            args.insert("destination".into(), rng.pick(PATHS).into());
        }
        _ => {
            args.insert(if rng.chance(50) { "file_path" } else { "path" }.into(), rng.pick(PATHS).into());
            args.insert("command".into(), command.into());
        }
    }
    if rng.chance(50) {
        args.insert("mode".into(), format!("{} {}", rng.pick(WORDS), rng.pick(WORDS)).into());
    }
    let mut json = serde_json::json!({"event": "pre_tool_use", "tool": tool, "args": args});
    if rng.chance(70) {
        json["cwd"] = rng.pick(&["/repo", "/repo/src", "C:\\repo"]).into();
    }
    event(json)
}

/// Seed `seed`'s generator, the 20 rules it made first, and their policy.
fn generated(seed: u64) -> (Rng, String, Policy) {
    let mut rng = Rng(seed);
    let rules: String = (0..20).map(|n| rule(&mut rng, n)).collect();
    match Policy::from_source("generated.rules", &rules) {
        Ok(policy) => (rng, rules, policy),
        Err(error) => panic!("seed {seed}: generated rules do not check:\n{rules}\n{error}"),
    }
}

/// The index may only narrow which rules are tried: for random rules of every operator, flag
/// and pattern syntax, and random events, indexed evaluation, exhaustive evaluation and a
/// bundle round trip give the same result — 200 rule sets × 500 events = 100,000 pairs.
#[test]
fn the_index_never_drops_a_firing_rule() {
    let mut pairs = 0;
    for seed in 0..200u64 {
        let (mut rng, rules, policy) = generated(seed);
        let case = if seed % 4 == 3 { PathCase::Insensitive } else { PathCase::Sensitive };
        let settings =
            PathSettings { case, follow_links: false, home: Some("/home/u".into()), ..PathSettings::default() };
        let bundled = Policy::from_bundle_bytes(&policy.to_bundle()).unwrap().with_path_settings(settings.clone());
        let policy = policy.with_path_settings(settings);
        for _ in 0..500 {
            let event = tool_event(&mut rng);
            let indexed = policy.evaluate(&event).map_err(|error| error.to_string());
            let exhaustive = policy.evaluate_exhaustive(&event).map(|e| e.result).map_err(|error| error.to_string());
            let from_bundle = bundled.evaluate(&event).map_err(|error| error.to_string());
            assert_eq!(indexed, exhaustive, "seed {seed}: indexed vs exhaustive\n{rules}\n{event:?}");
            assert_eq!(indexed, from_bundle, "seed {seed}: rules vs bundle\n{rules}\n{event:?}");
            pairs += 1;
        }
    }
    assert_eq!(pairs, 100_000);
}

#[test]
fn some_generated_rules_fire() {
    // The property above must not hold vacuously: generated rules fire on generated events.
    let mut fired = 0;
    for seed in 0..20u64 {
        let (mut rng, _, policy) = generated(seed);
        for _ in 0..100 {
            let result: HookResult = policy.evaluate(&tool_event(&mut rng)).unwrap_or_default();
            fired += usize::from(!result.matched.is_empty());
        }
    }
    assert!(fired > 500, "only {fired} of 2000 events fired a rule");
}
