//! HookResult: the structured answer an event gets, and the rules for merging answers.

use super::dedup_in_order;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A permission recommendation. The order is the merge order: the strongest wins
/// (`passthrough < allow < ask < deny`), so a later `allow` never weakens an earlier `deny`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Permission {
    /// No recommendation: the agent's own permission flow decides.
    #[default]
    Passthrough,
    /// Recommend allowing (never authorises by itself: any system deny wins).
    Allow,
    /// Recommend asking the user.
    Ask,
    /// Recommend denying.
    Deny,
}

impl Permission {
    /// Whether no recommendation was made.
    pub fn is_passthrough(&self) -> bool {
        *self == Permission::Passthrough
    }

    /// The reason a recommendation made without one is given (the seed's text).
    pub fn default_reason(self) -> String {
        format!("PreToolUse hook requested {}", self.name())
    }

    /// The word as in rules and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Permission::Passthrough => "passthrough",
            Permission::Allow => "allow",
            Permission::Ask => "ask",
            Permission::Deny => "deny",
        }
    }
}

/// A blocking error: the tool call does not run and its result is `Error [code]: message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockingError {
    /// A stable code (`hook_blocked`).
    pub code: String,
    /// What to tell the model.
    pub message: String,
}

impl std::fmt::Display for BlockingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Error [{}]: {}", self.code, self.message)
    }
}

/// A tool's output, as PostToolUse sees and rewrites it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolOutput {
    /// The output text.
    pub content: String,
    /// Whether the tool reported an error.
    #[serde(default)]
    pub is_error: bool,
}

/// What the rules decided for one event. Absent fields are omitted from JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HookResult {
    /// The strongest permission recommendation.
    #[serde(default, skip_serializing_if = "Permission::is_passthrough")]
    pub permission_behavior: Permission,
    /// The reason given by the rule that set the winning permission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_reason: Option<String>,
    /// The first block (pre_tool_use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking_error: Option<BlockingError>,
    /// The tool's whole argument object after every `set` (pre_tool_use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// The tool's output after every rewrite (post_tool_use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_output: Option<ToolOutput>,
    /// System messages to add, in rule order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_context: Vec<String>,
    /// End the turn after this tool result (post_tool_use).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prevent_continuation: bool,
    /// Why the turn ends: the first `stop` reason given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// A user message that forces one more model turn (stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_continue: Option<String>,
    /// The rules that fired, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matched: Vec<String>,
}

impl HookResult {
    /// Merges a recommendation: the strongest permission wins, and the reason goes with it.
    pub fn recommend(&mut self, permission: Permission, reason: String) {
        if permission > self.permission_behavior {
            self.permission_behavior = permission;
            self.permission_reason = Some(reason);
        }
    }

    /// Merges the result of a later hook of the same event (the seed's `mergeResults`): a later
    /// rewrite replaces the earlier one, context concatenates, `preventContinuation` is an OR,
    /// the strongest permission wins, the first block and the first `forceContinue` stay. A
    /// recommendation without a reason gets the seed's (`PreToolUse hook requested deny`).
    ///
    /// This, [`HookResult::settle`] and [`HookResult::halts`] are the merge and halt rules: the
    /// registry merges hooks and the evaluator merges rules with them, and nothing else merges.
    pub fn merge(&mut self, later: HookResult) {
        if !later.permission_behavior.is_passthrough() {
            let reason = later.permission_reason.unwrap_or_else(|| later.permission_behavior.default_reason());
            self.recommend(later.permission_behavior, reason);
        }
        if self.blocking_error.is_none() {
            self.blocking_error = later.blocking_error;
        }
        if later.updated_input.is_some() {
            self.updated_input = later.updated_input;
        }
        if later.updated_output.is_some() {
            self.updated_output = later.updated_output;
        }
        self.additional_context.extend(later.additional_context);
        self.prevent_continuation |= later.prevent_continuation;
        self.stop_reason = self.stop_reason.take().or(later.stop_reason);
        self.force_continue = self.force_continue.take().or(later.force_continue);
        self.matched.extend(later.matched);
    }

