//! Stage 4: an [`Event`] and a [`DecisionTable`] → a [`HookResult`].
//!
//! Rules are tried in order among the candidates the table's index returns. Each fired rule's
//! actions make one result, merged as the registry merges hooks ([`HookResult::merge`],
//! [`HookResult::settle`], [`HookResult::halts`]): rewrites chain (later rules see them), context
//! concatenates, the strongest permission wins, the first block ends evaluation, the first
//! `continue` ends stop evaluation unless `stop_hook_active` (then it is dropped and every rule
//! still runs).

pub(crate) mod files;
mod guard;
pub(crate) mod view;

use crate::compile::{DecisionTable, Fields};
use crate::ir::{Action, Rule, SetValue};
use crate::model::dedup_in_order;
use crate::model::event::{Event, EventData};
use crate::model::result::{self as result, BlockingError, HookResult, Permission, ToolOutput};
use crate::paths::PathError;
use crate::vocab::tools::Source;
use crate::vocab::Field;
use files::Files;
use serde_json::{Map, Value as Json};
use std::borrow::Cow;
pub(crate) use view::{Tracer, Val, View};

/// The result of evaluating one event, with the audit records its `log` actions wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The merged result.
    pub result: HookResult,
    /// `log` records, in order. They never change `result`.
    pub logs: Vec<LogRecord>,
    /// Whether a `continue` the rules gave was dropped, because the Stop follows one that
    /// already continued the turn (`stop_hook_active`): the audit record says why nothing was
    /// decided.
    pub dropped_continuation: bool,
    /// The rules that fired but whose effect a waiver lifted, in order: explain and the audit
    /// record show every decision a waiver changed.
    pub waived: Vec<Waived>,
}

/// A rule that fired and was not applied, because a waiver or an audit in force lifted it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Waived {
    /// The rule.
    pub rule: String,
    /// Where the waiver or audit was written, `FILE:LINE:COLUMN`.
    pub waiver: String,
    /// Its last day (`YYYY-MM-DD`, UTC), if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// Its reason, if it gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For an audit: what the rule would have decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub would: Option<Would>,
}

/// What a rule in audit mode would have decided, had it applied alone.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Would {
    /// One word, as the audit record's `decision` says it (`block`, `deny`, `ask`, `allow`,
    /// `rewrite`, `stop`, `continue`, `context`, or `none` for a rule that only logs).
    pub decision: &'static str,
    /// The reason it would have given, where it gives one and it renders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One `log` action's record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LogRecord {
    /// The rule that logged.
    pub rule: String,
    /// The message, or why it could not be rendered (an observer's failure is reported, never
    /// propagated).
    pub message: Result<String, String>,
}

/// Why evaluation failed. An interceptor or transformer that cannot do its job fails the whole
/// evaluation (fail closed), never yields a half-applied result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A message or value refers to a field the event does not carry.
    #[error("rule `{rule}` ({origin}): cannot render its {action}: the event has no `{field}`")]
    MissingField {
        /// The rule.
        rule: String,
        /// Where it was written.
        origin: String,
        /// The action whose text failed.
        action: &'static str,
        /// The missing field.
        field: String,
    },
    /// A pattern could not be compiled (possible only in a hand-made bundle).
    #[error("rule `{rule}` ({origin}): invalid pattern: {reason}")]
    Pattern {
        /// The rule.
        rule: String,
        /// Where it was written.
        origin: String,
        /// The compiler's reason.
        reason: String,
    },
    /// A bundled rule could not be decoded (possible only in a hand-made bundle).
    #[error("rule #{id} of the bundle is invalid: {reason}")]
    InvalidRule {
        /// The rule's position.
        id: u32,
        /// Why it cannot be decoded.
        reason: String,
    },
    /// A binary bundle's index could not be read (a block that does not verify, a file changed
    /// under the call): the call is not judged, so it fails closed.
    #[error("the bundle cannot be read: {0}")]
    Bundle(String),
    /// A path in the event cannot be used (a NUL byte): the call is not judged, so it fails
    /// closed.
    #[error("{0}")]
    Path(#[from] PathError),
    /// A write tool's call names no file hookc can read (a missing or unreadable path argument,
    /// a patch with no file in it): what it writes is unknown, so it fails closed rather than
    /// pass as a call that touches nothing.
    #[error("`{tool}` writes files, but this call names none hookc can read: it is not judged, so it is refused")]
    NoFile {
        /// The tool.
        tool: String,
    },
    /// A shell tool's call sends a command hookc cannot read (not text, a list of anything but
    /// lines): what it runs is unknown, so it fails closed.
    #[error(
        "`{tool}` runs commands, but hookc cannot read the command this call sends: it is not judged, so it is refused"
    )]
    NoCommand {
        /// The tool.
        tool: String,
    },
    /// A shell call's command line is too large to judge (`shell::MAX_COMMANDS` commands or
    /// `shell::MAX_FILES` files): the call is not judged, so it fails closed.
    #[error("the command line runs more than {commands} commands or names more than {files} files: hookc does not judge a line that large")]
    CommandLine {
        /// The most commands judged.
        commands: usize,
        /// The most files judged.
        files: usize,
    },
    /// Rules rewrote a call that touches several files differently for each file.
    #[error(transparent)]
    Files(#[from] crate::model::result::MergeError),
    /// `set` names an argument the tool cannot have.
    #[error("rule `{rule}` ({origin}): cannot set `{field}` on tool `{tool}`: {reason}")]
    SetTarget {
        /// The rule.
        rule: String,
        /// Where it was written.
        origin: String,
        /// The field.
        field: String,
        /// The tool.
        tool: String,
        /// Why.
        reason: String,
    },
}

