//! What reading a line costs with the shipped baseline: shell lines that run no other language,
//! and one-liners of about 1 KB in Python, Node, Perl and Ruby. Each decision is timed on its
//! own, from the request's JSON, over many rounds; prints p50 and p99 per kind. It uses only the
//! public API, so `benches/compare.sh readers REV` builds this same file at an older commit and
//! runs both in one run, alternating, for ratios. Run: `cargo bench --bench readers`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::cast_possible_truncation, clippy::cast_precision_loss, clippy::cast_sign_loss)]

use hookc::{Event, Policy};

use std::time::{Duration, Instant};

/// Rounds over each kind's lines.
const ROUNDS: usize = 400;

/// Shell lines as agents send them, none running another language's code.
const SHELL: &[&str] = &[
    "ls -la",
    "git status && git diff --stat",
    "cargo test --workspace 2>&1 | tail -n 20",
    "npm run build && npm test",
    "grep -rn 'TODO' src/ | head -50",
    "find . -name '*.rs' -not -path './target/*' | xargs wc -l | sort -n | tail",
    "cd crates/core && cargo clippy --all-targets -- -D warnings",
    "rm -rf build/ dist/ && mkdir -p build",
    "docker compose ps && docker compose logs --tail=50 api",
    "for f in tests/*.py; do python3 -m pytest -q \"$f\" || exit 1; done",
    "curl -s https://api.github.com/repos/rust-lang/rust | jq .stargazers_count",
    "git log --oneline -20 | awk '{print $1}' | xargs -n1 git show --stat",
    "sed -i 's/old_name/new_name/g' src/*.rs && cargo fmt",
    "tar czf release.tar.gz target/release/hookc README.md LICENSE",
    "kubectl get pods -n staging -o wide | grep -v Running",
    "export RUST_LOG=debug; ./target/debug/server --port 8080 &",
];

/// About 1 KB of code in `language`, as an agent writes a one-liner: imports, a loop over
/// files, a subprocess, a JSON read.
fn one_liner(language: &str, n: usize) -> String {
    let body = |unit: &str| unit.repeat(1024 / unit.len() + 1);
    match language {
        "python" => format!(
            "python3 -c 'import json, os, subprocess, sys\nfrom pathlib import Path\n{}print(subprocess.run([\"git\", \"status\"], capture_output=True).stdout)\n'",
            body(&format!("for p in Path(\"src{n}\").glob(\"*.py\"):\n    data = json.loads(p.read_text()) if p.suffix == \".json\" else p.stat().st_size\n    print(p, data)\n"))
        ),
        "node" => format!(
            "node -e 'const fs = require(\"fs\"); const cp = require(\"child_process\");\n{}console.log(cp.execSync(\"git status\").toString());'",
            body(&format!("for (const f of fs.readdirSync(\"src{n}\")) {{ const s = fs.statSync(\"src{n}/\" + f); console.log(f, s.size); }}\n"))
        ),
        "perl" => format!(
            "perl -e 'use strict; use warnings;\n{}system(\"git\", \"status\");'",
            body(&format!("for my $f (glob(\"src{n}/*.pl\")) {{ open(my $fh, \"<\", $f) or die; my @l = <$fh>; print \"$f: \", scalar(@l), \"\\n\"; }}\n"))
        ),
        _ => format!(
            "ruby -e 'require \"json\"\n{}puts `git status`'",
            body(&format!("Dir.glob(\"src{n}/*.rb\").each {{ |f| puts \"#{{f}}: #{{File.read(f).lines.count}}\" }}\n"))
        ),
    }
}

fn percentile(sorted: &[Duration], fraction: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * fraction) as usize].as_secs_f64() * 1e6
}

/// Times each line's decision, `ROUNDS` times over: p50 and p99 in µs.
fn measure(policy: &Policy, lines: &[String]) -> (f64, f64) {
    let requests: Vec<String> = lines
        .iter()
        .map(|line| {
            serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": "/repo", "project_root": "/repo", "args": {"command": line}})
                .to_string()
        })
        .collect();
    let mut times = Vec::with_capacity(ROUNDS * requests.len());
    for _ in 0..ROUNDS {
        for request in &requests {
            let start = Instant::now();
            let event = Event::from_json(request.as_bytes()).unwrap();
            let result = policy.evaluate(&event);
            std::hint::black_box(&result);
            times.push(start.elapsed());
        }
    }
    times.sort();
    (percentile(&times, 0.5), percentile(&times, 0.99))
}

fn main() {
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let policy = Policy::from_paths(&[rules]).unwrap();
    let shell: Vec<String> = SHELL.iter().map(|line| (*line).to_string()).collect();
    let (p50, p99) = measure(&policy, &shell);
    println!("shell lines, no other language: p50 {p50:>8.2} µs   p99 {p99:>8.2} µs");
    for language in ["python", "node", "perl", "ruby"] {
        let lines: Vec<String> = (0..8).map(|n| one_liner(language, n)).collect();
        let size = lines[0].len();
        let (p50, p99) = measure(&policy, &lines);
        println!("{language:>6} one-liners, {size} bytes: p50 {p50:>8.2} µs   p99 {p99:>8.2} µs");
    }
}