    /// What a hook's result may still do before it is merged: on a Stop that follows a forced
    /// continuation, `forceContinue` is dropped (one extra turn at most; the seed's `run()`).
    /// Whether one was dropped.
    pub fn settle(&mut self, stop_hook_active: bool) -> bool {
        stop_hook_active && self.force_continue.take().is_some()
    }

    /// Whether the hooks (or rules) after this merged result are skipped: the first
    /// `blockingError` and the first `forceContinue` short-circuit the rest.
    pub fn halts(&self) -> bool {
        self.blocking_error.is_some() || self.force_continue.is_some()
    }

    /// Merges the results of judging one call once per file it touches (a patch of several
    /// files, a move's source and destination, a link and its target): a deny or ask of any
    /// file wins, but an `allow` stands only when every file is allowed — a rule allowing one
    /// file must not allow the others. The first block, every context once, and rewrites only
    /// if they agree (a rewrite that differs per file cannot be applied to the one call: `Err`).
    pub fn merge_files(results: Vec<HookResult>) -> Result<HookResult, MergeError> {
        let mut results = results.into_iter();
        let Some(mut merged) = results.next() else { return Ok(HookResult::default()) };
        let mut every_allowed = merged.permission_behavior == Permission::Allow;
        for result in results {
            if result.updated_input != merged.updated_input || result.updated_output != merged.updated_output {
                return Err(MergeError::DivergentRewrites);
            }
            every_allowed &= result.permission_behavior == Permission::Allow;
            merged.merge(result);
        }
        if merged.permission_behavior == Permission::Allow && !every_allowed {
            merged.permission_behavior = Permission::Passthrough;
            merged.permission_reason = None;
        }
        // The same rule firing for several files is one finding, said once.
        dedup_in_order(&mut merged.additional_context);
        dedup_in_order(&mut merged.matched);
        Ok(merged)
    }

    /// The JSON names of the fields this result sets (for contract errors), in the order the
    /// seed declares them: `Stop HookResult does not allow fields: updatedInput, blockingError`.
    pub fn fields_set(&self) -> Vec<&'static str> {
        let mut fields = Vec::new();
        let mut note = |set: bool, name| {
            if set {
                fields.push(name);
            }
        };
        note(!self.permission_behavior.is_passthrough(), "permissionBehavior");
        note(self.updated_input.is_some(), "updatedInput");
        note(self.updated_output.is_some(), "updatedOutput");
        note(!self.additional_context.is_empty(), "additionalContext");
        note(self.blocking_error.is_some(), "blockingError");
        note(self.prevent_continuation || self.stop_reason.is_some(), "preventContinuation");
        note(self.force_continue.is_some(), "forceContinue");
        fields
    }
}

/// Why the results for the files of one call cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// A rewrite differs per file: the one call cannot carry them all, so it fails closed.
    #[error("rules rewrote a call that touches several files differently for each file")]
    DivergentRewrites,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_permission_wins_and_keeps_its_reason() {
        let mut result = HookResult::default();
        result.recommend(Permission::Ask, "ask".into());
        result.recommend(Permission::Deny, "deny".into());
        result.recommend(Permission::Allow, "allow".into());
        result.recommend(Permission::Deny, "second deny".into());
        assert_eq!(result.permission_behavior, Permission::Deny);
        assert_eq!(result.permission_reason.as_deref(), Some("deny"));
    }

    #[test]
    fn allow_for_several_files_needs_every_file_allowed() {
        let allow = || HookResult { permission_behavior: Permission::Allow, ..HookResult::default() };
        let merged = HookResult::merge_files(vec![allow(), HookResult::default()]).unwrap();
        assert_eq!(merged.permission_behavior, Permission::Passthrough);
        assert_eq!(HookResult::merge_files(vec![allow(), allow()]).unwrap().permission_behavior, Permission::Allow);
        let ask = HookResult { permission_behavior: Permission::Ask, ..HookResult::default() };
        assert_eq!(HookResult::merge_files(vec![allow(), ask]).unwrap().permission_behavior, Permission::Ask);
    }

    #[test]
    fn an_empty_result_is_an_empty_object() {
        assert_eq!(serde_json::to_string(&HookResult::default()).unwrap(), "{}");
    }
}
