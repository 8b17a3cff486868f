// hookc for the Claude Agent SDK (TypeScript): `hooksFor(policy)` builds the SDK's `hooks` option
// so that every PreToolUse, PostToolUse, UserPromptSubmit and Stop (and the other events Claude
// Code has) goes through hookc in-process, answered exactly as `hookc hook claude` answers Claude
// Code's command hooks: the SDK hands a callback the same input a command hook reads on stdin and
// takes the same JSON back.
//
//   const { query } = require('@anthropic-ai/claude-agent-sdk');
//   const { Policy } = require('hookc');
//   const { hooksFor } = require('hookc/claude-agent-sdk');
//   for await (const message of query({ prompt, options: { hooks: hooksFor(Policy.fromRules(['rules'])) } })) { … }
//
// Failing closed: the SDK treats a callback that throws as a non-blocking failure by default (the
// action goes ahead; `onFailure: 'continue'`), so a callback here never throws. Where hookc cannot
// decide (an evaluation error, a payload it cannot read: what makes `hookc hook` exit 2), the
// callback returns the answer exit 2 gives on Claude Code: `{ decision: 'block', reason }`, which
// refuses the tool call or the prompt, and keeps the agent working at Stop. Each matcher also sets
// `onFailure: 'block'`, so a failure of the callback itself (a bug here) blocks too.
'use strict';

// The events hookc answers for Claude Code.
const EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
  'PermissionRequest',
];

// The answer for one hook input: hookc's JSON, or a block with its reason.
async function decide(policy, input) {
  try {
    const answer = await policy.answerAsync('claude', JSON.stringify(input));
    if (answer.exit === 0) return answer.stdout ? JSON.parse(answer.stdout) : {};
    return { decision: 'block', reason: answer.stderr.join('\n') || 'hookc could not decide: the call is blocked' };
  } catch (error) {
    return { decision: 'block', reason: `hookc could not decide (${error && error.message ? error.message : String(error)}): the call is blocked` };
  }
}

/**
 * The SDK's `hooks` option: for each event `events` names (all of `EVENTS` by default), one
 * matcher for every tool whose callback asks `policy`. `timeout` is in seconds.
 */
function hooksFor(policy, { events = EVENTS, timeout = 10 } = {}) {
  const hooks = {};
  for (const event of events) {
    hooks[event] = [{ hooks: [(input) => decide(policy, input)], timeout, onFailure: 'block' }];
  }
  return hooks;
}

module.exports = { hooksFor, EVENTS };
