//! # hookc-core — the language and the engine
//!
//! A declarative policy-and-hook engine for AI coding agents. Security teams write rules; hookc
//! checks them, compiles them into an indexed decision table, and evaluates that table at each
//! hook point of an agent's loop, returning a structured [`HookResult`].
//!
//! ```text
//! *.rules ─ syntax::parse ─▶ Ast ─ check::check ─▶ Checked ─ DecisionTable::new ─▶ table
//!                                                                                 │
//!                                       Event ─ eval::evaluate(table, event) ─▶ HookResult
//! ```
//!
//! Each stage lives in its own private module and hands a new type to the next; nothing
//! downstream re-parses text. The public surface is [`Policy`], which runs the whole pipeline;
//! the data model ([`model`]); the vocabulary of events, fields, actions and every agent's tools
//! ([`vocab`]); the path model ([`paths`]); diagnostics and rule sources; the bundle format; and
//! the audit record ([`audit`]).
//!
//! This crate is the ground floor of the workspace: it imports no other hookc crate, and no
//! command-line, editor, signing or agent-protocol library (clap, lsp-server, toml_edit,
//! minisign). The agents' protocols are `hookc-agents`, the embedding runtime `hookc-runtime`,
//! the application `hookc-cli`; the crate `hookc` re-exports the public API of all three.
//! Signatures are checked through [`SignatureCheck`], which the application implements.
//!
//! ```
//! use hookc_core::{Event, Permission, Policy};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let policy = Policy::from_source("example.rules", r#"
//!     rule protect-generated
//!     pre_tool_use when kind == write and path == "generated.txt"
//!       => block "hook_blocked" "generated.txt is managed elsewhere"
//!
//!     rule no-rm-root
//!     pre_tool_use when kind == shell and command matches /rm\s+-rf\s+\//
//!       => deny "destructive command: {command}"
//! "#)?;
//!
//! let event = Event::from_json(br#"{"event": "pre_tool_use", "tool": "write_file",
//!     "args": {"path": "./generated.txt", "content": "x"}}"#)?;
//! let result = policy.evaluate(&event)?;
//! assert_eq!(result.blocking_error.unwrap().to_string(),
//!            "Error [hook_blocked]: generated.txt is managed elsewhere");
//!
//! let event = Event::from_json(br#"{"event": "pre_tool_use", "tool": "bash",
//!     "args": {"command": "rm -rf /"}}"#)?;
//! assert_eq!(policy.evaluate(&event)?.permission_behavior, Permission::Deny);
//! # Ok(())
//! # }
//! ```
//!
//! A compiled bundle (`hookc compile rules/ -o policy.hcb`) loads with [`Policy::load_bundle`]
//! and gives the same results.
//!
//! Hooks recommend, rewrite and block, but never authorise: an `allow` is a recommendation to
//! the agent's own permission policy, and any system deny wins over it.

#![warn(unreachable_pub)]

// The stages (syntax → check → compile → eval; explain, fmt, testing beside them) are private
// to the crate; the public API is the modules and re-exports below.
mod check;
pub mod clock;
mod compile;
mod eval;
mod explain;
mod fmt;
mod ir;
mod pattern;
mod policy;
mod shell;
mod syntax;
pub mod testing;

pub mod audit;
pub mod builtin;
pub mod bundle;
pub mod diagnostic;
pub mod model;
pub mod paths;
pub mod redact;
pub mod source;
pub mod vocab;

pub use check::rule_name_matches;
pub use ir::{day_of, today, Lift};

/// Whether a rule file parses (its syntax alone; nothing is checked): the language server reads
/// the sibling files that do, for the names they define.
pub fn parses(file: &source::SourceFile) -> bool {
    syntax::parse(0, file).is_ok()
}

pub use eval::{EvalError, Evaluation, LogRecord, Waived, Would};
pub use explain::{explain, Explanation, RuleTrace, TestTrace};
pub use fmt::{comment_texts, format, with_list_values};
pub use model::{BlockingError, Event, EventData, HookResult, Permission, ToolOutput};
pub use paths::{PathCase, PathSettings};
pub use policy::{check_sources, check_sources_for, LoadError, Policy, SignatureCheck};
pub use shell::remote_url_host;
pub use vocab::agents::{self as agents, Agent};
pub use vocab::{EventKind, Kind};
