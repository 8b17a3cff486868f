//! # hookc-agents — the agents' hook protocols
//!
//! Most agents run hookc as a *command hook*: they write a JSON event on stdin
//! and read a decision from stdout and the exit code. Each agent is one file of data
//! (`vocab::agents`); [`payload`] maps any agent's payload to a native [`Event`] by that file,
//! and [`answer`] writes the merged [`HookResult`] back with the strategy it names. [`decide`]
//! does the rest the same way for all of them.
//!
//! **Failing closed.** For most agents exit 2 blocks the action and shows stderr, and any other
//! non-zero exit lets the call proceed: a crashing policy hook would silently disable the
//! policy. So every failure here (unreadable input, unknown event, unreadable rules or bundle,
//! an evaluation error) is a [`HookFailure`], answered with exit 2 and a one-line reason (or a
//! refusal in the agent's dialect, where exit 2 does not block), unless the user chose
//! `--fail-open`.
//!
//! This crate sits on `hookc-core` and imports no other hookc crate: the embedding runtime and
//! the command line build on it. It holds no cache, no settings writer and no signing; a caller
//! that keeps compiled policies acts on [`HookAnswer::bundle_damaged`] itself.

#![warn(unreachable_pub)]

mod answer;
mod failure;
mod output;
mod payload;
mod stdin;
pub mod transcript;

pub use failure::HookFailure;

use answer::Reply;
use hookc_core::audit::AuditLog;
use hookc_core::audit::Observation;
use hookc_core::model::escape_controls;
use hookc_core::model::event::Event;
use hookc_core::model::result::Permission;
use hookc_core::vocab::agents::Agent;
use hookc_core::vocab::EventKind;
use hookc_core::Evaluation;
use hookc_core::Policy;
use payload::{Mapped, Said};
use std::io::Read;
pub use stdin::read_payload;

/// Runs one hook call: maps the payload, evaluates, and returns the answer with the `log`
/// lines, or the failure to report. `policy` is loaded by the caller (a load failure is a
/// failure too).
fn decide(
    agent: &'static Agent,
    policy: &Policy,
    payload: &[u8],
    options: &HookOptions<'_>,
) -> Result<(Reply, Vec<String>), HookFailure> {
    let mapped = native(agent, policy, payload, options)
        .inspect_err(|failure| unmapped(options, agent, Some(payload), failure))?;
    let evaluation = policy.evaluate_full_bounded(&mapped.event).map_err(|error| {
        record(options.audit, policy, &mapped, Err(&error.to_string()));
        HookFailure::Eval(error)
    })?;
    record(options.audit, policy, &mapped, Ok(&evaluation));
    let mut lines = log_lines(&evaluation);
    // An approval on the person's behalf is said every time, audited or not.
    if let (EventKind::PermissionRequest, Permission::Allow) =
        (mapped.context.kind, evaluation.result.permission_behavior)
    {
        lines.push(format!(
            "hookc: approved `{}` on the person's behalf (rules: {})",
            escape_controls(&hookc_core::redact::apply(policy.redaction(), &mapped.context.tool)),
            evaluation.result.matched.join(", ")
        ));
    }
    Ok((answer::render(&mapped.context, &evaluation.result), lines))
}

/// The agent's payload as the native event the policy evaluates: mapped, its paths anchored at
/// the project root, and a Stop's turn read from the agent's transcript when the policy has
/// rules for the event.
fn native(
    agent: &'static Agent,
    policy: &Policy,
    payload: &[u8],
    options: &HookOptions<'_>,
) -> Result<Mapped, HookFailure> {
    let mut mapped = payload::map(agent, payload, options.event.as_deref())?;
    let event = &mut mapped.event;
    if let Some(root) = &options.project_root {
        event.common.project_root = Some(root.clone());
    }
    let has_rules = policy.has_rules_for(event.kind());
    if let (Some(source), Some(stop), true) = (&mapped.turn, event.stop_info_mut(), has_rules) {
        source.apply(stop);
    }
    Ok(mapped)
}

