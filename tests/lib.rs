//! hookc's integration tests: one binary, a module per concern, fixtures as data.

// Tests fail by panicking; the library's no-panic lints do not apply here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod agent;
mod agents;
mod architecture;
mod baseline;
mod benign;
mod bundle;
mod bypasses;
mod cache;
mod cli;
mod corpus;
mod diagnostics;
mod docs;
mod eval_table;
mod explain;
mod fleet;
mod fmt;
mod fuzz_regressions;
mod lsp;
mod oracles;
mod paths;
mod redaction;
mod release;
mod replay;
mod respell;
mod support;
mod transcripts;
mod waivers;
