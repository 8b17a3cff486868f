//! The conversation the loop keeps: OpenAI-style messages, where every assistant tool call must
//! be answered by exactly one tool message before the next request.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Role {
    /// Instructions and hook context.
    System,
    /// The user (and hooks' forced continuations).
    User,
    /// The model.
    Assistant,
    /// A tool's result, answering one call.
    Tool,
}

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRequest {
    /// The call id, unique in the run.
    pub id: String,
    /// The tool's name.
    pub tool: String,
    /// The arguments.
    #[serde(default)]
    pub args: Map<String, Value>,
}

/// One message of the history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Who wrote it.
    pub role: Role,
    /// The text.
    pub content: String,
    /// The tool calls of an assistant message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCallRequest>,
    /// For a tool message, the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    fn plain(role: Role, content: impl Into<String>) -> Self {
        ChatMessage { role, content: content.into(), tool_calls: Vec::new(), tool_call_id: None }
    }

    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Self::plain(Role::System, content)
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self::plain(Role::User, content)
    }

    /// An assistant message with tool calls.
    pub fn assistant(content: impl Into<String>, tool_calls: Vec<ToolCallRequest>) -> Self {
        ChatMessage { tool_calls, ..Self::plain(Role::Assistant, content) }
    }

    /// The result of one tool call.
    pub fn tool(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        ChatMessage { tool_call_id: Some(call_id.into()), ..Self::plain(Role::Tool, content) }
    }
}

/// What is wrong with a history's pairing of tool calls and results.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PairingError {
    /// A call is still open when the model speaks again.
    #[error("tool call `{0}` has no result before the next assistant message")]
    Unanswered(String),
    /// A tool message answers no open call.
    #[error("tool message for `{0}` answers no open tool call")]
    Orphan(String),
    /// A call is never answered.
    #[error("tool call `{0}` has no result")]
    Open(String),
}

/// Checks that every assistant tool call is answered by exactly one tool message, before the
/// next assistant message, and that no tool message answers nothing. `Err` says what is wrong.
pub fn check_pairing(history: &[ChatMessage]) -> Result<(), PairingError> {
    let mut open: Vec<&str> = Vec::new();
    for message in history {
        match message.role {
            Role::Assistant => {
                if let Some(id) = open.first() {
                    return Err(PairingError::Unanswered(id.to_string()));
                }
                open = message.tool_calls.iter().map(|call| call.id.as_str()).collect();
            }
            Role::Tool => {
                let id = message.tool_call_id.as_deref().unwrap_or("");
                match open.iter().position(|open_id| *open_id == id) {
                    Some(at) => {
                        open.remove(at);
                    }
                    None => return Err(PairingError::Orphan(id.to_string())),
                }
            }
            Role::System | Role::User => {}
        }
    }
    match open.first() {
        Some(id) => Err(PairingError::Open(id.to_string())),
        None => Ok(()),
    }
}
