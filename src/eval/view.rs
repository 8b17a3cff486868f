//! What rules see while an event is evaluated: the event's fields, with the arguments or output
//! as rewritten by earlier rules. Conditions and templates read through a [`View`].

use crate::ir::{Cond, Part, Pred, Subject, Template, Test, Value};
use crate::model::event::{Event, EventData};
use crate::model::result::ToolOutput;
use crate::paths::normalize;
use crate::vocab::{semantic_args, Field};
use serde_json::{Map, Value as Json};
use std::borrow::Cow;

/// A field's value at evaluation time.
#[derive(Debug, Clone, PartialEq)]
pub enum Val<'a> {
    /// The event does not carry it (or the argument is absent or `null`).
    Missing,
    /// Text.
    Str(Cow<'a, str>),
    /// A number.
    Num(f64),
    /// A boolean.
    Bool(bool),
    /// A JSON array or object argument; its text form is its JSON.
    Json(&'a Json),
}

impl Val<'_> {
    /// The text form used by text operators and templates: strings as they are, numbers and
    /// booleans as written in JSON, arrays and objects as JSON.
    pub fn text(&self) -> Option<Cow<'_, str>> {
        match self {
            Val::Missing => None,
            Val::Str(text) => Some(Cow::Borrowed(text)),
            Val::Num(number) => Some(Cow::Owned(format_number(*number))),
            Val::Bool(value) => Some(Cow::Borrowed(if *value { "true" } else { "false" })),
            Val::Json(json) => Some(Cow::Owned(json.to_string())),
        }
    }
}

/// `3` for 3.0, `2.5` for 2.5.
pub fn format_number(number: f64) -> String {
    if number.fract() == 0.0 && number.abs() < 1e15 {
        format!("{number:.0}")
    } else {
        number.to_string()
    }
}

/// Receives each leaf test's outcome (for `explain`); `()` ignores them at no cost.
pub trait Tracer {
    /// A test was evaluated on a value.
    fn test(&mut self, test: &Test, seen: &Val<'_>, held: bool);
    /// Evaluation enters (`true`) or leaves (`false`) a `not`.
    fn negation(&mut self, _entering: bool) {}
}

impl Tracer for () {
    fn test(&mut self, _: &Test, _: &Val<'_>, _: bool) {}
}

/// The event as rules currently see it.
pub struct View<'e> {
    event: &'e Event,
    /// The tool's arguments after every `set` so far (empty for events without a tool).
    pub args: Cow<'e, Map<String, Json>>,
    /// The tool's output after every rewrite so far (post_tool_use only).
    pub output: Option<Cow<'e, ToolOutput>>,
}

static NO_ARGS: std::sync::OnceLock<Map<String, Json>> = std::sync::OnceLock::new();

impl<'e> View<'e> {
    /// The view of an event before any rule ran.
    pub fn new(event: &'e Event) -> Self {
        let (args, output) = match &event.data {
            EventData::PreToolUse(call) | EventData::PostToolUseFailure(call, _) => (Cow::Borrowed(&call.args), None),
            EventData::PostToolUse(call, output) => (Cow::Borrowed(&call.args), Some(Cow::Borrowed(output))),
            _ => (Cow::Borrowed(NO_ARGS.get_or_init(Map::new)), None),
        };
        View { event, args, output }
    }

    /// The tool's name (empty for events without a tool).
    pub fn tool(&self) -> &'e str {
        self.event.tool_call().map_or("", |call| call.tool.as_str())
    }

