// The P04 loop's observable behaviours: the loop cases of tests/agent.rs (the upstream hook tests
// the Rust `AgentRunner` passes), each named after the Rust test it mirrors and asserting what the
// model and the user observe — the requests the model was sent, the tool results, how the run
// ended — with hookc rules and JS callbacks in one `HookRegistry`. The last three are behaviours the
// seed describes that tests/agent.rs does not test on its own (prefixed `seed_`).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HookRegistry, HookcError, Policy } from '../../../bindings/node';
import {
  AgentRunner,
  effectPolicy,
  fixedApproval,
  RunError,
  SKIPPED_AFTER_STOP,
  assistantMessage,
  checkPairing,
  toolMessage,
  userMessage,
  type Approval,
  type ArgType,
  type ChatMessage,
  type PermissionDecision,
  type PermissionPolicy,
  type PreparedCall,
  type RunReport,
  type ToolCallRequest,
  type ToolDefinition,
} from './loop';
import { ScriptedModel, ScriptedTools } from './scripted';

// ─── The harness (tests/agent.rs's) ────────────────────────────────────────────────────────────

function definitions(): ToolDefinition[] {
  const schema = (...fields: string[]): Record<string, ArgType> =>
    Object.fromEntries(fields.map((field) => [field, 'string' as const]));
  return [
    { name: 'write_file', effect: 'write', schema: schema('path', 'content') },
    { name: 'read_file', effect: 'read', schema: schema('path') },
  ];
}

const call = (id: string, tool: string, args: Record<string, unknown>): ToolCallRequest => ({ id, tool, args });
const rules = (text: string): Policy => Policy.fromSource('test.rules', text);

/** A permission policy that counts its calls and answers with a fixed decision. */
class CountingPolicy implements PermissionPolicy {
  decision: PermissionDecision = { behavior: 'allow', reason: 'allowed by the test policy' };
  calls = 0;
  decide(): PermissionDecision {
    this.calls += 1;
    return this.decision;
  }
}

/** An approver that approves and records what it was shown, and why it was asked. */
class RecordingApproval implements Approval {
  readonly seen: PreparedCall[] = [];
  readonly reasons: string[] = [];
  approve(call: PreparedCall, reason: string): boolean {
    this.seen.push(call);
    this.reasons.push(reason);
    return true;
  }
}

class Harness {
  readonly model: ScriptedModel;
  tools = new ScriptedTools(definitions());
  readonly policy = new CountingPolicy();
  approval: Approval = new RecordingApproval();

  constructor(replies: readonly ChatMessage[]) {
    this.model = new ScriptedModel(replies);
  }

  async run(hooks: HookRegistry, prompt = 'go'): Promise<RunReport> {
    try {
      return await new AgentRunner({
        model: this.model,
        tools: this.tools,
        policy: this.policy,
        approval: this.approval,
        hooks,
        maxTurns: 8,
        cwd: '/repo',
      }).run(prompt);
    } finally {
      // Every request the model received had every tool call paired with one result.
      for (const request of this.model.requests) assert.equal(checkPairing(request), undefined);
    }
  }
}

/** The tool results of a run, as `[call id, result]`. */
const toolResults = (report: RunReport): [string, string][] =>
  report.history.filter((message) => message.role === 'tool').map((message) => [message.toolCallId!, message.content]);

/** The history as `[role, content]`. */
const roles = (history: readonly ChatMessage[]): [string, string][] =>
  history.map((message) => [message.role, message.content]);

/** Counts PostToolUse runs. */
function countPosts(hooks: HookRegistry): { count: number } {
  const posts = { count: 0 };
  hooks.register('PostToolUse', () => {
    posts.count += 1;
    return undefined;
  });
  return posts;
}

// ─── tests/agent.rs ────────────────────────────────────────────────────────────────────────────

