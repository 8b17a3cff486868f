//! Authoring at any size: `hookc check` (parse, check, the static analysis, and the rendered
//! warnings a person reads) against `compile` (the same rules into a decision table), at 10,000
//! and 100,000 generated rules, in one run. Two shapes:
//! - `mixed`: equality, regex, glob and `runs` rules in equal parts;
//! - `pairs`: allow and deny rules on one tool whose conditions differ in a `contains` literal,
//!   which a pairwise lint that compared every pair of rules took quadratic time over.
//!
//! Prints each time (best of `ROUNDS`) and the ratios issue 34 holds: check within 2x of compile
//! at 100,000 rules, and check at 100,000 within 15x of check at 10,000.
//! Run: `cargo bench --bench authoring`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use hookc::source::{SourceFile, SourceMap};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

const ROUNDS: usize = 3;

fn mixed(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        let _ = match i % 4 {
            0 => writeln!(
                text,
                "rule eq-{i} pre_tool_use when tool == Write and path == \"src/f{i}.rs\" => deny \"eq {i}\""
            ),
            1 => writeln!(
                text,
                "rule re-{i} pre_tool_use when kind == shell and command matches /\\bcmd{i}\\b/ => ask \"re {i}\""
            ),
            2 => writeln!(text, "rule gl-{i} pre_tool_use when path like \"assets/d{i}/**/*.png\" => ask \"gl {i}\""),
            _ => writeln!(
                text,
                "rule ru-{i} pre_tool_use when runs \"prog{}\" (flags in [x{i}]) => deny \"ru {i}\"",
                i % 50
            ),
        };
    }
    text
}

fn pairs(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        let _ = if i % 2 == 0 {
            writeln!(text, "rule a-{i} pre_tool_use when tool == Bash and command contains \"x{i}\" => allow \"a {i}\"")
        } else {
            writeln!(text, "rule d-{i} pre_tool_use when tool == Bash and command contains \"y{i}\" => deny \"d {i}\"")
        };
    }
    text
}

fn best(mut work: impl FnMut()) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .min()
        .unwrap()
}

fn main() {
    for (shape, generate) in [("mixed", mixed as fn(usize) -> String), ("pairs", pairs)] {
        let mut times = Vec::new();
        for n in [10_000, 100_000] {
            let mut sources = SourceMap::default();
            sources.add(SourceFile::new("bench.rules", generate(n)));
            // What `hookc check` does: every finding, rendered as it prints them.
            let check = best(|| {
                let findings = match hookc::check_sources(&sources) {
                    Ok(checked) => checked.warnings,
                    Err(errors) => errors,
                };
                std::hint::black_box(hookc::diagnostic::render(&findings, &sources, false));
            });
            let compile = best(|| {
                std::hint::black_box(hookc::Policy::from_sources(&sources).unwrap());
            });
            println!(
                "{shape:>5} {n:>7} rules: check {:>8.3} s, compile {:>8.3} s, check/compile {:.2}x",
                check.as_secs_f64(),
                compile.as_secs_f64(),
                check.as_secs_f64() / compile.as_secs_f64()
            );
            times.push(check);
        }
        println!("{shape:>5} check 100,000 / 10,000: {:.1}x", times[1].as_secs_f64() / times[0].as_secs_f64());
    }
}