    /// A field's current value.
    pub fn get(&self, field: &Field) -> Val<'_> {
        let common = &self.event.common;
        let text =
            |value: Option<&'e String>| value.map_or(Val::Missing, |text| Val::Str(Cow::Borrowed(text.as_str())));
        match (field, &self.event.data) {
            (Field::Tool, _) => self.event.tool_call().map_or(Val::Missing, |call| Val::Str(Cow::Borrowed(&call.tool))),
            (Field::Prompt, EventData::UserPromptSubmit { prompt }) => Val::Str(Cow::Borrowed(prompt)),
            (Field::Output, _) => {
                self.output.as_ref().map_or(Val::Missing, |output| Val::Str(Cow::Borrowed(&output.content)))
            }
            (Field::IsError, _) => self.output.as_ref().map_or(Val::Missing, |output| Val::Bool(output.is_error)),
            (Field::StopHookActive | Field::ToolCalls | Field::LastMessage, _) => match self.event.stop_info() {
                None => Val::Missing,
                Some(stop) => match field {
                    Field::StopHookActive => Val::Bool(stop.stop_hook_active),
                    #[expect(clippy::cast_precision_loss, reason = "tool-call counts are far below 2^52")]
                    Field::ToolCalls => stop.tool_calls.map_or(Val::Missing, |count| Val::Num(count as f64)),
                    _ => text(stop.last_message.as_ref()),
                },
            },
            (Field::McpServer | Field::McpTool, _) => match mcp_parts(self.tool()) {
                Some((server, tool)) => Val::Str(Cow::Borrowed(if *field == Field::McpServer { server } else { tool })),
                None => Val::Missing,
            },
            (Field::Error, EventData::PostToolUseFailure(_, error)) => Val::Str(Cow::Borrowed(error)),
            (Field::Source, EventData::SessionStart { source }) => text(source.as_ref()),
            (Field::Reason, EventData::SessionEnd { reason }) => text(reason.as_ref()),
            (Field::Trigger, EventData::PreCompact { trigger }) => text(trigger.as_ref()),
            (Field::Message, EventData::Notification { message }) => Val::Str(Cow::Borrowed(message)),
            (Field::Cwd, _) => text(common.cwd.as_ref()),
            (Field::SessionId, _) => text(common.session_id.as_ref()),
            (Field::PermissionMode, _) => text(common.permission_mode.as_ref()),
            (Field::Agent, _) => text(common.agent.as_ref()),
            (Field::Arg(path), _) => arg_value(&self.args, path),
            (Field::Semantic(semantic), _) => {
                let raw = semantic_args(self.tool(), *semantic).iter().find_map(|name| match self.args.get(*name) {
                    None | Some(Json::Null) => None,
                    Some(value) => Some(json_value(value)),
                });
                match raw {
                    Some(value) if field.is_path() => match value.text() {
                        Some(path) => Val::Str(Cow::Owned(normalize(&path, common.cwd.as_deref()))),
                        None => Val::Missing,
                    },
                    Some(value) => value,
                    None => Val::Missing,
                }
            }
            _ => Val::Missing,
        }
    }

    /// Whether a condition holds, reporting each leaf test to the tracer. `Err` carries why a
    /// pattern could not be compiled (only possible for a hand-made bundle).
    pub fn holds(&self, cond: &Cond, tracer: &mut impl Tracer) -> Result<bool, String> {
        Ok(match cond {
            Cond::Always => true,
            Cond::All(children) => {
                for child in children {
                    if !self.holds(child, tracer)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Any(children) => {
                for child in children {
                    if self.holds(child, tracer)? {
                        return Ok(true);
                    }
                }
                false
            }
            Cond::Not(child) => {
                tracer.negation(true);
                let held = self.holds(child, tracer);
                tracer.negation(false);
                !held?
            }
            Cond::Test(test) => {
                let seen = self.subject(&test.subject);
                let held = pred_holds(&test.pred, &seen)?;
                tracer.test(test, &seen, held);
                held
            }
        })
    }

    fn subject(&self, subject: &Subject) -> Val<'_> {
        match subject {
            Subject::Field(field) => self.get(field),
            #[expect(clippy::cast_precision_loss, reason = "lengths are far below 2^52")]
            Subject::Len(field) => match self.get(field).text() {
                Some(text) => Val::Num(text.chars().count() as f64),
                None => Val::Missing,
            },
        }
    }

    /// Renders a template; `Err` names the first field the event does not carry.
    pub fn render(&self, template: &Template) -> Result<String, Field> {
        let mut out = String::new();
        for part in &template.0 {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Field(field) => match self.get(field).text() {
                    Some(text) => out.push_str(&text),
                    None => return Err(field.clone()),
                },
            }
        }
        Ok(out)
    }
}

/// `mcp__github__create_issue` → (`github`, `create_issue`).
pub fn mcp_parts(tool: &str) -> Option<(&str, &str)> {
    let rest = tool.strip_prefix("mcp__")?;
    let (server, name) = rest.split_once("__")?;
    (!server.is_empty() && !name.is_empty()).then_some((server, name))
}

/// `args.a.b`: walks into objects; absent or `null` is missing.
fn arg_value<'a>(args: &'a Map<String, Json>, path: &str) -> Val<'a> {
    let mut segments = path.split('.');
    let Some(first) = segments.next() else { return Val::Missing };
    let mut current = args.get(first);
    for segment in segments {
        current = current.and_then(|value| value.get(segment));
    }
    current.map_or(Val::Missing, json_value)
}

fn json_value(value: &Json) -> Val<'_> {
    match value {
        Json::Null => Val::Missing,
        Json::Bool(value) => Val::Bool(*value),
        Json::Number(number) => number.as_f64().map_or(Val::Missing, Val::Num),
        Json::String(text) => Val::Str(Cow::Borrowed(text)),
        other => Val::Json(other),
    }
}

/// Whether a predicate holds of a value. A missing value satisfies no predicate.
pub fn pred_holds(pred: &Pred, seen: &Val<'_>) -> Result<bool, String> {
    if *seen == Val::Missing {
        return Ok(false);
    }
    let number = || match seen {
        Val::Num(number) => Some(*number),
        _ => None,
    };
    let text = || seen.text();
    Ok(match pred {
        Pred::Truthy => *seen == Val::Bool(true),
        Pred::Eq(value) => equals(seen, value),
        Pred::Ne(value) => !equals(seen, value),
        Pred::Lt(limit) => number().is_some_and(|n| n < *limit),
        Pred::Le(limit) => number().is_some_and(|n| n <= *limit),
        Pred::Gt(limit) => number().is_some_and(|n| n > *limit),
        Pred::Ge(limit) => number().is_some_and(|n| n >= *limit),
        Pred::In(values) => values.iter().any(|value| equals(seen, value)),
        Pred::NotIn(values) => !values.iter().any(|value| equals(seen, value)),
        Pred::Matches(regex) => {
            let regex = regex.get()?;
            text().is_some_and(|text| regex.is_match(&text))
        }
        Pred::Like(globs) => {
            let set = globs.get()?;
            text().is_some_and(|text| set.is_match(text.as_ref()))
        }
        Pred::Contains(needle) => text().is_some_and(|text| text.contains(needle.as_str())),
        Pred::StartsWith(prefix) => text().is_some_and(|text| text.starts_with(prefix.as_str())),
        Pred::EndsWith(suffix) => text().is_some_and(|text| text.ends_with(suffix.as_str())),
    })
}

/// Equality: numbers and booleans by value, strings by text form (so a raw argument `3` equals
/// `"3"`, as it would in the agent's own JSON).
fn equals(seen: &Val<'_>, value: &Value) -> bool {
    match (seen, value) {
        (Val::Num(a), Value::Num(b)) => a == b,
        (Val::Bool(a), Value::Bool(b)) => a == b,
        (_, Value::Str(expected)) => seen.text().is_some_and(|text| text == expected.as_str()),
        _ => false,
    }
}
