//! Decision cost across rule-set sizes: the time from an event's JSON text to its HookResult,
//! for 10, 100, 1,000 and 10,000 generated rules, and the time to load a 10,000-rule bundle.
//!
//! The rules are half equality (`tool == … and path == …`), a quarter regex on `command`, and a
//! quarter glob on `path` or prefix on `command`; requests hit one rule of each kind or match
//! nothing. The regexes and globs come in three shapes: anchored with a literal head; with no
//! usable head (`\bcmdN\b`); and sharing one head (`rm\s+-rf\s+/cmdN/`, `assets/**/dirN/**`),
//! the shape that defeats prefix indexing and crowds one pattern set. The shell workload is rules on words (`runs PROGRAM (…)`, `access == write and path
//! like …`) against realistic command lines, and the cost of reading a command line into words
//! (a shell call against no rules). Run: `cargo bench --bench decision`; the report is in
//! `target/criterion/`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hookc::{Event, Policy};
use std::time::Duration;

const SIZES: [usize; 4] = [10, 100, 1_000, 10_000];

/// How the regex quarter of the rules is written.
#[derive(Clone, Copy)]
enum Regexes {
    /// `^cmd12( |$)`: anchored with a literal head, so the index finds them by prefix.
    Anchored,
    /// `\bcmd12\b`: no usable prefix; found by the text it requires (`cmd12`).
    Unanchored,
    /// `rm\s+-rf\s+/dir12/`: every regex shares the literal head `rm`; found by `/dir12/`.
    SharedHead,
}

/// The generated rule file for `n` rules.
fn rules(n: usize, regexes: Regexes) -> String {
    let mut text = String::new();
    for i in 0..n {
        let rule = match i % 8 {
            0..=3 => format!(
                "rule eq-{i} pre_tool_use when tool == tool_{} and path == \"src/file_{i}.rs\" => deny \"eq {i}\"\n",
                i % 50
            ),
            4 | 5 => match regexes {
                Regexes::Anchored => {
                    format!("rule re-{i} pre_tool_use when tool == bash and command matches /^cmd{i}( |$)/ => ask \"re {i}\"\n")
                }
                Regexes::Unanchored => {
                    format!("rule re-{i} pre_tool_use when tool == bash and command matches /\\bcmd{i}\\b/ => ask \"re {i}\"\n")
                }
                Regexes::SharedHead => {
                    format!("rule re-{i} pre_tool_use when tool == bash and command matches /rm\\s+-rf\\s+\\/cmd{i}\\// => ask \"re {i}\"\n")
                }
            },
            6 => match regexes {
                // Many globs under one directory: the shared head `src/` narrows nothing.
                Regexes::SharedHead => format!("rule glob-{i} pre_tool_use when path like \"assets/**/dir{i}/**/*.png\" => ask \"glob {i}\"\n"),
                _ => format!("rule glob-{i} pre_tool_use when path like \"assets/dir{i}/**/*.png\" => ask \"glob {i}\"\n"),
            },
            _ => format!("rule prefix-{i} pre_tool_use when tool == bash and command starts_with \"tool{i} \" => ask \"prefix {i}\"\n"),
        };
        text.push_str(&rule);
    }
    text
}