/// The native event an agent's hook payload becomes, exactly as `hookc hook AGENT` evaluates
/// it: mapped by the agent's file, its paths anchored at the project root, a Stop's turn read
/// from the agent's transcript when the policy has rules for the event (`eval --agent`,
/// `explain --agent`, and embedders that decide on agent payloads themselves).
pub fn hook_event(
    agent: &'static Agent,
    policy: &Policy,
    payload: &[u8],
    options: &HookOptions<'_>,
) -> Result<Event, HookFailure> {
    Ok(native(agent, policy, payload, options)?.event)
}

/// What one command-hook call prints and exits with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookAnswer {
    /// The JSON line for stdout, if any.
    pub stdout: Option<String>,
    /// The exit code: 0 (the agent reads stdout) or 2 (the action is blocked; stderr says why).
    pub exit: u8,
    /// Lines for stderr, each one line (control characters escaped).
    pub stderr: Vec<String>,
    /// The policy's compiled bundle failed its block check during this call (the call failed
    /// closed): a caller that loaded the policy from a cache drops that entry, so that the next
    /// call compiles the rules again. Nothing here knows of caches.
    pub bundle_damaged: bool,
}

/// How a hook call is answered beyond the policy and the payload. Closed to struct literals
/// outside this crate (a field added later breaks no caller): start from
/// `HookOptions::default()` and set what differs with the `with_` methods.
#[derive(Default)]
#[non_exhaustive]
pub struct HookOptions<'a> {
    /// Where decisions are recorded.
    pub audit: Option<&'a AuditLog>,
    /// The project root, overriding what the agent tells its hooks.
    pub project_root: Option<String>,
    /// Let the call proceed, with a warning, when the policy cannot decide.
    pub fail_open: bool,
    /// The agent's name for the event, for agents whose payload does not say
    /// (`hookc hook AGENT --event NAME`).
    pub event: Option<String>,
}

impl<'a> HookOptions<'a> {
    /// Decisions recorded in `audit`.
    pub fn with_audit(mut self, audit: Option<&'a AuditLog>) -> Self {
        self.audit = audit;
        self
    }

    /// The project root, overriding what the agent tells its hooks.
    pub fn with_project_root(mut self, root: Option<String>) -> Self {
        self.project_root = root;
        self
    }

    /// Let the call proceed, with a warning, when the policy cannot decide.
    pub fn with_fail_open(mut self, fail_open: bool) -> Self {
        self.fail_open = fail_open;
        self
    }

    /// The agent's name for the event, where its payload does not say.
    pub fn with_event(mut self, event: Option<String>) -> Self {
        self.event = event;
        self
    }
}

/// Answers one command-hook call in-process, exactly as `hookc hook AGENT` does, with the
/// payload read from `input` ([`answer_payload`] also takes a policy that could not be loaded,
/// which fails the call like any other failure).
pub fn answer_hook(agent: &'static Agent, policy: &Policy, input: impl Read, options: &HookOptions<'_>) -> HookAnswer {
    let payload = read_payload(input);
    answer_payload(agent, Ok(policy), payload.as_deref().map_err(Clone::clone), options)
}

/// Answers one call whose payload has been read (or could not be).
pub fn answer_payload(
    agent: &'static Agent,
    policy: Result<&Policy, HookFailure>,
    payload: Result<&[u8], HookFailure>,
    options: &HookOptions<'_>,
) -> HookAnswer {
    let decided = payload.clone().and_then(|bytes| {
        let policy = policy.inspect_err(|failure| unmapped(options, agent, Some(bytes), failure))?;
        decide(agent, policy, bytes, options)
    });
    if let Err(failure) = &payload {
        unmapped(options, agent, None, failure);
    }
    match decided {
        Ok((reply, mut logs)) => {
            logs.extend(reply.stderr.map(|reason| format!("hookc: {}", escape_controls(&reason))));
            HookAnswer { stdout: reply.stdout, exit: reply.exit, stderr: logs, bundle_damaged: false }
        }
        Err(failure) => failed(agent, payload.ok(), &failure, options),
    }
}

