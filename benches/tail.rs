//! The tail of the decision time, and how ready a large bundle is: rule sets of 100, 1,000
//! and 10,000 rules in the mix a security team writes (half equality on tool and path, a
//! quarter regexes sharing a head, `rm\s+-rf\s+/dir_N/`, a quarter prefixes or globs under one
//! directory), 1,000 distinct requests of which 1% hit a rule, each decision timed on its own
//! from the request's JSON. Prints p50 and p99 over all requests, p50 of those nothing matches,
//! and the time from a bundle's text to its first decision. Run: `cargo bench --bench tail`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]

use hookc::{Event, Policy};
use std::time::{Duration, Instant};

/// Rounds over the 1,000 requests.
const ROUNDS: usize = 30;

fn rules(n: usize) -> String {
    (0..n)
        .map(|i| match i % 8 {
            0..=3 => format!(
                "rule eq-{i} pre_tool_use when tool == tool_{} and path == \"src/file_{i}.rs\" => deny \"eq\"\n",
                i % 50
            ),
            4 | 5 => {
                format!("rule rm-{i} pre_tool_use when command matches /rm\\s+-rf\\s+\\/dir_{i}\\// => deny \"rm\"\n")
            }
            6 => format!("rule glob-{i} pre_tool_use when path like \"assets/**/dir{i}/*.png\" => ask \"glob\"\n"),
            _ => format!("rule prefix-{i} pre_tool_use when command starts_with \"tool{i} \" => ask \"prefix\"\n"),
        })
        .collect()
}

/// 1,000 distinct requests; every hundredth hits a rule of the set.
fn requests(n: usize) -> Vec<(String, bool)> {
    (0..1_000)
        .map(|k| {
            let hit = k % 100 == 0;
            let i = if hit { (k * 7919) % n } else { 8 * (n + k) };
            let json = match (k / 4) % 4 {
                0 => format!(
                    r#"{{"event":"pre_tool_use","tool":"tool_{}","args":{{"path":"src/file_{}.rs","content":"x"}}}}"#,
                    (i - i % 8) % 50,
                    i - i % 8
                ),
                1 => format!(r#"{{"event":"pre_tool_use","tool":"Bash","args":{{"command":"rm -rf /dir_{}/tmp"}}}}"#, i - i % 8 + 4),
                2 => format!(r#"{{"event":"pre_tool_use","tool":"Write","args":{{"file_path":"assets/a/dir{}/x.png","content":"x"}}}}"#, i - i % 8 + 6),
                _ => format!(r#"{{"event":"pre_tool_use","tool":"Bash","args":{{"command":"tool{} run"}}}}"#, i - i % 8 + 7),
            };
            (json, hit)
        })
        .collect()
}

fn percentile(sorted: &[Duration], fraction: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * fraction) as usize].as_secs_f64() * 1e6
}

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    for n in [100, 1_000, 10_000] {
        let policy = Policy::from_source("tail.rules", &rules(n)).unwrap();
        let requests = requests(n);
        let (mut all, mut misses) = (Vec::new(), Vec::new());
        for (json, hit) in &requests {
            let result = policy.evaluate(&Event::from_json(json.as_bytes()).unwrap()).unwrap();
            assert_eq!(!result.matched.is_empty(), *hit, "{json}: {result:?}");
        }
        for _ in 0..ROUNDS {
            for (json, hit) in &requests {
                let started = Instant::now();
                let event = Event::from_json(json.as_bytes()).unwrap();
                std::hint::black_box(policy.evaluate(&event).unwrap());
                let took = started.elapsed();
                all.push(took);
                if !hit {
                    misses.push(took);
                }
            }
        }
        all.sort();
        misses.sort();
        // Ready: from the bundle's text to the first decision, as a hook process does.
        let bundle = policy.to_bundle();
        let mut ready: Vec<Duration> = (0..10)
            .map(|_| {
                let started = Instant::now();
                let loaded = Policy::from_bundle_bytes(&bundle).unwrap();
                let event = Event::from_json(requests[1].0.as_bytes()).unwrap();
                std::hint::black_box(loaded.evaluate(&event).unwrap());
                started.elapsed()
            })
            .collect();
        ready.sort();
        println!(
            "{n:>6} rules: p50 {:>6.2} µs   p99 {:>6.2} µs   no-match p50 {:>6.2} µs   no-match p99 {:>6.2} µs   bundle ready {:>6.2} ms",
            percentile(&all, 0.5),
            percentile(&all, 0.99),
            percentile(&misses, 0.5),
            percentile(&misses, 0.99),
            percentile(&ready, 0.5) / 1e3
        );
    }
}
