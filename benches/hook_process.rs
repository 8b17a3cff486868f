//! The cost an agent pays per tool call: the whole `hookc hook claude` process — start, load the
//! policy, decide, exit — run many times, each median reported as a ratio to the floor measured
//! in the same run (`sh -c 'exec true'` started the same way), for a binary bundle and for rule
//! files through the compiled-rules cache (warm, and emptied before every call), at 28 (the
//! shipped rules), 1,000, 10,000 and 100,000 rules; for the bare binary and for the command
//! `hookc init` writes (the project's launcher included). Memory growth is each call's peak RSS
//! minus that of `hookc --version` (`/usr/bin/time -f %M`, when present). Run with
//! `cargo bench --bench hook_process` (it uses the optimised binary cargo builds for benches);
//! `HOOKC_BENCH_SIZES=1000,10000` picks the sizes.

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

/// Times `program args` and the floor (`sh -c 'exec true'`) in turn, `runs` pairs: each pair's
/// ratio is taken on the spot, so a machine that slows down or speeds up during the run moves
/// both sides of a pair alike. Reports the median time and the median of the pairs' ratios.
fn paired(label: &str, program: &str, args: &[&str], payload: &[u8], env: &[(&str, &std::path::Path)]) {
    let mut times = Vec::with_capacity(RUNS);
    let mut ratios = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let floor = time_runs("sh", &["-c", "exec true"], payload, 1, env, &|| ())[0];
        let time = time_runs(program, args, payload, 1, env, &|| ())[0];
        times.push(time);
        ratios.push(time.as_secs_f64() / floor.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "{label:<48} median {:>8.2} ms   {:>6.1}x the floor, paired   ({RUNS} pairs)",
        median(times).as_secs_f64() * 1e3,
        ratios[ratios.len() / 2]
    );
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

/// The peak RSS in KiB of `program args` fed `payload`, the median of `runs`, by `/usr/bin/time`.
fn peak_kib(program: &str, args: &[&str], payload: &[u8], env: &[(&str, &std::path::Path)]) -> Option<u64> {
    let mut peaks: Vec<u64> = (0..5)
        .filter_map(|_| {
            let mut child = Command::new("/usr/bin/time")
                .args(["-f", "%M", program])
                .args(args)
                .envs(env.iter().copied())
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .ok()?;
            let _ = child.stdin.take()?.write_all(payload);
            let output = child.wait_with_output().ok()?;
            String::from_utf8_lossy(&output.stderr).lines().last()?.trim().parse().ok()
        })
        .collect();
    peaks.sort_unstable();
    peaks.get(peaks.len() / 2).copied()
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
    // `eq-8` denies this call (`tool_8`, `src/file_8.rs`); nothing matches the other.
    let deny = br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"tool_8","tool_input":{"file_path":"/repo/src/file_8.rs"}}"#;
    let pass =
        br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"echo hello"}}"#;
    // The floor: `sh -c 'exec true'` started the same way.
    let floor = median(time_runs("sh", &["-c", "exec true"], pass, RUNS, &env, &|| ()));
    println!("the floor, `sh -c 'exec true'`: {:.2} ms", floor.as_secs_f64() * 1e3);
    report("`hookc --version`", time_runs(hookc, &["--version"], b"", RUNS, &env, &|| ()), floor);
    let version_peak = peak_kib(hookc, &["--version"], b"", &env);
    if let Some(peak) = version_peak {
        println!("`hookc --version` peak RSS: {:.1} MB", peak as f64 / 1024.0);
    }
    // The command `hookc init` writes for Claude Code, in a project of its own: the settings'
    // `sh -c` line, then the launcher, then hookc.
    let project = dir.join("project");
    std::fs::create_dir_all(project.join("rules")).unwrap();
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let compiled =
        Command::new(hookc).args(["compile", shipped, "-o", "policy.hcb"]).current_dir(&project).output().unwrap();
    assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
    let init = Command::new(hookc)
        .args(["init", "claude", "--write", "--bundle", "policy.hcb"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stderr));
    let settings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(project.join(".claude/settings.json")).unwrap()).unwrap();
    let wired = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"].as_str().unwrap().to_string();
    let launcher_env = [
        ("XDG_CACHE_HOME", cache_home.as_path()),
        ("CLAUDE_PROJECT_DIR", project.as_path()),
        ("HOOKC", std::path::Path::new(hookc)),
    ];

    let sizes: Vec<usize> = std::env::var("HOOKC_BENCH_SIZES")
        .map(|sizes| sizes.split(',').filter_map(|size| size.trim().parse().ok()).collect())
        .unwrap_or_else(|_| vec![1_000, 10_000, 100_000]);
    let mut policies = vec![("the shipped rules".to_string(), shipped.to_string())];
    for n in sizes {
        let rules_file = dir.join(format!("bench-{n}.rules"));
        std::fs::write(&rules_file, rules(n)).unwrap();
        policies.push((format!("{n} rules"), rules_file.to_str().unwrap().to_string()));
    }
    // The compiled-rules cache takes a file's identity from its stamp only once the file's times
    // are settled (`cache::RACY_SECONDS`): measure after that, as every call but the first few
    // seconds after an edit runs.
    std::thread::sleep(Duration::from_secs(hookc_cli::cache::RACY_SECONDS) + Duration::from_millis(500));
    for (name, rules) in &policies {
        let bundle = project.join("policy.hcb");
        let compiled = Command::new(hookc).args(["compile", rules, "-o", bundle.to_str().unwrap()]).output().unwrap();
        assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
        let bundle = bundle.to_str().unwrap();
        // Fill the compiled-rules cache first (untimed): the `--rules` rows below are later calls.
        let _ = time_runs(hookc, &["hook", "claude", "--rules", rules], pass, 1, &env, &|| ());
        for (call, payload) in [("denied", &deny[..]), ("nothing matches", &pass[..])] {
            paired(&format!("--bundle, {name}, {call}"), hookc, &["hook", "claude", "--bundle", bundle], payload, &env);
            paired(&format!("  as `init` wires it (launcher), {call}"), "sh", &["-c", &wired], payload, &launcher_env);
            // `--rules` through the compiled-rules cache, warm (the first call filled it).
            paired(
                &format!("--rules, {name}, {call}, cached"),
                hookc,
                &["hook", "claude", "--rules", rules],
                payload,
                &env,
            );
        }
        if let (Some(base), Some(peak)) =
            (version_peak, peak_kib(hookc, &["hook", "claude", "--bundle", bundle], deny, &env))
        {
            println!(
                "{:<48} {:>8.1} MB over `--version`",
                format!("--bundle, {name}, peak RSS growth"),
                (peak.saturating_sub(base)) as f64 / 1024.0
            );
        }
        // `--rules` with the cache emptied before every call: what the first call pays.
        let clear = || {
            let _ = std::fs::remove_dir_all(cache_home.join("hookc"));
        };
        let runs = if rules.contains("100000") { 3 } else { RUNS / 10 };
        let timed = time_runs(hookc, &["hook", "claude", "--rules", rules], pass, runs, &env, &clear);
        report(&format!("--rules, {name}, first call (no cache)"), timed, floor);
    }
    std::fs::remove_dir_all(&dir).ok();
}
