//! Scripted sessions for `hookc replay`: the user's prompt, the model's replies (text and tool
//! calls), the tools and what they return, and how the user answers `ask`.
//!
//! ```yaml
//! prompt: regenerate the client
//! cwd: /repo
//! tools:
//!   - {name: write_file, effect: write, schema: {path: string, content: string}}
//!   - {name: read_file, effect: read, schema: {path: string}}
//! approve: true          # the user's answer when a call asks (default: true)
//! policy: effects        # the system policy: `effects` (reads allowed, writes ask) or `allow`
//! replies:
//!   - text: I'll write it
//!     tool_calls:
//!       - {id: c1, tool: write_file, args: {path: generated.txt, content: x}, output: written}
//!   - text: done
//! ```
//!
//! A tool call may carry `is_error: true` (its output is an error) and `repeat: N` (N copies,
//! ids `ID-1`…`ID-N`, for long sessions).

use super::message::{ChatMessage, ToolCallRequest};
use super::runner::{AgentRunner, EffectPolicy, FixedApproval, PermissionPolicy, RunError, RunReport};
use super::scripted::{ScriptedModel, ScriptedTools};
use super::tools::{PreparedCall, ToolDefinition};
use super::HookRegistry;
use hookc_core::model::result::{Permission, ToolOutput};
use serde::Deserialize;
use serde_json::{Map, Value};

/// A scripted session.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// The user's prompt.
    pub prompt: String,
    /// The working directory hooks see.
    #[serde(default)]
    pub cwd: Option<String>,
    /// The tools.
    #[serde(default)]
    pub tools: Vec<ToolDefinition>,
    /// The user's answer when a call asks.
    #[serde(default = "yes")]
    pub approve: bool,
    /// The system's permission policy.
    #[serde(default)]
    pub policy: SystemPolicy,
    /// The model's replies, in order.
    pub replies: Vec<Reply>,
    /// At most this many model requests (default: one more than the replies).
    #[serde(default)]
    pub max_turns: Option<usize>,
}

fn yes() -> bool {
    true
}

/// The system permission policies a session can choose.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SystemPolicy {
    /// Reads are allowed, writes ask.
    #[default]
    Effects,
    /// Everything is allowed (hooks still decide what they decide).
    Allow,
}

/// One scripted model reply.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reply {
    /// The reply's text.
    #[serde(default)]
    pub text: String,
    /// The tool calls it makes.
    #[serde(default)]
    pub tool_calls: Vec<ScriptedCall>,
}

/// One scripted tool call and what its tool returns.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCall {
    /// The call id.
    pub id: String,
    /// The tool.
    pub tool: String,
    /// The arguments.
    #[serde(default)]
    pub args: Map<String, Value>,
    /// What the tool returns.
    #[serde(default = "ok")]
    pub output: String,
    /// Whether the output is an error.
    #[serde(default)]
    pub is_error: bool,
    /// How many copies of this call the reply makes.
    #[serde(default)]
    pub repeat: Option<usize>,
}

fn ok() -> String {
    "ok".to_string()
}

impl PermissionPolicy for SystemPolicy {
    fn decide(&self, call: &PreparedCall) -> (Permission, String) {
        match self {
            SystemPolicy::Effects => EffectPolicy.decide(call),
            SystemPolicy::Allow => (Permission::Allow, "the session allows every call".to_string()),
        }
    }
}

/// Why a session file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the session is not valid: {0}")]
pub struct SessionError(pub String);

impl Session {
    /// Reads a session from YAML.
    pub fn from_yaml(text: &str) -> Result<Session, SessionError> {
        serde_yaml::from_str(text).map_err(|error| SessionError(error.to_string()))
    }

    /// Runs the session through the reference loop with these hooks.
    pub fn run(&self, hooks: &HookRegistry) -> Result<RunReport, RunError> {
        let mut tools = ScriptedTools::new(self.tools.clone());
        let mut replies = Vec::new();
        for reply in &self.replies {
            let mut calls = Vec::new();
            for call in &reply.tool_calls {
                let output = ToolOutput { content: call.output.clone(), is_error: call.is_error };
                let ids: Vec<String> = match call.repeat {
                    Some(times) => (1..=times).map(|n| format!("{}-{n}", call.id)).collect(),
                    None => vec![call.id.clone()],
                };
                for id in ids {
                    tools = tools.output(&id, output.clone());
                    calls.push(ToolCallRequest { id, tool: call.tool.clone(), args: call.args.clone() });
                }
            }
            replies.push(ChatMessage::assistant(reply.text.clone(), calls));
        }
        let mut model = ScriptedModel::new(replies);
        let mut approval = FixedApproval(self.approve);
        AgentRunner {
            model: &mut model,
            tools: &mut tools,
            policy: &self.policy,
            approval: &mut approval,
            hooks,
            max_turns: self.max_turns.unwrap_or(self.replies.len() + 1),
            cwd: self.cwd.clone(),
        }
        .run(&self.prompt)
    }
}