/// Receives rule-level events during evaluation (for `explain`).
pub(crate) trait RuleTracer: Tracer {
    /// A rule's condition was evaluated.
    fn rule(&mut self, _rule: &Rule, _fired: bool) {}
    /// The rule just reported as fired was not applied: a waiver lifted it.
    fn waived(&mut self, _waived: &Waived) {}
    /// A call that names several files is judged once per file: the rules after this are
    /// judged for this file (its canonical spelling).
    fn reading(&mut self, _file: &str) {}
}

impl RuleTracer for () {}

/// Which rules to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Only the candidates the index returns (the fast path).
    Indexed,
    /// Every rule of the event (for `explain`; gives the same result).
    Exhaustive,
}

/// Evaluates an event against a decision table: once per file the call touches (one reading
/// when it names none), the readings merged by [`HookResult::merge_files`].
pub(crate) fn evaluate(
    table: &DecisionTable,
    event: &Event,
    tracer: &mut impl RuleTracer,
    scope: Scope,
) -> Result<Evaluation, EvalError> {
    evaluate_on(table, event, tracer, scope, crate::ir::today())
}

/// Evaluates an event on `today` (days since 1970-01-01, UTC), the day waivers are judged by.
/// The hook path passes the system clock's day; nothing else (no variable, no flag) moves it.
pub(crate) fn evaluate_on(
    table: &DecisionTable,
    event: &Event,
    tracer: &mut impl RuleTracer,
    scope: Scope,
    today: i64,
) -> Result<Evaluation, EvalError> {
    let mut evaluation = evaluate_event(table, event, tracer, scope, today)?;
    if let (EventData::PermissionRequest(call), Permission::Allow) =
        (&event.data, evaluation.result.permission_behavior)
    {
        // An approval on the person's behalf never approves what the same policy refuses or
        // asks a person about before the call.
        // Nor what its reader cannot account for, whether or not a rule reads `unread`.
        let before = Event { common: event.common.clone(), data: EventData::PreToolUse(call.clone()) };
        let unread =
            Files::of(&before, table.path_settings())?.shell.map(|shell| shell.line.unread).unwrap_or_default();
        let before = evaluate_event(table, &before, &mut (), scope, today)?.result;
        let refused = before.blocking_error.as_ref().map(ToString::to_string);
        let (permission, reason) = match (refused, before.permission_behavior) {
            (Some(reason), _) => (Permission::Deny, Some(reason)),
            (None, permission @ (Permission::Deny | Permission::Ask)) => (permission, before.permission_reason.clone()),
            _ if !unread.is_empty() => {
                (Permission::Ask, Some(format!("hookc cannot tell what this runs ({})", unread.join(", "))))
            }
            _ => (Permission::Allow, evaluation.result.permission_reason.clone()),
        };
        let result = &mut evaluation.result;
        if permission != Permission::Allow {
            result.permission_behavior = permission;
            result.permission_reason = reason;
            let more: Vec<String> =
                before.matched.iter().filter(|rule| !result.matched.contains(rule)).cloned().collect();
            result.matched.extend(more);
        }
    }
    Ok(evaluation)
}

