//! The reference loop (seed 000, P04): UserPromptSubmit → model → prepare → PreToolUse →
//! permission policy / approval → handler → PostToolUse → paired tool results → Stop.
//!
//! Invariants the loop keeps, whatever a hook does:
//! - every tool call gets exactly one paired result (blocked, denied, failed or skipped calls
//!   get an `Error [code]: …` result);
//! - a hook recommends, rewrites and blocks but never authorises: the permission policy and the
//!   user's approval still decide, and a system deny wins over a hook's allow;
//! - what approval sees is exactly what the handler gets (the prepared call is frozen);
//! - Stop forces at most one extra model turn per run.

use super::chain::HookError;
use super::message::{ChatMessage, ToolCallRequest};
use super::registry::{HookRegistry, InputCheck};
use super::tools::{Effect, PreparedCall, Tools};
use hookc_core::model::event::{Common, Event, EventData, StopInfo, ToolCall};
use hookc_core::model::result::{HookResult, Permission, ToolOutput};
use hookc_core::vocab::EventKind;
use hookc_core::LogRecord;
use std::sync::Arc;

/// The model: answers the history with one assistant message.
pub trait Model {
    /// The next assistant message.
    fn complete(&mut self, history: &[ChatMessage]) -> Result<ChatMessage, String>;
}

/// The system's own permission policy (workspace boundaries, fixed rules…).
pub trait PermissionPolicy {
    /// The system's decision for a call, with its reason. `Passthrough` means no opinion.
    fn decide(&self, call: &PreparedCall) -> (Permission, String);
}

/// Asks a person.
pub trait Approval {
    /// Whether the person approves the call.
    fn approve(&mut self, call: &PreparedCall, reason: &str) -> bool;
}

/// The default policy: reading is allowed, anything else asks.
#[derive(Debug, Clone, Copy, Default)]
pub struct EffectPolicy;

impl PermissionPolicy for EffectPolicy {
    fn decide(&self, call: &PreparedCall) -> (Permission, String) {
        match call.definition.effect {
            Effect::Read => (Permission::Allow, format!("`{}` only reads", call.definition.name)),
            Effect::Write => (Permission::Ask, format!("`{}` changes things", call.definition.name)),
        }
    }
}

/// An approval that always answers the same.
#[derive(Debug, Clone, Copy)]
pub struct FixedApproval(pub bool);

impl Approval for FixedApproval {
    fn approve(&mut self, _: &PreparedCall, _: &str) -> bool {
        self.0
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The model answered without tool calls (after at most one forced continuation).
    Completed(String),
    /// A PostToolUse hook asked to stop; the text is the stopping call's result.
    Stopped(String),
    /// The turn limit was reached.
    MaxTurns,
}

/// One step of a run, for transcripts (`hookc replay`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Step {
    /// A message added to the history.
    Message(ChatMessage),
    /// An event's hooks ran.
    Hook {
        /// The event.
        event: EventKind,
        /// The call, for tool events.
        call_id: Option<String>,
        /// Their merged result, or why they failed.
        outcome: Result<Box<HookResult>, HookError>,
        /// What their `log` actions wrote.
        logs: Vec<LogRecord>,
    },
    /// The permission decision for a call.
    Permission {
        /// The call.
        call_id: String,
        /// Allowed or not.
        allowed: bool,
        /// Why.
        reason: String,
    },
}

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// How it ended.
    pub outcome: Outcome,
    /// The final history.
    pub history: Vec<ChatMessage>,
    /// Every message and decision, in order.
    pub steps: Vec<Step>,
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// A UserPromptSubmit or Stop hook failed or broke the contract: extension errors there are
    /// never ignored.
    #[error("{0}")]
    Hook(#[from] HookError),
    /// The model failed.
    #[error("the model failed: {0}")]
    Model(String),
}

/// The loop, with its collaborators.
pub struct AgentRunner<'a> {
    /// The model.
    pub model: &'a mut dyn Model,
    /// The tools.
    pub tools: &'a mut dyn Tools,
    /// The system's permission policy.
    pub policy: &'a dyn PermissionPolicy,
    /// The person who approves `ask` decisions.
    pub approval: &'a mut dyn Approval,
    /// The hooks.
    pub hooks: &'a HookRegistry,
    /// At most this many model requests.
    pub max_turns: usize,
    /// The working directory, given to hooks as `cwd`.
    pub cwd: Option<String>,
}

