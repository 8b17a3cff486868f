//! # hookc — hooks as data
//!
//! A declarative policy-and-hook engine for AI coding agents. Security teams write rules; hookc
//! checks them, compiles them into an indexed decision table, and evaluates that table at each
//! hook point of an agent's loop, returning a structured [`HookResult`].
//!
//! ```
//! use hookc::{Event, Permission, Policy};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let policy = Policy::from_source("example.rules", r#"
//!     rule no-rm-root
//!     pre_tool_use when kind == shell and command matches /rm\s+-rf\s+\//
//!       => deny "destructive command: {command}"
//! "#)?;
//! let event = Event::from_json(br#"{"event": "pre_tool_use", "tool": "bash",
//!     "args": {"command": "rm -rf /"}}"#)?;
//! assert_eq!(policy.evaluate(&event)?.permission_behavior, Permission::Deny);
//! # Ok(())
//! # }
//! ```
//!
//! This crate is the public Rust API, gathered from the workspace's layers, each a crate the
//! compiler holds apart:
//!
//! | crate | what it owns | may import |
//! |---|---|---|
//! | `hookc-core` | the language and the engine: sources, syntax, check, compile, eval, bundles, the shell reader, paths, the audit record | no other hookc crate |
//! | `hookc-agents` | each agent's hook protocol: payloads in, answers out ([`answer_hook`]), transcripts | core |
//! | `hookc-runtime` | the embedding runtime: the registry, the reference loop, what the bindings drive ([`runtime`]) | core, agents |
//! | `hookc-cli` | the application: the verbs, the compiled-rules cache, the LSP, signing, settings wiring | all of the above |
//!
//! The `hookc` binary is this package's `cli` feature (on by default); a library user who turns
//! it off (`default-features = false`) compiles none of the application's dependencies.

pub use hookc_core::*;

pub use hookc_agents::{answer_hook, hook_event, HookAnswer, HookFailure, HookOptions};

/// The embedding runtime (`hookc-runtime`): the hook registry, the reference loop and what the
/// language bindings drive.
pub use hookc_runtime as runtime;

/// Signed bundles (`hookc-signing`, the `signing` feature): the minisign [`signing::TrustKey`]
/// that [`Policy::load_bundle_trusted`] checks a bundle's signature with.
#[cfg(feature = "signing")]
pub use hookc_signing as signing;
