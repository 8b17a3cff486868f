//! Tools as the loop sees them: a definition (name, effect, argument schema), preparation
//! (lookup and argument validation), and the handler.

use super::message::ToolCallRequest;
use hookc_core::model::result::ToolOutput;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a tool does to the world, for the permission policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Effect {
    /// Reads only.
    Read,
    /// Changes files, runs commands, sends things.
    Write,
}

/// The JSON type an argument must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ArgType {
    /// A string.
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl ArgType {
    fn accepts(self, value: &Value) -> bool {
        matches!(
            (self, value),
            (ArgType::String, Value::String(_))
                | (ArgType::Number, Value::Number(_))
                | (ArgType::Boolean, Value::Bool(_))
                | (ArgType::Array, Value::Array(_))
                | (ArgType::Object, Value::Object(_))
        )
    }
}

/// A tool's definition. The registry hands hooks and handlers the same `Arc`: a prepared call's
/// definition is fixed, so a rewrite cannot turn a write tool into a read tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: String,
    /// Its effect.
    pub effect: Effect,
    /// Required arguments and their types; no other argument is accepted.
    pub schema: BTreeMap<String, ArgType>,
    /// Optional arguments and their types.
    #[serde(default)]
    pub optional: BTreeMap<String, ArgType>,
}

/// Why a call's arguments do not fit its tool's schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentError {
    /// A required argument is absent.
    #[error("`{tool}` needs the argument `{name}`")]
    Missing {
        /// The tool.
        tool: String,
        /// The argument.
        name: String,
    },
    /// An argument has the wrong type.
    #[error("`{tool}`: argument `{name}` must be a {expected}")]
    WrongType {
        /// The tool.
        tool: String,
        /// The argument.
        name: String,
        /// The type it must have (`string`, `number`, …).
        expected: String,
    },
    /// An argument the schema does not have.
    #[error("`{tool}` has no argument `{name}`")]
    Unknown {
        /// The tool.
        tool: String,
        /// The argument.
        name: String,
    },
}

impl ToolDefinition {
    /// Validates arguments against the schema; `Err` names the first problem.
    pub fn validate(&self, args: &Map<String, Value>) -> Result<(), ArgumentError> {
        let tool = || self.name.clone();
        let wrong = |name: &str, ty: &ArgType| ArgumentError::WrongType {
            tool: tool(),
            name: name.to_string(),
            expected: format!("{ty:?}").to_lowercase(),
        };
        for (name, ty) in &self.schema {
            match args.get(name) {
                None => return Err(ArgumentError::Missing { tool: tool(), name: name.clone() }),
                Some(value) if !ty.accepts(value) => return Err(wrong(name, ty)),
                Some(_) => {}
            }
        }
        for (name, value) in args {
            match (self.schema.contains_key(name), self.optional.get(name)) {
                (true, _) => {}
                (false, Some(ty)) if ty.accepts(value) => {}
                (false, Some(ty)) => return Err(wrong(name, ty)),
                (false, None) => return Err(ArgumentError::Unknown { tool: tool(), name: name.clone() }),
            }
        }
        Ok(())
    }
}

/// A call that passed lookup and validation. Frozen: the arguments are shared, never changed in
/// place; a rewrite makes a new prepared call.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedCall {
    /// The call id.
    pub id: String,
    /// The tool's definition.
    pub definition: Arc<ToolDefinition>,
    /// The validated arguments.
    pub args: Arc<Map<String, Value>>,
}

/// The tools a loop can call.
pub trait Tools {
    /// The definition of a tool, if it exists.
    fn definition(&self, name: &str) -> Option<Arc<ToolDefinition>>;
    /// Runs a prepared call (the only place with side effects).
    fn invoke(&mut self, call: &PreparedCall) -> ToolOutput;

    /// Looks the tool up and validates the arguments.
    fn prepare(&self, call: &ToolCallRequest) -> Result<PreparedCall, String> {
        let definition =
            self.definition(&call.tool).ok_or_else(|| format!("Error [unknown_tool]: no tool `{}`", call.tool))?;
        definition.validate(&call.args).map_err(|reason| format!("Error [invalid_arguments]: {reason}"))?;
        Ok(PreparedCall { id: call.id.clone(), definition, args: Arc::new(call.args.clone()) })
    }
}
