//! The cost an agent pays per tool call: the whole `hookc hook claude` process — start, load the
//! policy, decide, exit — run many times, each median reported as a ratio to the floor measured
//! in the same run (`sh -c 'exec true'` started the same way), for a bundle and for rule files
//! through the compiled-rules cache (warm, and emptied before every call). Run with
//! `cargo bench --bench hook_process` (it uses the optimised binary cargo builds for benches).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 100;

/// `n` rules in the shape of the decision benchmark: half equality, a quarter regex, a quarter
/// glob or prefix.
fn rules(n: usize) -> String {
    (0..n)
        .map(|i| match i % 8 {
            0..=3 => format!("rule eq-{i} pre_tool_use when tool == tool_{} and path == \"src/file_{i}.rs\" => deny \"eq\"\n", i % 50),
            4 | 5 => format!("rule re-{i} pre_tool_use when tool == Bash and command matches /\\bcmd{i}\\b/ => ask \"re\"\n"),
            6 => format!("rule glob-{i} pre_tool_use when path like \"assets/dir{i}/**/*.png\" => ask \"glob\"\n"),
            _ => format!("rule prefix-{i} pre_tool_use when tool == Bash and command starts_with \"tool{i} \" => ask \"prefix\"\n"),
        })
        .collect()
}

/// Times `program args` started as a hook is (stdin piped with the payload, output read), `runs`
/// times; `before` runs ahead of each run, untimed.
fn time_runs(
    program: &str,
    args: &[&str],
    payload: &[u8],
    runs: usize,
    env: &[(&str, &std::path::Path)],
    before: &dyn Fn(),
) -> Vec<Duration> {
    (0..runs)
        .map(|_| {
            before();
            let start = Instant::now();
            let mut child = Command::new(program)
                .args(args)
                .envs(env.iter().copied())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // The floor reads nothing: its closed pipe is no error.
            let _ = child.stdin.take().unwrap().write_all(payload);
            let output = child.wait_with_output().unwrap();
            let elapsed = start.elapsed();
            assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
            elapsed
        })
        .collect()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn report(label: &str, times: Vec<Duration>, floor: Duration) {
    let runs = times.len();
    let median = median(times);
    println!(
        "{label:<48} median {:>8.2} ms   {:>6.1}x the floor   ({runs} runs)",
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() / floor.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing: run only when benched.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let hookc = env!("CARGO_BIN_EXE_hookc");
    let dir = std::env::temp_dir().join(format!("hookc-bench-{}", std::process::id()));
    let cache_home = dir.join("cache");
    std::fs::create_dir_all(&cache_home).unwrap();
    let env = [("XDG_CACHE_HOME", cache_home.as_path())];
    let deny = br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"tool_7","tool_input":{"file_path":"/repo/src/file_7.rs"}}"#;
    let pass =
        br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"echo hello"}}"#;
    // The floor: `sh -c 'exec true'` started the same way.
    let floor = median(time_runs("sh", &["-c", "exec true"], pass, RUNS, &env, &|| ()));
    println!("the floor, `sh -c 'exec true'`: {:.2} ms", floor.as_secs_f64() * 1e3);
    report("`hookc --version`", time_runs(hookc, &["--version"], b"", RUNS, &env, &|| ()), floor);
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let mut policies = vec![("the shipped rules".to_string(), shipped.to_string())];
    for n in [1_000, 10_000] {
        let rules_file = dir.join(format!("bench-{n}.rules"));
        std::fs::write(&rules_file, rules(n)).unwrap();
        policies.push((format!("{n} rules"), rules_file.to_str().unwrap().to_string()));
    }
    for (name, rules) in &policies {
        let bundle = dir.join("bench.json");
        let compiled = Command::new(hookc).args(["compile", rules, "-o", bundle.to_str().unwrap()]).output().unwrap();
        assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
        let bundle = bundle.to_str().unwrap();
        for (call, payload) in [("denied", &deny[..]), ("nothing matches", &pass[..])] {
            let timed = time_runs(hookc, &["hook", "claude", "--bundle", bundle], payload, RUNS, &env, &|| ());
            report(&format!("--bundle, {name}, {call}"), timed, floor);
            // `--rules` through the compiled-rules cache, warm (the first call filled it).
            let timed = time_runs(hookc, &["hook", "claude", "--rules", rules], payload, RUNS, &env, &|| ());
            report(&format!("--rules, {name}, {call}, cached"), timed, floor);
        }
        // `--rules` with the cache emptied before every call: what the first call pays.
        let clear = || {
            let _ = std::fs::remove_dir_all(cache_home.join("hookc"));
        };
        let timed = time_runs(hookc, &["hook", "claude", "--rules", rules], pass, RUNS / 10, &env, &clear);
        report(&format!("--rules, {name}, first call (no cache)"), timed, floor);
    }
    std::fs::remove_dir_all(&dir).ok();
}