/// The tool result text for a skipped call after a PostToolUse stop.
pub const SKIPPED_AFTER_STOP: &str = "Error [hook_stopped_continuation]: Skipped after PostToolUse requested a stop";

impl AgentRunner<'_> {
    fn event(&self, data: EventData) -> Event {
        Event { common: Common { cwd: self.cwd.clone(), agent: Some("native".to_string()), ..Common::default() }, data }
    }

    fn hook(&self, steps: &mut Vec<Step>, data: EventData, call_id: Option<&str>) -> Result<HookResult, HookError> {
        self.checked_hook(steps, data, call_id, None)
    }

    /// Runs an event's hooks; every run is a step, failed or not.
    fn checked_hook(
        &self,
        steps: &mut Vec<Step>,
        data: EventData,
        call_id: Option<&str>,
        check: Option<InputCheck<'_>>,
    ) -> Result<HookResult, HookError> {
        let event = self.event(data);
        let run = self.hooks.run_checked(&event, check);
        steps.push(Step::Hook {
            event: event.kind(),
            call_id: call_id.map(str::to_string),
            outcome: run.outcome.clone().map(Box::new),
            logs: run.logs,
        });
        run.outcome
    }

    /// Runs one user prompt to the end.
    pub fn run(&mut self, prompt: &str) -> Result<RunReport, RunError> {
        let mut steps = Vec::new();
        let mut history = Vec::new();
        // The hook judges the prompt before it enters the history; the transcript shows the
        // prompt first, then the decision.
        let submitted = ChatMessage::user(prompt);
        steps.push(Step::Message(submitted.clone()));
        let prompt_hook = self.hook(&mut steps, EventData::UserPromptSubmit { prompt: prompt.to_string() }, None)?;
        history.push(submitted);
        for context in prompt_hook.additional_context {
            push(&mut history, &mut steps, ChatMessage::system(context));
        }
        let mut stop_hook_active = false;
        for _ in 0..self.max_turns {
            let reply = self.model.complete(&history).map_err(RunError::Model)?;
            let calls = reply.tool_calls.clone();
            let answer = reply.content.clone();
            push(&mut history, &mut steps, reply);
            if calls.is_empty() {
                // A run is one prompt's turn: its whole history.
                let stop = StopInfo {
                    stop_hook_active,
                    tool_calls: Some(tool_results(&history)),
                    last_message: Some(answer.clone()),
                    calls: Some(
                        history
                            .iter()
                            .flat_map(|message| message.tool_calls.iter().map(|call| turn_call(call, &history)))
                            .collect(),
                    ),
                };
                // The registry drops a second forced continuation; Stop context enters the
                // history only with a continuation (nothing reads it after the final answer).
                let stop_hook = self.hook(&mut steps, EventData::Stop(stop), None)?;
                let Some(message) = stop_hook.force_continue else {
                    return Ok(RunReport { outcome: Outcome::Completed(answer), history, steps });
                };
                for context in stop_hook.additional_context {
                    push(&mut history, &mut steps, ChatMessage::system(context));
                }
                push(&mut history, &mut steps, ChatMessage::user(message));
                stop_hook_active = true;
                continue;
            }
            let turn = self.tool_turn(&calls, &mut steps);
            for (call, result) in calls.iter().zip(&turn.results) {
                push(&mut history, &mut steps, ChatMessage::tool(&call.id, result));
            }
            for context in turn.context {
                push(&mut history, &mut steps, ChatMessage::system(context));
            }
            if let Some(stopping) = turn.stopped_by {
                let result = turn.results.get(stopping).cloned().unwrap_or_default();
                return Ok(RunReport { outcome: Outcome::Stopped(result), history, steps });
            }
        }
        Ok(RunReport { outcome: Outcome::MaxTurns, history, steps })
    }

    /// Runs one reply's tool calls: one result per call, whatever happens.
    fn tool_turn(&mut self, calls: &[ToolCallRequest], steps: &mut Vec<Step>) -> Reply {
        let mut turn = Reply::default();
        for (index, call) in calls.iter().enumerate() {
            if turn.stopped_by.is_some() {
                turn.results.push(SKIPPED_AFTER_STOP.to_string());
                continue;
            }
            let result = match self.tools.prepare(call) {
                Err(error) => error,
                Ok(prepared) => self.call(prepared, steps, &mut turn, index),
            };
            turn.results.push(result);
        }
        turn
    }

    /// PreToolUse → permission → handler → PostToolUse for one prepared call; the call's result.
    fn call(&mut self, prepared: PreparedCall, steps: &mut Vec<Step>, turn: &mut Reply, index: usize) -> String {
        let tool_call = |call: &PreparedCall| ToolCall {
            tool: call.definition.name.clone(),
            args: (*call.args).clone(),
            id: Some(call.id.clone()),
            outcome: None,
        };
        // Each hook's rewrite is validated against the call's own definition as that hook
        // returns it; the call id, the tool and its definition cannot change (a hook returns
        // arguments only).
        let definition = Arc::clone(&prepared.definition);
        let check = move |args: &serde_json::Map<String, serde_json::Value>| {
            definition.validate(args).map_err(|error| error.to_string())
        };
        let pre =
            self.checked_hook(steps, EventData::PreToolUse(tool_call(&prepared)), Some(&prepared.id), Some(&check));
        let pre = match pre {
            Ok(pre) => pre,
            // The model reads the seed's one text; the observers and the audit saw the detail.
            Err(error @ HookError::Contract { .. }) => {
                return format!("Error [hook_contract_error]: {}", error.for_model(EventKind::PreToolUse))
            }
            Err(HookError::Execution { .. }) => {
                return "Error [hook_execution_error]: PreToolUse hook failed".to_string()
            }
        };
        turn.context.extend(pre.additional_context.iter().cloned());
        if let Some(error) = &pre.blocking_error {
            return error.to_string();
        }
        // The rewrite, checked, is frozen anew: approval and the handler see the same copy.
        let effective = match &pre.updated_input {
            None => prepared,
            Some(args) => PreparedCall { args: Arc::new(args.clone()), ..prepared },
        };
        let (system, system_reason) = self.policy.decide(&effective);
        let hook_reason = pre.permission_reason.clone().unwrap_or_else(|| pre.permission_behavior.default_reason());
        let (decision, reason) = if pre.permission_behavior > system {
            (pre.permission_behavior, hook_reason)
        } else {
            (system, system_reason)
        };
        let allowed = match decision {
            Permission::Deny => false,
            Permission::Ask => self.approval.approve(&effective, &reason),
            Permission::Allow | Permission::Passthrough => true,
        };
        steps.push(Step::Permission { call_id: effective.id.clone(), allowed, reason: reason.clone() });
        if !allowed {
            let reason = if decision == Permission::Ask { "not approved".to_string() } else { reason };
            return format!("Error [permission_denied]: {reason}");
        }
        let output = self.tools.invoke(&effective);
        let post = self.hook(steps, EventData::PostToolUse(tool_call(&effective), output.clone()), Some(&effective.id));
        let post = match post {
            Ok(post) => post,
            // The handler ran: the result says the hook failed, not that nothing happened.
            Err(_) => return "Error [hook_execution_error]: PostToolUse hook failed".to_string(),
        };
        turn.context.extend(post.additional_context.iter().cloned());
        if post.prevent_continuation {
            turn.stopped_by = Some(index);
        }
        let ToolOutput { content, .. } = post.updated_output.unwrap_or(output);
        content
    }
}

/// One reply's tool results and what they asked for.
#[derive(Default)]
struct Reply {
    results: Vec<String>,
    context: Vec<String>,
    stopped_by: Option<usize>,
}

fn push(history: &mut Vec<ChatMessage>, steps: &mut Vec<Step>, message: ChatMessage) {
    steps.push(Step::Message(message.clone()));
    history.push(message);
}

/// A call of the run as a Stop sees it, with the outcome its result reports: the seed's results
/// of a call that failed or was refused read `Error [code]: …`.
fn turn_call(call: &ToolCallRequest, history: &[ChatMessage]) -> ToolCall {
    let result = history.iter().find(|message| message.tool_call_id.as_deref() == Some(call.id.as_str()));
    let outcome = result.map(|result| hookc_core::model::event::CallOutcome {
        ok: !result.content.starts_with("Error ["),
        status: None,
    });
    ToolCall { tool: call.tool.clone(), args: call.args.clone(), id: Some(call.id.clone()), outcome }
}

fn tool_results(history: &[ChatMessage]) -> u64 {
    history.iter().filter(|message| message.role == super::message::Role::Tool).count() as u64
}
