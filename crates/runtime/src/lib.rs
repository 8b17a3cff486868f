//! # hookc-runtime — the embedding runtime
//!
//! The hook runtime an agent embeds: a [`HookRegistry`] (rule sets, native callbacks and
//! observers) and the reference loop [`AgentRunner`] that calls it at the four hook points in
//! the seed's order, with a [`ScriptedModel`] for tests; and [`JsonSteps`], the same run for a
//! binding's registry whose callbacks live in another language. See `docs/embedding.md`.
//!
//! This crate sits on `hookc-core` and `hookc-agents`; the language bindings (`bindings/`) build
//! on it and on nothing above it.

#![warn(unreachable_pub)]

pub use hookc_core::audit;
mod binding;
mod chain;
mod message;
mod registry;
mod runner;
mod scripted;
pub mod session;
mod steps;
mod tools;

pub use binding::{answer, evaluate_json, event_name, failure_json, read_event, Failure, FailureCode, JsonSteps};
pub use chain::{validate_for, HookError, INVALID_UPDATE};
pub use message::{check_pairing, ChatMessage, PairingError, Role, ToolCallRequest};
pub use registry::{Callback, Hook, HookRegistry, HookRun, InputCheck, Observation, Observer};
pub use runner::{
    AgentRunner, Approval, EffectPolicy, FixedApproval, Model, Outcome, PermissionPolicy, RunError, RunReport, Step,
    SKIPPED_AFTER_STOP,
};
pub use scripted::{ScriptedModel, ScriptedTools};
pub use steps::{Need, Slot, SlotKind, Steps, Verdict};
pub use tools::{ArgType, Effect, PreparedCall, ToolDefinition, Tools};