/// Evaluates one event as its rules say.
fn evaluate_event(
    table: &DecisionTable,
    event: &Event,
    tracer: &mut impl RuleTracer,
    scope: Scope,
    today: i64,
) -> Result<Evaluation, EvalError> {
    let files = Files::of(event, table.path_settings())?;
    if let Some(result) = guard::check(event, &files, &table.path_settings().guarded) {
        return Ok(Evaluation { result, logs: Vec::new(), dropped_continuation: false, waived: Vec::new() });
    }
    let shared = Shared::default();
    let reading = Reading { files: &files, shared: &shared, scope, today };
    let mut evaluations = (0..files.readings())
        .map(|at| evaluate_reading(table, event, &reading, files.reading(at), tracer))
        .collect::<Result<Vec<_>, _>>()?;
    if evaluations.len() == 1 {
        return Ok(evaluations.swap_remove(0));
    }
    let mut logs: Vec<LogRecord> = evaluations.iter_mut().flat_map(|evaluation| evaluation.logs.drain(..)).collect();
    // The same record from several files is one record.
    dedup_in_order(&mut logs);
    let dropped_continuation = evaluations.iter().any(|evaluation| evaluation.dropped_continuation);
    let mut waived: Vec<Waived> = evaluations.iter_mut().flat_map(|evaluation| evaluation.waived.drain(..)).collect();
    dedup_in_order(&mut waived);
    let result = HookResult::merge_files(evaluations.into_iter().map(|evaluation| evaluation.result).collect())?;
    Ok(Evaluation { result, logs, dropped_continuation, waived })
}

/// What the readings of one call share: every reading sees the same event but for its file
/// (`path`, `access`), so until a rule rewrites something, the index's other fields and the
/// conditions that read neither give the same answers in every reading. A call that names many
/// files (a shell line's operands) reads them once.
#[derive(Default)]
struct Shared {
    /// The candidates found by the fields every reading shares, with the unindexed rules.
    candidates: std::cell::OnceCell<Result<Vec<crate::compile::RuleId>, String>>,
    /// Whether each file-free condition held, while nothing was rewritten.
    held: std::cell::RefCell<rustc_hash::FxHashMap<crate::compile::RuleId, bool>>,
}

/// What every reading of one call shares.
struct Reading<'r> {
    files: &'r Files<'r>,
    shared: &'r Shared,
    scope: Scope,
    /// The day waivers are judged by.
    today: i64,
}

/// Evaluates one reading of an event: the file at `file` as its `path`.
#[inline]
fn evaluate_reading(
    table: &DecisionTable,
    event: &Event,
    reading: &Reading<'_>,
    file: Option<usize>,
    tracer: &mut impl RuleTracer,
) -> Result<Evaluation, EvalError> {
    let Reading { files, shared, scope, today } = *reading;
    let kind = event.kind();
    let stop_hook_active = event.stop_info().is_some_and(|stop| stop.stop_hook_active);
    if files.readings() > 1 {
        if let Some(file) = file.and_then(|at| files.files.get(at)) {
            tracer.reading(&file.canonical);
        }
    }
    let mut run = Run {
        view: View::new(event, files, file),
        result: HookResult::default(),
        logs: Vec::new(),
        dropped_continuation: false,
        waived: Vec::new(),
        redaction: table.redaction(),
    };
    let candidates_of = |view: &View<'_>| {
        match scope {
            Scope::Indexed => table.candidates(kind, view),
            Scope::Exhaustive => table.rules_of(kind),
        }
        .map_err(EvalError::Bundle)
    };
    let mut candidates = match scope {
        Scope::Indexed if files.readings() > 1 => {
            let shared = shared.candidates.get_or_init(|| table.candidates_of(kind, &run.view, Fields::Shared));
            let mut candidates = table.candidates_of(kind, &run.view, Fields::PerFile).map_err(EvalError::Bundle)?;
            candidates.extend_from_slice(shared.as_ref().map_err(|reason| EvalError::Bundle(reason.clone()))?);
            candidates.sort_unstable();
            candidates.dedup();
            candidates
        }
        _ => candidates_of(&run.view)?,
    };
    // Conditions are shared between readings only on the fast path (explain traces each one).
    let mut pristine = scope == Scope::Indexed && files.readings() > 1;
    let mut next = 0;
    while let Some(&id) = candidates.get(next) {
        next += 1;
        let rule = table.rule(id).map_err(|reason| EvalError::InvalidRule { id, reason })?;
        let remembered = pristine && !table.reads_file(id, rule);
        let known = if remembered { shared.held.borrow().get(&id).copied() } else { None };
        let fired = match known {
            Some(held) => held,
            None => {
                let held = run.view.holds(&rule.condition, tracer).map_err(|reason| pattern_error(rule, reason))?;
                if remembered {
                    shared.held.borrow_mut().insert(id, held);
                }
                held
            }
        };
        tracer.rule(rule, fired);
        if !fired {
            continue;
        }
        if let Some(waived) = run.waiver_of(table, rule, today)? {
            tracer.waived(&waived);
            run.waived.push(waived);
            continue;
        }
        let rewrote = run.apply(rule, stop_hook_active)?;
        if run.result.halts() {
            break;
        }
        if rewrote {
            pristine = false;
        }
        if rewrote && scope == Scope::Indexed {
            // The index was read for the old arguments or output; ask again for the rest.
            candidates = candidates_of(&run.view)?;
            next = candidates.partition_point(|&other| other <= id);
        }
    }
    Ok(run.finish())
}