/// Records a call that failed before it became an event (the payload or the policy could not
/// be read): what the payload says of itself, read leniently, and why.
fn unmapped(options: &HookOptions<'_>, agent: &'static Agent, payload: Option<&[u8]>, failure: &HookFailure) {
    let Some(log) = options.audit else { return };
    let payload = payload.or(failure.summary());
    let said = payload.map(|payload| Said::read(agent, payload, options.event.as_deref())).unwrap_or_default();
    // What the call acts on, when the payload maps to an event (the policy, not the payload,
    // is what failed).
    let mapped = payload.and_then(|payload| payload::map(agent, payload, options.event.as_deref()).ok());
    let target = mapped.and_then(|mut mapped| {
        if let Some(root) = &options.project_root {
            mapped.event.common.project_root = Some(root.clone());
        }
        hookc_core::audit::target(&mapped.event, None)
    });
    log.record_failure(&hookc_core::audit::Failed {
        agent: said.agent.unwrap_or(agent).id,
        event: said.event,
        session_id: said.session_id.as_deref(),
        cwd: said.cwd.as_deref(),
        tool: said.tool.as_deref(),
        target,
        agent_version: said.agent_version.as_deref(),
        error: &failure.to_string(),
    });
}

/// The answer when a call cannot be decided: blocked (exit 2, the reason on stderr), or let
/// through with a warning under `fail_open`. A Stop that already forced a continuation may
/// stop either way: blocking it again would loop the agent on a broken policy.
pub fn failed(
    agent: &'static Agent,
    payload: Option<&[u8]>,
    failure: &HookFailure,
    options: &HookOptions<'_>,
) -> HookAnswer {
    // Why, as the agent and the person read it: never a secret value the call carried (a path
    // or an event name may hold one), by the shipped baseline's shapes.
    let text = failure.to_string();
    let text = hookc_core::redact::owned(None, text);
    let reason = escape_controls(&text);
    // A payload over the limit was read on as a stream: its short top-level fields say what
    // it is (a Stop, and whether it already continued), though the rest was not kept.
    let payload = payload.or(failure.summary());
    let said = payload.map(|payload| Said::read(agent, payload, options.event.as_deref())).unwrap_or_default();
    let style = said.answer.unwrap_or(agent.answer);
    let unchecked = || {
        let mapped = payload::map(agent, payload?, options.event.as_deref()).ok()?;
        answer::unchecked_output(&mapped.context, &reason)
    };
    let (stdout, exit, message) = if said.may_stop() {
        let why = "a Stop that may already have continued once stops rather than loop";
        (answer::nothing(style), 0, format!("hookc: {reason} ({why})"))
    } else if let (false, Some(stdout)) = (options.fail_open, unchecked()) {
        // After a tool, exit 2 would not keep the output from the model.
        (Some(stdout), 0, format!("hookc: {reason} (the policy could not decide, so the tool's output is withheld)"))
    } else if options.fail_open {
        let warning = format!("hookc: warning: {reason} (--fail-open: not enforcing the policy for this call)");
        (answer::nothing(style), 0, warning)
    } else {
        let (stdout, exit) = answer::refusal(style, said.event, &reason);
        (stdout, exit, format!("hookc: {reason} (the policy could not decide, so the action is blocked)"))
    };
    let bundle_damaged = matches!(failure, HookFailure::Eval(hookc_core::EvalError::Bundle(_)));
    HookAnswer { stdout, exit, stderr: vec![message], bundle_damaged }
}

fn record(audit: Option<&AuditLog>, policy: &Policy, mapped: &Mapped, outcome: Result<&Evaluation, &str>) {
    if let Some(log) = audit {
        let observation = Observation::of_evaluation(&mapped.event, outcome).at(&mapped.context.event_name);
        log.record(&observation.redacting(policy.redaction()));
    }
}

fn log_lines(evaluation: &Evaluation) -> Vec<String> {
    evaluation
        .logs
        .iter()
        .map(|log| match &log.message {
            Ok(message) => format!("hookc: log: {}: {}", log.rule, escape_controls(message)),
            Err(reason) => format!("hookc: warning: log of rule `{}` failed: {}", log.rule, escape_controls(reason)),
        })
        .collect()
}
