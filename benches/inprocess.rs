//! The Rust side of `benches/inprocess.mjs`: the shipped rules, the same events, JSON text in and
//! JSON text out, within the hook call's compile budget as the bindings decide (`evaluate_bounded`),
//! many times; the median per decision of several rounds. The Node binding's figure
//! is compared with this one (`cargo bench --bench inprocess`, then `node benches/inprocess.mjs`).
//! `HOOKC_BENCH_RULES=DIR` decides with other rules (an older commit's shipped ones, to time this
//! engine on the same policy).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::cast_precision_loss)]

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let rules =
        std::env::var("HOOKC_BENCH_RULES").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/rules").into());
    let policy = hookc::Policy::from_paths(&[rules]).unwrap();
    let events = [
        ("rm -rf ~ (denied)", r#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"rm -rf ~"}}"#),
        (
            "a write (nothing matches)",
            r#"{"event":"pre_tool_use","tool":"Write","cwd":"/repo","args":{"file_path":"/repo/src/a.rs","content":"x"}}"#,
        ),
    ];
    for (name, text) in events {
        let mut rounds: Vec<f64> = (0..7)
            .map(|_| {
                let n = 20_000;
                let start = std::time::Instant::now();
                for _ in 0..n {
                    let event = hookc::Event::from_json(std::hint::black_box(text.as_bytes())).unwrap();
                    let result = policy.evaluate_bounded(&event).unwrap();
                    std::hint::black_box(serde_json::to_string(&result).unwrap());
                }
                start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
            })
            .collect();
        rounds.sort_by(f64::total_cmp);
        println!("rust, {name}: {:.2} µs per decision (median of 7 rounds of 20,000)", rounds[3]);
    }
}
