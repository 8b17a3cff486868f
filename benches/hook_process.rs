//! The cost an agent pays per tool call: the whole `hookc claude` process — start, load a
//! bundle, decide, exit — run many times, reporting the median and spread. Run with
//! `cargo bench --bench hook_process` (it uses the optimised binary cargo builds for benches).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 300;

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

fn time_runs(args: &[&str], payload: &[u8]) -> Vec<Duration> {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let mut child = Command::new(env!("CARGO_BIN_EXE_hookc"))
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(payload).unwrap();
            let output = child.wait_with_output().unwrap();
            let elapsed = start.elapsed();
            assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
            elapsed
        })
        .collect()
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |fraction: f64| times[((times.len() - 1) as f64 * fraction) as usize];
    println!(
        "{label:<44} median {:>7.2} ms   p10 {:>6.2} ms   p90 {:>6.2} ms   ({RUNS} runs)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.1).as_secs_f64() * 1e3,
        at(0.9).as_secs_f64() * 1e3
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing: run only when benched.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("hookc-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let deny = br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"tool_7","tool_input":{"file_path":"/repo/src/file_7.rs"}}"#;
    let pass =
        br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"echo hello"}}"#;
    // The floor: a process that starts, reads stdin and exits.
    report("baseline: `hookc --version`", time_runs(&["--version"], b""));
    for n in [10, 1_000, 10_000] {
        let rules_file = dir.join(format!("bench-{n}.rules"));
        let bundle = dir.join(format!("bench-{n}.json"));
        std::fs::write(&rules_file, rules(n)).unwrap();
        let compiled = Command::new(env!("CARGO_BIN_EXE_hookc"))
            .args(["compile", rules_file.to_str().unwrap(), "-o", bundle.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
        let bundle = bundle.to_str().unwrap();
        report(
            &format!("hookc claude, {n} rules, a call a rule denies"),
            time_runs(&["claude", "--bundle", bundle], deny),
        );
        report(
            &format!("hookc claude, {n} rules, a call nothing matches"),
            time_runs(&["claude", "--bundle", bundle], pass),
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
