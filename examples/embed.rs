//! Embedding hookc in a Rust agent: rules and a native hook in one registry, an observer, and
//! the reference loop with a scripted model. `docs/embedding.md` walks through this file.

use hookc::runtime::audit::AuditLog;
use hookc::runtime::{
    AgentRunner, ArgType, ChatMessage, Effect, EffectPolicy, FixedApproval, HookRegistry, Outcome, ScriptedModel,
    ScriptedTools, ToolCallRequest, ToolDefinition,
};
use hookc::vocab::EventKind;
use hookc::{HookResult, Policy};
use std::sync::Arc;

/// Runs the example (public so the test suite can run it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. The policy: rule files (or `Policy::load_bundle("policy.hcb")`).
    let policy = Arc::new(Policy::from_source(
        "policy.rules",
        r#"
        rule protect-generated
        pre_tool_use when path == "generated.txt" => block "hook_blocked" "generated.txt is managed elsewhere"
        stop when tool_calls == 0 => continue "verify the result with a tool first"
        "#,
    )?);

    // 2. The registry: hooks run per event in registration order — rule sets and native
    //    callbacks side by side — and their results merge by the seed's rules.
    let mut hooks = HookRegistry::new();
    hooks.add_rules(Arc::clone(&policy));
    hooks.register(EventKind::UserPromptSubmit, |_event| {
        Ok(HookResult { additional_context: vec!["check the acceptance criteria".into()], ..HookResult::default() })
    });

    // 3. Observers see every decision and cannot change one; a failing observer is isolated.
    let audit_path = std::env::temp_dir().join(format!("hookc-embed-{}.jsonl", std::process::id()));
    let audit = AuditLog::open(&audit_path, policy.source_hash())?;
    let sink = Arc::clone(&audit);
    hooks.observe(None, move |observation| sink.record(observation));

    // 4. The loop's collaborators: the model, the tools, the permission policy, the approver.
    let schema =
        [("path".to_string(), ArgType::String), ("content".to_string(), ArgType::String)].into_iter().collect();
    let write_file =
        ToolDefinition { name: "write_file".into(), effect: Effect::Write, schema, optional: Default::default() };
    let mut tools = ScriptedTools::new([write_file]);
    let call = ToolCallRequest {
        id: "call-1".into(),
        tool: "write_file".into(),
        args: serde_json::json!({"path": "generated.txt", "content": "x"}).as_object().cloned().unwrap_or_default(),
    };
    let mut model =
        ScriptedModel::new(vec![ChatMessage::assistant("", vec![call]), ChatMessage::assistant("done", vec![])]);
    let mut approval = FixedApproval(true);

    let report = AgentRunner {
        model: &mut model,
        tools: &mut tools,
        policy: &EffectPolicy,
        approval: &mut approval,
        hooks: &hooks,
        max_turns: 8,
        cwd: Some("/repo".into()),
    }
    .run("regenerate the client")?;

    // The block became the call's paired result; the handler never ran.
    let result = report.history.iter().find(|message| message.tool_call_id.as_deref() == Some("call-1"));
    assert_eq!(
        result.map(|message| message.content.as_str()),
        Some("Error [hook_blocked]: generated.txt is managed elsewhere")
    );
    assert!(tools.invoked.is_empty());
    assert_eq!(report.outcome, Outcome::Completed("done".into()));

    // Flush the audit log before exiting.
    audit.close()?;
    println!("{} audit records in {}", std::fs::read_to_string(&audit_path)?.lines().count(), audit_path.display());
    std::fs::remove_file(&audit_path)?;
    Ok(())
}
