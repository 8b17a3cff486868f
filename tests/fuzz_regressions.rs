//! Every input a fuzzing campaign kept (`fuzz/regressions/TARGET/*`), replayed on stable through
//! the same oracles the fuzz targets run (`tests/oracles.rs`), so CI keeps each finding fixed.

use crate::oracles;
use std::path::Path;

#[test]
fn every_kept_fuzz_input_passes_its_oracle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    type Oracle = fn(&[u8]);
    let targets: [(&str, Oracle); 11] = [
        ("adapter", oracles::adapter),
        ("event", oracles::event),
        ("bundle", oracles::bundle),
        ("check", oracles::check),
        ("format", oracles::format),
        ("policy", oracles::policy),
        ("shell", oracles::shell),
        ("python", oracles::python),
        ("javascript", oracles::javascript),
        ("lexical", oracles::lexical),
        ("lsp", oracles::lsp),
    ];
    let mut replayed = 0;
    for (target, oracle) in targets {
        let dir = root.join(target);
        let mut inputs: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        inputs.sort();
        for input in inputs.iter().filter(|path| path.file_name().is_some_and(|name| name != ".gitkeep")) {
            let data = std::fs::read(input).unwrap();
            if let Err(panic) = std::panic::catch_unwind(|| oracle(&data)) {
                let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
                panic!("{target}: {} fails its oracle: {message}", input.display());
            }
            replayed += 1;
        }
    }
    assert!(replayed >= 6, "only {replayed} kept inputs");
}