test('a_hook_allow_is_only_a_recommendation_and_a_system_deny_wins', async () => {
  const hooks = new HookRegistry().addRules(rules('pre_tool_use when tool == write_file => allow "the hook likes it"'));
  const posts = countPosts(hooks);
  const harness = new Harness([
    assistantMessage('', [call('c1', 'write_file', { path: '/etc/passwd', content: 'x' })]),
    assistantMessage('done'),
  ]);
  harness.policy.decision = { behavior: 'deny', reason: 'outside the workspace' };
  const report = await harness.run(hooks);
  assert.deepEqual(toolResults(report), [['c1', 'Error [permission_denied]: outside the workspace']]);
  assert.equal(harness.tools.invoked.length, 0, 'the handler must not run');
  assert.equal(posts.count, 0, 'PostToolUse must not run');
});

test('a_block_skips_permission_handler_and_post_tool_use', async () => {
  const hooks = new HookRegistry().addRules(
    rules('pre_tool_use when path == "generated.txt" => block "hook_blocked" "generated.txt is managed elsewhere"'),
  );
  const posts = countPosts(hooks);
  const harness = new Harness([
    assistantMessage('', [call('c1', 'write_file', { path: './generated.txt', content: 'x' })]),
    assistantMessage('done'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(toolResults(report), [['c1', 'Error [hook_blocked]: generated.txt is managed elsewhere']]);
  assert.equal(harness.policy.calls, 0);
  assert.equal(harness.tools.invoked.length, 0);
  assert.equal(posts.count, 0);
  assert.deepEqual(report.outcome, { kind: 'completed', answer: 'done' });
  // The model's second request carried the block as the call's result.
  assert.deepEqual(
    harness.model.requests[1]!.at(-1),
    toolMessage('c1', 'Error [hook_blocked]: generated.txt is managed elsewhere'),
  );
});

// The seed's race, too: a hook that keeps the event it was given and changes it while the user is
// being asked changes nothing that runs ("approve A, execute B" cannot happen).
test('a_valid_rewrite_is_exactly_what_approval_and_the_handler_see', async () => {
  let kept: Record<string, unknown> | undefined;
  const hooks = new HookRegistry()
    .addRules(rules('pre_tool_use when tool == write_file => set path = "sandbox/{path}"'))
    .register('PreToolUse', (event) => {
      kept = event;
      return undefined;
    });
  const harness = new Harness([
    assistantMessage('', [call('c1', 'write_file', { path: 'a.txt', content: 'x' })]),
    assistantMessage('done'),
  ]);
  harness.policy.decision = { behavior: 'ask', reason: 'writes ask' };
  const approval = new RecordingApproval();
  harness.approval = {
    approve(prepared, reason) {
      (kept!.args as Record<string, unknown>).path = '/etc/passwd';
      assert.throws(
        () => ((prepared.args as Record<string, unknown>).path = '/etc/passwd'),
        TypeError,
        'the arguments are frozen',
      );
      return approval.approve(prepared, reason);
    },
  };
  await harness.run(hooks);
  assert.equal(approval.seen.length, 1);
  assert.deepEqual(harness.tools.invoked, approval.seen, 'approval saw exactly what the handler got');
  assert.equal(harness.tools.invoked[0], approval.seen[0], 'the very same frozen call');
  assert.equal(harness.tools.invoked[0]!.args.path, 'sandbox/a.txt');
  assert.equal(harness.tools.invoked[0]!.id, 'c1');
});

test('hook_failures_are_paired_errors_and_say_whether_the_handler_ran', async () => {
  const hooks = new HookRegistry()
    .register('PreToolUse', (event) => {
      if (event.tool === 'write_file') throw new Error('the pre hook broke');
      return undefined;
    })
    .register('PostToolUse', () => {
      throw new Error('the post hook broke');
    });
  const harness = new Harness([
    assistantMessage('', [
      call('c1', 'write_file', { path: 'a', content: 'x' }),
      call('c2', 'read_file', { path: 'b' }),
    ]),
    assistantMessage('done'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(toolResults(report), [
    ['c1', 'Error [hook_execution_error]: PreToolUse hook failed'],
    ['c2', 'Error [hook_execution_error]: PostToolUse hook failed'],
  ]);
  assert.equal(harness.tools.invoked.length, 1, "only c2's handler ran");
  assert.equal(harness.tools.invoked[0]!.id, 'c2');
});

test('a_post_tool_use_stop_pairs_every_call_and_ends_without_another_request', async () => {
  const hooks = new HookRegistry().addRules(rules('post_tool_use when path == "a" => stop "enough"'));
  const harness = new Harness([
    assistantMessage('', [
      call('c1', 'read_file', { path: 'a' }),
      call('c2', 'read_file', { path: 'b' }),
      call('c3', 'read_file', { path: 'c' }),
    ]),
    assistantMessage('never requested'),
  ]);
  harness.tools = new ScriptedTools(definitions()).output('c1', { content: 'contents of a', isError: false });
  const report = await harness.run(hooks);
  assert.deepEqual(toolResults(report), [
    ['c1', 'contents of a'],
    ['c2', SKIPPED_AFTER_STOP],
    ['c3', SKIPPED_AFTER_STOP],
  ]);
  assert.deepEqual(report.outcome, { kind: 'stopped', result: 'contents of a', stopReason: 'enough' });
  assert.equal(harness.model.requests.length, 1);
  assert.equal(harness.model.remaining, 1);
  assert.equal(harness.tools.invoked.length, 1, 'the skipped calls never ran');
  assert.equal(checkPairing(report.history), undefined);
});

test('stop_forces_at_most_one_extra_turn', async () => {
  // The recorder runs first: the first `continue` ends the remaining Stop hooks.
  const seen: unknown[] = [];
  const hooks = new HookRegistry()
    .register('Stop', (event) => {
      seen.push(event.stop_hook_active);
      return undefined;
    })
    .addRules(rules('stop when tool_calls == 0 => continue "verify the result with a tool first"'));
  const harness = new Harness([
    assistantMessage('done'),
    assistantMessage('really done'),
    assistantMessage('never requested'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(report.outcome, { kind: 'completed', answer: 'really done' });
  assert.equal(harness.model.requests.length, 2, 'exactly one extra model turn');
  assert.deepEqual(seen, [false, true], 'the second Stop runs, seeing stop_hook_active');
  assert.deepEqual(harness.model.requests[1]!.at(-1), userMessage('verify the result with a tool first'));
});

test('context_goes_where_the_seed_puts_it_and_invalid_prompt_or_stop_results_fail_the_run', async () => {
  const hooks = new HookRegistry().addRules(
    rules(
      'user_prompt_submit => context "check the acceptance criteria"\n' +
        'pre_tool_use => context "pre"\n' +
        'post_tool_use => context "post"',
    ),
  );
  const harness = new Harness([
    assistantMessage('', [call('c1', 'read_file', { path: 'a' })]),
    assistantMessage('done'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(roles(report.history), [
    ['user', 'go'],
    ['system', 'check the acceptance criteria'],
    ['assistant', ''],
    ['tool', 'ok'],
    ['system', 'pre'],
    ['system', 'post'],
    ['assistant', 'done'],
  ]);
  // The model's first request already had the prompt's context.
  assert.deepEqual(roles(harness.model.requests[0]!), [
    ['user', 'go'],
    ['system', 'check the acceptance criteria'],
  ]);

  for (const [event, name] of [
    ['UserPromptSubmit', 'UserPromptSubmit'],
    ['Stop', 'Stop'],
  ] as const) {
    const failing = new HookRegistry().register(event, () => ({ blockingError: { code: 'x', message: 'y' } }));
    const harness = new Harness([assistantMessage('done')]);
    await assert.rejects(harness.run(failing), (error: unknown) => {
      assert.ok(error instanceof RunError);
      assert.equal(error.message, `${name} HookResult does not allow fields: blockingError`);
      return true;
    });
  }
});

// tests/agent.rs checks this on the registry alone; here the same registry sits in the loop, and the
// model reads the deny of the rules that saw the first callback's rewrite.
test('hooks_run_in_registration_order_and_later_hooks_see_earlier_rewrites', async () => {
  const seen: unknown[] = [];
  const hooks = new HookRegistry()
    .register('PreToolUse', () => ({ updatedInput: { path: 'rewritten', content: 'x' } }))
    .addRules(rules('pre_tool_use when path == "rewritten" => deny "the rules saw the rewrite"'))
    .register('PreToolUse', (event) => {
      seen.push((event.args as Record<string, unknown>).path);
      return { permissionBehavior: 'allow' };
    });
  const harness = new Harness([
    assistantMessage('', [call('c1', 'write_file', { path: 'original', content: 'x' })]),
    assistantMessage('done'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(
    toolResults(report),
    [['c1', 'Error [permission_denied]: the rules saw the rewrite']],
    'a later allow never weakens a deny',
  );
  assert.deepEqual(seen, ['rewritten'], 'the later callback ran (a deny does not halt) and saw the rewrite');
  assert.equal(harness.tools.invoked.length, 0);
});

test('a_native_result_with_fields_its_event_cannot_carry_is_a_contract_error', async () => {
  const hooks = new HookRegistry().register('PreToolUse', () => ({
    updatedOutput: { content: 'x', is_error: false },
    forceContinue: 'y',
  }));
  const harness = new Harness([
    assistantMessage('', [call('c1', 'read_file', { path: 'a' })]),
    assistantMessage('done'),
  ]);
  const report = await harness.run(hooks);
  // The model reads the seed's one text; what was wrong is the detail, in the transcript.
  assert.deepEqual(toolResults(report), [
    ['c1', 'Error [hook_contract_error]: PreToolUse hook returned an invalid update'],
  ]);
  const failed = report.steps.find((step) => step.kind === 'hook' && step.error !== undefined);
  assert.ok(failed?.kind === 'hook');
  assert.match(
    (failed.error as { detail?: string }).detail ?? '',
    /PreToolUse HookResult does not allow fields: updatedOutput, forceContinue$/,
  );
  assert.equal(harness.policy.calls, 0);
  assert.equal(harness.tools.invoked.length, 0);
});

// The seed's `validateFor` lists the fields in the order the seed declares them.
test('contract_errors_list_fields_in_the_seeds_order', async () => {
  const hooks = new HookRegistry().register('Stop', () => ({
    blockingError: { code: 'x', message: 'y' },
    updatedInput: {},
  }));
  const harness = new Harness([assistantMessage('done')]);
  await assert.rejects(harness.run(hooks), {
    name: 'RunError',
    message: 'Stop HookResult does not allow fields: updatedInput, blockingError',
  });
});

// Each hook's rewrite is checked as that hook returns it: a later hook that would repair it never runs.
test('an_invalid_rewrite_stops_the_chain_at_the_hook_that_returned_it', async () => {
  let later = 0;
  const hooks = new HookRegistry()
    .register('PreToolUse', () => ({ updatedInput: { path: 3 } }))
    .register('PreToolUse', () => {
      later += 1;
      return { updatedInput: { path: 'repaired' }, additionalContext: ['never added'] };
    });
  const harness = new Harness([
    assistantMessage('', [call('c1', 'read_file', { path: 'a' })]),
    assistantMessage('done'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(toolResults(report), [
    ['c1', 'Error [hook_contract_error]: PreToolUse hook returned an invalid update'],
  ]);
  assert.equal(harness.policy.calls, 0);
  assert.equal(harness.tools.invoked.length, 0);
  assert.ok(
    report.history.every((message) => message.content !== 'never added'),
    'a failed PreToolUse adds no context',
  );
  assert.equal(later, 0, 'the hook after the refused rewrite did not run');
  const failed = report.steps.find((step) => step.kind === 'hook' && step.error !== undefined);
  assert.ok(failed?.kind === 'hook' && failed.error instanceof HookcError && failed.error.code === 'HOOKC_CONTRACT');
  assert.match((failed.error as HookcError & { detail?: string }).detail ?? '', /`read_file`: argument `path` must be a string/);
});

// A recommendation without a reason carries the seed's text to the approver and the model.
test('a_recommendation_without_a_reason_gets_the_seeds_text', async () => {
  for (const [behavior, expected] of [
    ['deny', 'Error [permission_denied]: PreToolUse hook requested deny'],
    ['ask', 'ok'],
  ] as const) {
    const hooks = new HookRegistry().register('PreToolUse', () => ({ permissionBehavior: behavior }));
    const harness = new Harness([
      assistantMessage('', [call('c1', 'read_file', { path: 'a' })]),
      assistantMessage('done'),
    ]);
    const approval = new RecordingApproval();
    harness.approval = approval;
    const report = await harness.run(hooks);
    assert.deepEqual(toolResults(report), [['c1', expected]]);
    assert.deepEqual(approval.reasons, behavior === 'ask' ? ['PreToolUse hook requested ask'] : []);
  }
});

// The seed writes Stop context into the history only with a forced continuation: after the final
// answer nothing would read it.
test('stop_context_enters_the_history_only_with_a_continuation', async () => {
  const once = new Harness([assistantMessage('done')]);
  const report = await once.run(new HookRegistry().addRules(rules('stop => context "stop context"')));
  assert.deepEqual(report.history.at(-1), assistantMessage('done'));
  assert.ok(report.history.every((message) => message.content !== 'stop context'));

  const twice = new Harness([assistantMessage('done'), assistantMessage('done again')]);
  const continued = await twice.run(
    new HookRegistry().addRules(
      rules('stop when not stop_hook_active => context "stop context", continue "once more"'),
    ),
  );
  assert.deepEqual(roles(continued.history).slice(1), [
    ['assistant', 'done'],
    ['system', 'stop context'],
    ['user', 'once more'],
    ['assistant', 'done again'],
  ]);
});

// A run with an observer that fails on every call is identical to a run without it.
test('a_failing_observer_changes_nothing', async () => {
  const scenario = async (observed: boolean) => {
    const hooks = new HookRegistry().addRules(
      rules('pre_tool_use when path == "b" => deny "no b"\nstop when tool_calls == 2 => continue "once more"'),
    );
    if (observed) {
      hooks.observe(() => {
        throw new Error('the observer always fails');
      });
    }
    const harness = new Harness([
      assistantMessage('', [call('c1', 'read_file', { path: 'a' }), call('c2', 'read_file', { path: 'b' })]),
      assistantMessage('done'),
      assistantMessage('done again'),
    ]);
    const report = await harness.run(hooks);
    return { report, failures: hooks.observerFailures };
  };
  const plain = await scenario(false);
  const observed = await scenario(true);
  assert.deepEqual(observed.report.history, plain.report.history);
  assert.deepEqual(observed.report.outcome, plain.report.outcome);
  // What both runs were: c2 denied, and the Stop rule (two tool results) forced one more turn.
  assert.deepEqual(toolResults(plain.report), [
    ['c1', 'ok'],
    ['c2', 'Error [permission_denied]: no b'],
  ]);
  assert.deepEqual(plain.report.outcome, { kind: 'completed', answer: 'done again' });
  assert.ok(observed.failures >= 5, `every hook point was observed and failed: ${observed.failures}`);
});

test('pairing_checks_catch_orphans_and_missing_results', () => {
  const assistant = assistantMessage('', [call('c1', 't', {}), call('c2', 't', {})]);
  const open = checkPairing([assistant, toolMessage('c1', 'x')]);
  assert.deepEqual([open?.kind, open?.callId], ['open', 'c2']);
  const orphan = checkPairing([toolMessage('zz', 'x')]);
  assert.deepEqual([orphan?.kind, orphan?.callId], ['orphan', 'zz']);
  assert.equal(
    checkPairing([assistant, assistant])?.message,
    'tool call `c1` has no result before the next assistant message',
  );
  assert.equal(checkPairing([assistant, toolMessage('c2', 'x'), toolMessage('c1', 'y')]), undefined);
});

// ─── The seed's behaviours beyond tests/agent.rs ───────────────────────────────────────────────

// The seed's P04 CLI registers four hooks that only log (`liveHooks`); a read-only task logs the
// hook points in this order, with chapter 3's permission audit between PreToolUse and the handler.
test('seed_live_hooks_log_the_four_hook_points_in_order', async () => {
  const log: string[] = [];
  const hooks = new HookRegistry()
    .register('UserPromptSubmit', () => {
      log.push('[Hook] UserPromptSubmit');
      return undefined;
    })
    .register('PreToolUse', (event) => {
      log.push(`[Hook] PreToolUse: ${String(event.tool)}`);
      return undefined;
    })
    .register('PostToolUse', (event) => {
      const result = event.result as { is_error: boolean };
      log.push(`[Hook] PostToolUse: ${String(event.tool)} -> ${result.is_error ? 'error' : 'ok'}`);
      return undefined;
    })
    .register('Stop', () => {
      log.push('[Hook] Stop');
      return undefined;
    });
  const harness = new Harness([
    assistantMessage('', [call('c1', 'read_file', { path: 'README.md' })]),
    assistantMessage('npm run ch04'),
  ]);
  const policy = harness.policy;
  const audited: PermissionPolicy = {
    decide(prepared) {
      const decision = policy.decide();
      log.push(`[Permission] ${prepared.definition.name}: ${decision.behavior} - ${decision.reason}`);
      return decision;
    },
  };
  const report = await new AgentRunner({
    model: harness.model,
    tools: harness.tools,
    policy: audited,
    approval: harness.approval,
    hooks,
  }).run('读取 README.md 并概括运行方式');
  assert.deepEqual(log, [
    '[Hook] UserPromptSubmit',
    '[Hook] PreToolUse: read_file',
    '[Permission] read_file: allow - allowed by the test policy',
    '[Hook] PostToolUse: read_file -> ok',
    '[Hook] Stop',
  ]);
  assert.deepEqual(report.outcome, { kind: 'completed', answer: 'npm run ch04' });
  // Hooks that return nothing change nothing: no context, no rewrite.
  assert.deepEqual(roles(report.history), [
    ['user', '读取 README.md 并概括运行方式'],
    ['assistant', ''],
    ['tool', 'ok'],
    ['assistant', 'npm run ch04'],
  ]);
});

// "If the first Post hook rewrites `original` into `rewritten once`, the second one's
// `context.result` is `rewritten once`": registration order is rewrite order, and the model reads
// the last rewrite.
test('seed_post_tool_use_rewrites_apply_in_registration_order', async () => {
  const seen: string[] = [];
  const hooks = new HookRegistry()
    .register('PostToolUse', () => ({ updatedOutput: { content: 'rewritten once', is_error: false } }))
    .register('PostToolUse', (event) => {
      const { content } = event.result as { content: string };
      seen.push(content);
      return { updatedOutput: { content: `${content}, then twice`, is_error: false } };
    });
  const harness = new Harness([
    assistantMessage('', [call('c1', 'read_file', { path: 'a' })]),
    assistantMessage('done'),
  ]);
  harness.tools = new ScriptedTools(definitions()).output('c1', { content: 'original', isError: false });
  const report = await harness.run(hooks);
  assert.deepEqual(seen, ['rewritten once']);
  assert.deepEqual(toolResults(report), [['c1', 'rewritten once, then twice']]);
  assert.deepEqual(harness.model.requests[1]!.at(-1), toolMessage('c1', 'rewritten once, then twice'));
});

// Pre and Post only ever see calls that passed tool lookup and argument validation; the others
// still get their paired error result.
test('seed_unknown_tools_and_invalid_arguments_never_reach_a_hook', async () => {
  const hooked: unknown[] = [];
  const hooks = new HookRegistry()
    .register('PreToolUse', (event) => {
      hooked.push(event.id);
      return undefined;
    })
    .register('PostToolUse', (event) => {
      hooked.push(event.id);
      return undefined;
    });
  const harness = new Harness([
    assistantMessage('', [
      call('c1', 'delete_everything', {}),
      call('c2', 'read_file', {}),
      call('c3', 'read_file', { path: 'a', mode: 'fast' }),
      call('c4', 'read_file', { path: 'a' }),
    ]),
    assistantMessage('done'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(toolResults(report), [
    ['c1', 'Error [unknown_tool]: no tool `delete_everything`'],
    ['c2', 'Error [invalid_arguments]: `read_file` needs the argument `path`'],
    ['c3', 'Error [invalid_arguments]: `read_file` has no argument `mode`'],
    ['c4', 'ok'],
  ]);
  assert.deepEqual(hooked, ['c4', 'c4']);
});

// The seed's Stop hook reads the whole run ("this session ran N tool calls"), and so does the second
// Stop after a forced continuation: the continuation does not start a new turn (docs/embedding.md,
// "A Stop sees the run's tool calls").
test('seed_a_second_stop_still_sees_every_call_of_the_run', async () => {
  const logs: string[] = [];
  const hooks = new HookRegistry()
    .addRules(
      rules(
        'stop => log "active={stop_hook_active} calls={tool_calls} tools=[{tools_used}] files=[{files_written}]"\n' +
          'stop when not stop_hook_active => continue "check it once more"',
      ),
    )
    .observe('Stop', (observation) => {
      for (const log of observation.logs) logs.push('message' in log ? log.message : log.error);
    });
  const harness = new Harness([
    assistantMessage('', [call('c1', 'write_file', { path: 'a.txt', content: 'x' })]),
    assistantMessage('done'),
    assistantMessage('done again'),
  ]);
  const report = await harness.run(hooks);
  assert.deepEqual(report.outcome, { kind: 'completed', answer: 'done again' });
  assert.deepEqual(logs, [
    'active=false calls=1 tools=[write_file] files=[a.txt]',
    'active=true calls=1 tools=[write_file] files=[a.txt]',
  ]);
});

// Writing still needs the user's approval with hooks in place (chapter 3's explicit approval): the
// default policy lets reads through and asks about writes; a refused write never runs, and neither
// does its PostToolUse.
test('seed_a_write_runs_only_when_the_user_approves', async () => {
  for (const approves of [false, true]) {
    const hooks = new HookRegistry();
    const posts = countPosts(hooks);
    const model = new ScriptedModel([
      assistantMessage('', [
        call('c1', 'read_file', { path: 'a' }),
        call('c2', 'write_file', { path: 'b', content: 'x' }),
      ]),
      assistantMessage('done'),
    ]);
    const tools = new ScriptedTools(definitions());
    const runner = new AgentRunner({ model, tools, policy: effectPolicy, approval: fixedApproval(approves), hooks });
    const report = await runner.run('go');
    assert.deepEqual(toolResults(report), [
      ['c1', 'ok'],
      ['c2', approves ? 'ok' : 'Error [permission_denied]: not approved'],
    ]);
    assert.deepEqual(
      tools.invoked.map((invoked) => invoked.id),
      approves ? ['c1', 'c2'] : ['c1'],
    );
    assert.equal(posts.count, approves ? 2 : 1);
  }
});