/// Requests for a set of `n` rules: each hits the last rule of its kind, or misses everything.
fn requests(n: usize) -> Vec<(&'static str, String, bool)> {
    let last = |kind: usize| (0..n).rev().find(|i| i % 8 == kind).unwrap();
    let eq = last(0);
    vec![
        (
            "hit-equality",
            format!(
                r#"{{"event":"pre_tool_use","tool":"tool_{}","args":{{"path":"src/file_{eq}.rs","content":"x"}}}}"#,
                eq % 50
            ),
            true,
        ),
        (
            "hit-regex",
            format!(r#"{{"event":"pre_tool_use","tool":"bash","args":{{"command":"cmd{} --all"}}}}"#, last(4)),
            true,
        ),
        (
            "hit-shared-head",
            format!(r#"{{"event":"pre_tool_use","tool":"bash","args":{{"command":"rm -rf /cmd{}/x"}}}}"#, last(4)),
            true,
        ),
        (
            "hit-glob",
            format!(
                r#"{{"event":"pre_tool_use","tool":"write_file","args":{{"path":"assets/dir{}/a/b.png"}}}}"#,
                last(6)
            ),
            true,
        ),
        (
            "hit-prefix",
            format!(r#"{{"event":"pre_tool_use","tool":"bash","args":{{"command":"tool{} run"}}}}"#, last(7)),
            true,
        ),
        (
            "miss-path",
            r#"{"event":"pre_tool_use","tool":"tool_7","args":{"path":"nothing/here.txt","content":"x"}}"#.to_string(),
            false,
        ),
        (
            "miss-command",
            r#"{"event":"pre_tool_use","tool":"bash","args":{"command":"echo hello world"}}"#.to_string(),
            false,
        ),
    ]
}

fn decision(c: &mut Criterion) {
    decisions(
        c,
        "decision",
        Regexes::Anchored,
        &["hit-equality", "hit-regex", "hit-glob", "hit-prefix", "miss-path", "miss-command"],
    );
    decisions(c, "decision-unanchored-regex", Regexes::Unanchored, &["hit-regex", "miss-command"]);
    decisions(
        c,
        "decision-shared-head",
        Regexes::SharedHead,
        &["hit-shared-head", "hit-glob", "miss-command", "miss-path"],
    );
}

/// Programs a shell policy names, many rules per program (as real policies have).
const PROGRAMS: [&str; 40] = [
    "git",
    "rm",
    "curl",
    "wget",
    "docker",
    "kubectl",
    "npm",
    "cargo",
    "make",
    "python3",
    "pip",
    "ssh",
    "scp",
    "rsync",
    "tar",
    "sed",
    "awk",
    "find",
    "xargs",
    "chmod",
    "chown",
    "dd",
    "mkfs",
    "terraform",
    "aws",
    "gcloud",
    "helm",
    "yarn",
    "pnpm",
    "go",
    "node",
    "psql",
    "mysql",
    "redis-cli",
    "systemctl",
    "crontab",
    "iptables",
    "mount",
    "sudo",
    "kill",
];

/// `n` rules on words: per program, flags and operands; per git subcommand; writes under a
/// directory; and a regex on the raw command line now and then.
fn shell_rules(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        let program = PROGRAMS[i % PROGRAMS.len()];
        let rule = match i % 5 {
            0 | 1 => format!(
                "rule w-{i} pre_tool_use when runs \"{program}\" (flags in [x{i}, \"opt-{i}\"] and operands like \"/data{i}/**\") => deny \"w {i}\"\n"
            ),
            2 => format!("rule g-{i} pre_tool_use when runs git \"sub{i}\" (flags in [force, f]) => ask \"g {i}\"\n"),
            3 => format!("rule f-{i} pre_tool_use when access == write and path like \"out{i}/**\" => block \"hook_blocked\" \"f {i}\"\n"),
            _ => format!("rule r-{i} pre_tool_use when kind == shell and command matches /\\bsecret{i}\\b/ => ask \"r {i}\"\n"),
        };
        text.push_str(&rule);
    }
    text
}

/// Command lines an agent runs every day, and the rule (if any) each hits at size `n`.
fn shell_requests(n: usize) -> Vec<(&'static str, String, bool)> {
    let last = |kind: usize| (0..n).rev().find(|i| i % 5 == kind).unwrap();
    let (w, g, f) = (last(0), last(2), last(3));
    let program = PROGRAMS[w % PROGRAMS.len()];
    let bash = |line: String| {
        format!(
            r#"{{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{{"command":{}}}}}"#,
            serde_json::Value::from(line)
        )
    };
    vec![
        ("hit-runs", bash(format!("cd /repo && sudo {program} --opt-{w} /data{w}/x")), true),
        ("hit-subcommand", bash(format!("git sub{g} --force origin main")), true),
        ("hit-write", bash(format!("cargo run > out{f}/log.txt 2>&1")), true),
        ("miss-test-pipeline", bash("cargo test --release 2>&1 | tail -n 20".to_string()), false),
        ("miss-build-chain", bash("npm ci && npm run build && npm test -- --watch=false".to_string()), false),
        ("miss-find-xargs", bash("find . -name '*.rs' -print0 | xargs -0 grep -n TODO".to_string()), false),
        ("miss-bash-c", bash("bash -lc 'git status --short && git log --oneline -5'".to_string()), false),
    ]
}

/// Shell rules on words at 100, 1,000 and 10,000 rules; and reading a command line into words
/// (a shell call against an empty policy: JSON, words, files and nothing else).
fn shell(c: &mut Criterion) {
    let mut group = c.benchmark_group("decision-shell");
    group.throughput(Throughput::Elements(1));
    for n in [100, 1_000, 10_000] {
        let policy = Policy::from_source("shell.rules", &shell_rules(n)).unwrap();
        bench_requests(&mut group, &policy, n, shell_requests(n));
    }
    group.finish();
    let mut group = c.benchmark_group("shell-words");
    let empty = Policy::from_source("empty.rules", "").unwrap();
    let requests = shell_requests(100).into_iter().map(|(name, json, _)| (name, json, false));
    bench_requests(&mut group, &empty, 0, requests);
    let read = r#"{"event":"pre_tool_use","tool":"Read","cwd":"/repo","args":{"file_path":"src/main.rs"}}"#;
    group.bench_function("baseline-read-tool", |b| {
        b.iter(|| black_box(empty.evaluate(&Event::from_json(black_box(read.as_bytes())).unwrap()).unwrap()));
    });
    group.finish();
}

/// Benchmarks every request (or only those named in `only`) at every size.
fn decisions(c: &mut Criterion, group_name: &str, regexes: Regexes, only: &[&str]) {
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(1));
    for n in SIZES {
        let policy = Policy::from_source("bench.rules", &rules(n, regexes)).unwrap();
        let requests = requests(n).into_iter().filter(|(name, ..)| only.is_empty() || only.contains(name));
        bench_requests(&mut group, &policy, n, requests);
    }
    group.finish();
}

/// Times each request against `policy` (its id `NAME/n`), after checking it hits a rule or
/// none as its name says.
fn bench_requests(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    policy: &Policy,
    n: usize,
    requests: impl IntoIterator<Item = (&'static str, String, bool)>,
) {
    for (name, json, hits) in requests {
        let result = policy.evaluate(&Event::from_json(json.as_bytes()).unwrap()).unwrap();
        assert_eq!(result.matched.len(), usize::from(hits), "{name} at {n}: {result:?}");
        group.bench_with_input(BenchmarkId::new(name, n), &json, |b, json| {
            b.iter(|| {
                let event = Event::from_json(black_box(json.as_bytes())).unwrap();
                black_box(policy.evaluate(&event).unwrap())
            });
        });
    }
}

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    group.sample_size(20);
    for n in [1_000, 10_000] {
        let bundle = Policy::from_source("bench.rules", &rules(n, Regexes::Anchored)).unwrap().to_bundle();
        group.bench_with_input(BenchmarkId::new("bundle", n), &bundle, |b, bundle| {
            b.iter(|| black_box(Policy::from_bundle_bytes(black_box(bundle)).unwrap()));
        });
    }
    group.finish();
}

/// `hookc check`'s work (parse, check, static analysis) at 1,000 and 10,000 rules: the analysis
/// compares rules with rules, so this shows it stays near-linear.
fn check(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let mut sources = hookc::source::SourceMap::default();
        sources.add(hookc::source::SourceFile::new("bench.rules", rules(n, Regexes::Anchored)));
        group.bench_with_input(BenchmarkId::new("lint", n), &sources, |b, sources| {
            b.iter(|| black_box(hookc::check_sources(black_box(sources)).unwrap()));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = decision, shell, load, check
}
criterion_main!(benches);