/// The state of one evaluation.
struct Run<'e> {
    view: View<'e>,
    result: HookResult,
    logs: Vec<LogRecord>,
    dropped_continuation: bool,
    waived: Vec<Waived>,
    /// The policy's secret value shapes: what a rule's message, reason or log line repeats of
    /// them is redacted.
    redaction: Option<&'e crate::redact::Redaction>,
}

impl Run<'_> {
    /// The first waiver, else audit, of `rule` in force on `today` whose condition holds here,
    /// if any: a rule both waived and audited is waived (the waiver would lift it anyway).
    fn waiver_of(&self, table: &DecisionTable, rule: &Rule, today: i64) -> Result<Option<Waived>, EvalError> {
        for mode in [crate::ir::Lift::Waive, crate::ir::Lift::Audit] {
            let waivers = table.waivers().iter();
            for waiver in
                waivers.filter(|waiver| waiver.mode == mode && waiver.rule == rule.name && waiver.holds_on(today))
            {
                if self.view.holds(&waiver.condition, &mut ()).map_err(|reason| pattern_error(rule, reason))? {
                    return Ok(Some(Waived {
                        rule: rule.name.clone(),
                        waiver: waiver.origin.clone(),
                        until: waiver.until.clone(),
                        reason: waiver.reason.clone(),
                        would: (mode == crate::ir::Lift::Audit).then(|| self.would(rule)),
                    }));
                }
            }
        }
        Ok(None)
    }

    /// What a rule would decide applied alone, without applying it: the word the record's
    /// `decision` would say and its reason. A reason that does not render (a field the event
    /// lacks) is left out: an audited rule never fails the call.
    fn would(&self, rule: &Rule) -> Would {
        let said = |template: &crate::ir::Template| self.view.render(template).ok().map(|text| self.redacted(text));
        let render = |template: &Option<crate::ir::Template>| template.as_ref().and_then(said);
        let mut would: Option<(u8, &'static str, Option<String>)> = None;
        for action in &rule.actions {
            // The order `outcome_word` ranks a merged result's parts in.
            let (rank, decision, reason) = match action {
                Action::Block { message: None, .. } => (0, "block", Some(format!("blocked by rule `{}`", rule.name))),
                Action::Block { message, .. } => (0, "block", render(message)),
                Action::Permission { behavior, reason: None } => {
                    (1, behavior.name(), Some(format!("{} by rule `{}`", past_tense(*behavior), rule.name)))
                }
                Action::Permission { behavior, reason } => (1, behavior.name(), render(reason)),
                Action::Continue(template) => (2, "continue", said(template)),
                Action::Stop(reason) => (3, "stop", render(reason)),
                Action::Set { .. } | Action::Replace(_) | Action::Truncate(_) | Action::Redact { .. } => {
                    (4, "rewrite", None)
                }
                Action::Context(template) => (5, "context", said(template)),
                Action::Log(_) => (6, "none", None),
            };
            if would.as_ref().is_none_or(|(best, ..)| rank < *best) {
                would = Some((rank, decision, reason));
            }
        }
        let (_, decision, reason) = would.unwrap_or((6, "none", None));
        Would { decision, reason }
    }

    /// Applies a fired rule: its rewrites to the view, the rest as one result merged into the
    /// evaluation's. Whether it rewrote the arguments or the output.
    fn apply(&mut self, rule: &Rule, stop_hook_active: bool) -> Result<bool, EvalError> {
        let mut rewrote = false;
        let mut own = HookResult { matched: vec![rule.name.clone()], ..HookResult::default() };
        for action in &rule.actions {
            match action {
                Action::Block { code, message } => {
                    let message = match message {
                        Some(template) => self.render(rule, template, "block message")?,
                        None => format!("blocked by rule `{}`", rule.name),
                    };
                    own.blocking_error.get_or_insert(BlockingError { code: code.clone(), message });
                }
                Action::Permission { behavior, reason } => {
                    let reason = match reason {
                        Some(template) => self.render(rule, template, "reason")?,
                        None => format!("{} by rule `{}`", past_tense(*behavior), rule.name),
                    };
                    own.recommend(*behavior, reason);
                }
                Action::Set { field, value } => {
                    let value = self.set_value(rule, value)?;
                    self.set(rule, field, value)?;
                    rewrote = true;
                }
                Action::Replace(template) => {
                    let text = self.render_raw(rule, template, "replacement")?;
                    self.rewrite_output(|_| text);
                    rewrote = true;
                }
                Action::Truncate(limit) => {
                    let limit = usize::try_from(*limit).unwrap_or(usize::MAX);
                    if self.output_text().chars().nth(limit).is_some() {
                        self.rewrite_output(|content| {
                            let kept: String = content.chars().take(limit).collect();
                            format!("{kept}\n[truncated]")
                        });
                        rewrote = true;
                    }
                }
                Action::Redact { pattern, with } => {
                    let with = self.render_raw(rule, with, "redaction text")?;
                    let regex = pattern.get().map_err(|reason| pattern_error(rule, reason))?;
                    let redacted = crate::pattern::replace_all(regex, self.output_text(), &with);
                    if let Cow::Owned(redacted) = redacted {
                        self.rewrite_output(|_| redacted);
                        rewrote = true;
                    }
                }
                Action::Stop(reason) => {
                    own.prevent_continuation = true;
                    if let Some(template) = reason {
                        let reason = self.render(rule, template, "stop reason")?;
                        own.stop_reason.get_or_insert(reason);
                    }
                }
                Action::Continue(template) => {
                    let message = self.render(rule, template, "continue message")?;
                    own.force_continue.get_or_insert(message);
                }
                Action::Context(template) => {
                    let context = self.render(rule, template, "context")?;
                    own.additional_context.push(context);
                }
                Action::Log(template) => {
                    let message = match self.view.render(template) {
                        Ok(text) => Ok(self.redacted(text)),
                        Err(field) => Err(format!("the event has no `{}`", field.name())),
                    };
                    self.logs.push(LogRecord { rule: rule.name.clone(), message });
                }
            }
        }
        self.dropped_continuation |= own.settle(stop_hook_active);
        self.result.merge(own);
        Ok(rewrote)
    }

    /// A message, reason or context the rule writes, secret values redacted.
    fn render(&self, rule: &Rule, template: &crate::ir::Template, action: &'static str) -> Result<String, EvalError> {
        self.render_raw(rule, template, action).map(|text| self.redacted(text))
    }

    /// `text` with the policy's secret values (else the shipped baseline's) redacted.
    fn redacted(&self, text: String) -> String {
        crate::redact::owned(self.redaction, text)
    }

    /// A value the rule puts into the tool's arguments or output, as rendered.
    fn render_raw(
        &self,
        rule: &Rule,
        template: &crate::ir::Template,
        action: &'static str,
    ) -> Result<String, EvalError> {
        self.view.render(template).map_err(|field| EvalError::MissingField {
            rule: rule.name.clone(),
            origin: rule.origin.clone(),
            action,
            field: field.name(),
        })
    }

    fn set_value(&self, rule: &Rule, value: &SetValue) -> Result<Json, EvalError> {
        Ok(match value {
            SetValue::Text(template) => Json::String(self.render_raw(rule, template, "value")?),
            SetValue::Bool(value) => Json::Bool(*value),
            SetValue::Num(number) => json_number(*number),
        })
    }

    /// Writes one argument: a raw `args.a.b` path, or the profile's argument for a semantic name
    /// (the one present, else the profile's first).
    fn set(&mut self, rule: &Rule, field: &Field, value: Json) -> Result<(), EvalError> {
        let tool = self.view.tool();
        let fail = |reason: &str| EvalError::SetTarget {
            rule: rule.name.clone(),
            origin: rule.origin.clone(),
            field: field.name(),
            tool: tool.to_string(),
            reason: reason.to_string(),
        };
        let path: Vec<&str> = match field {
            Field::Arg(path) => path.split('.').collect(),
            Field::Semantic(semantic) => match self.view.resolved().source(*semantic) {
                Some(Source::Patch(_)) => {
                    return Err(fail("a patch names its files in its text; rewrite the patch instead"))
                }
                Some(Source::Lines(_)) => {
                    return Err(fail(
                        "the tool takes a list of command lines; rewrite that argument instead (`args.NAME`)",
                    ))
                }
                Some(Source::Args(candidates)) => {
                    let present = candidates.iter().find(|name| self.view.args.contains_key(**name));
                    match present.or(candidates.first()) {
                        Some(name) => vec![*name],
                        None => return Err(fail("the tool's profile has no such argument")),
                    }
                }
                None => return Err(fail("the tool's profile has no such argument")),
            },
            _ => return Err(fail("only tool arguments can be set")),
        };
        set_path(self.view.args.to_mut(), &path, value).map_err(|reason| fail(&reason))?;
        // Any argument written may be the one that names the file (`args.file_path` too).
        self.view.path_rewritten()?;
        Ok(())
    }

    fn output_text(&self) -> &str {
        self.view.output.as_ref().map_or("", |output| output.content.as_str())
    }

    fn rewrite_output(&mut self, rewrite: impl FnOnce(&str) -> String) {
        let output =
            self.view.output.get_or_insert_with(|| Cow::Owned(ToolOutput { content: String::new(), is_error: false }));
        let content = rewrite(&output.content);
        output.to_mut().content = content;
    }

    /// The result, with the arguments or output if a rule rewrote them: the view holds its own
    /// copy exactly when one did (copy on write).
    fn finish(self) -> Evaluation {
        let mut result = self.result;
        if let Cow::Owned(args) = self.view.args {
            result.updated_input = Some(args);
        }
        if let Some(Cow::Owned(output)) = self.view.output {
            result.updated_output = Some(output);
        }
        Evaluation { result, logs: self.logs, dropped_continuation: self.dropped_continuation, waived: self.waived }
    }
}

