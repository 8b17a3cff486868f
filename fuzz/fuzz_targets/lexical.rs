//! Fuzz target `lexical`: see the oracle of the same name in `tests/oracles.rs`.
#![no_main]

#[path = "../../tests/oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::lexical(data));
