//! A scripted model and scripted tools, for tests and `hookc replay`.

use super::message::{check_pairing, ChatMessage};
use super::runner::Model;
use super::tools::{PreparedCall, ToolDefinition, Tools};
use hookc_core::model::result::ToolOutput;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// A model that answers with scripted replies, in order, and checks on every request that every
/// tool call in the history is paired with exactly one result.
#[derive(Debug, Clone, Default)]
pub struct ScriptedModel {
    replies: VecDeque<ChatMessage>,
    /// Every request received, in order.
    pub requests: Vec<Vec<ChatMessage>>,
}

impl ScriptedModel {
    /// A model that will answer with these replies.
    pub fn new(replies: Vec<ChatMessage>) -> Self {
        ScriptedModel { replies: replies.into(), requests: Vec::new() }
    }

    /// Replies not used.
    pub fn remaining(&self) -> usize {
        self.replies.len()
    }
}

impl Model for ScriptedModel {
    fn complete(&mut self, history: &[ChatMessage]) -> Result<ChatMessage, String> {
        self.requests.push(history.to_vec());
        check_pairing(history)
            .map_err(|problem| format!("request {} breaks tool-call pairing: {problem}", self.requests.len()))?;
        self.replies.pop_front().ok_or_else(|| format!("the script has no reply for request {}", self.requests.len()))
    }
}

/// Tools whose handlers return scripted outputs and record what they were called with.
#[derive(Debug, Clone, Default)]
pub struct ScriptedTools {
    definitions: BTreeMap<String, Arc<ToolDefinition>>,
    outputs: BTreeMap<String, ToolOutput>,
    /// Every call a handler ran, in order: exactly what the handler got.
    pub invoked: Vec<PreparedCall>,
}

impl ScriptedTools {
    /// Tools with these definitions.
    pub fn new(definitions: impl IntoIterator<Item = ToolDefinition>) -> Self {
        let definitions =
            definitions.into_iter().map(|definition| (definition.name.clone(), Arc::new(definition))).collect();
        ScriptedTools { definitions, outputs: BTreeMap::new(), invoked: Vec::new() }
    }

    /// The output the handler gives for a call id (default: `ok`).
    pub fn output(mut self, call_id: &str, output: ToolOutput) -> Self {
        self.outputs.insert(call_id.to_string(), output);
        self
    }
}

impl Tools for ScriptedTools {
    fn definition(&self, name: &str) -> Option<Arc<ToolDefinition>> {
        self.definitions.get(name).cloned()
    }

    fn invoke(&mut self, call: &PreparedCall) -> ToolOutput {
        self.invoked.push(call.clone());
        self.outputs.get(&call.id).cloned().unwrap_or(ToolOutput { content: "ok".to_string(), is_error: false })
    }
}