fn pattern_error(rule: &Rule, reason: String) -> EvalError {
    EvalError::Pattern { rule: rule.name.clone(), origin: rule.origin.clone(), reason }
}

fn past_tense(permission: result::Permission) -> &'static str {
    match permission {
        result::Permission::Deny => "denied",
        result::Permission::Ask => "confirmation asked",
        result::Permission::Allow => "allowed",
        result::Permission::Passthrough => "passed through",
    }
}

/// A JSON number, integral when the value is (so `set args.n = 3` writes `3`, not `3.0`).
fn json_number(number: f64) -> Json {
    #[expect(clippy::cast_possible_truncation, reason = "only whole numbers within i64 range take this path")]
    if number.fract() == 0.0 && number.abs() < 9.0e15 {
        return Json::from(number as i64);
    }
    serde_json::Number::from_f64(number).map_or(Json::Null, Json::Number)
}

/// Sets `path` in an argument object, creating objects on the way.
fn set_path(args: &mut Map<String, Json>, path: &[&str], value: Json) -> Result<(), String> {
    let Some((last, parents)) = path.split_last() else { return Err("empty argument path".to_string()) };
    let mut current = args;
    for parent in parents {
        let entry = current.entry((*parent).to_string()).or_insert_with(|| Json::Object(Map::new()));
        current = entry.as_object_mut().ok_or_else(|| format!("`{parent}` is not an object"))?;
    }
    current.insert((*last).to_string(), value);
    Ok(())
}
