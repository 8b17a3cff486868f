// The seed's P04 agent loop (seed 000, chapter 4) in TypeScript, with hookc's Node binding at its
// four hook points:
//
//   user prompt ─→ ① UserPromptSubmit (may add system context)
//   model replies with tool calls → prepare (tool lookup, argument validation)
//               ─→ ② PreToolUse (may rewrite arguments, recommend a permission, block)
//   permission policy / approval → handler (the only side effect)
//               ─→ ③ PostToolUse (may rewrite the result, ask to end the turn)
//   paired tool results → … → model answers without tool calls
//               ─→ ④ Stop (may ask the model once more: at most once per run)
//
// The loop only orchestrates. What the hooks decide comes from one `HookRegistry` of the binding:
// rule sets and JS callbacks, run in registration order and merged by hookc's own chain (the merge
// the Rust `AgentRunner` uses: crates/runtime/src/runner.rs, which this file ports). Whatever a hook does,
// the loop keeps these invariants:
//
// - every tool call gets exactly one paired result; a blocked, denied, failed or skipped call gets
//   an `Error [code]: …` result, so no request to the model ever carries an unanswered call;
// - a hook recommends, rewrites and blocks but never authorises: the permission policy and the
//   approver still decide, and a system deny wins over a hook's allow;
// - approval sees exactly the arguments the handler gets (a frozen copy);
// - Stop forces at most one extra model turn per run.

import { HookRegistry, HookcError, type HookResult } from '../../../bindings/node';

/** The four hook points, in the order a run meets them (the seed's frozen `HOOK_EVENTS`). */
export const HOOK_EVENTS = Object.freeze(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const);
export type HookEvent = (typeof HOOK_EVENTS)[number];

// ─── Messages ──────────────────────────────────────────────────────────────────────────────────

/** A JSON object of tool arguments. */
export type Args = Readonly<Record<string, unknown>>;

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call the model asked for. */
export interface ToolCallRequest {
  readonly id: string;
  readonly tool: string;
  readonly args: Args;
}

/** One message of the history (OpenAI-style: each assistant tool call is answered by one tool
 * message before the next request). Messages are frozen once made. */
export interface ChatMessage {
  readonly role: Role;
  readonly content: string;
  /** An assistant message's tool calls (always present on an assistant message). */
  readonly toolCalls?: readonly ToolCallRequest[];
  /** A tool message's call. */
  readonly toolCallId?: string;
}

export const systemMessage = (content: string): ChatMessage => deepFreeze({ role: 'system', content });
export const userMessage = (content: string): ChatMessage => deepFreeze({ role: 'user', content });
export const assistantMessage = (content: string, toolCalls: readonly ToolCallRequest[] = []): ChatMessage =>
  deepFreeze({ role: 'assistant', content, toolCalls: structuredClone(toolCalls) });
export const toolMessage = (toolCallId: string, content: string): ChatMessage =>
  deepFreeze({ role: 'tool', content, toolCallId });

/** What is wrong with a history's pairing of tool calls and results (the Rust `PairingError`). */
export class PairingError extends Error {
  constructor(
    readonly kind: 'unanswered' | 'orphan' | 'open',
    readonly callId: string,
  ) {
    super(
      kind === 'unanswered'
        ? `tool call \`${callId}\` has no result before the next assistant message`
        : kind === 'orphan'
          ? `tool message for \`${callId}\` answers no open tool call`
          : `tool call \`${callId}\` has no result`,
    );
    this.name = 'PairingError';
  }
}

/** Checks that every assistant tool call is answered by exactly one tool message before the next
 * assistant message, and that no tool message answers nothing; the problem, or `undefined`. */
export function checkPairing(history: readonly ChatMessage[]): PairingError | undefined {
  let open: string[] = [];
  for (const message of history) {
    if (message.role === 'assistant') {
      if (open.length > 0) return new PairingError('unanswered', open[0]!);
      open = (message.toolCalls ?? []).map((call) => call.id);
    } else if (message.role === 'tool') {
      const id = message.toolCallId ?? '';
      const at = open.indexOf(id);
      if (at < 0) return new PairingError('orphan', id);
      open.splice(at, 1);
    }
  }
  return open.length > 0 ? new PairingError('open', open[0]!) : undefined;
}

// ─── Tools ─────────────────────────────────────────────────────────────────────────────────────

/** What a tool does to the world, for the permission policy. */
export type Effect = 'read' | 'write';
export type ArgType = 'string' | 'number' | 'boolean' | 'array' | 'object';

/** A tool's definition. A prepared call keeps the very object the registry holds, so a hook's
 * rewrite can change the arguments only, never the tool (a write cannot pass for a read). */
export interface ToolDefinition {
  readonly name: string;
  readonly effect: Effect;
  /** Required arguments and their types; no argument outside `schema` and `optional` is taken. */
  readonly schema: Readonly<Record<string, ArgType>>;
  readonly optional?: Readonly<Record<string, ArgType>>;
}

/** A handler's output, as PostToolUse sees and may rewrite it. */
export interface ToolOutput {
  readonly content: string;
  readonly isError: boolean;
}

/** A call that passed lookup and validation; frozen, arguments included. */
export interface PreparedCall {
  readonly id: string;
  readonly definition: ToolDefinition;
  readonly args: Args;
}

/** The tools a loop can call. */
export interface Tools {
  definition(name: string): ToolDefinition | undefined;
  /** Runs a prepared call: the only place with side effects. A failure is an output with
   * `isError`, not an exception. */
  invoke(call: PreparedCall): ToolOutput | Promise<ToolOutput>;
}

function typeOf(value: unknown): ArgType | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as ArgType;
}

/** Checks arguments against a definition; what is wrong (the Rust `ArgumentError` texts), or
 * `undefined`. */
export function validateArguments(definition: ToolDefinition, args: unknown): string | undefined {
  const tool = definition.name;
  if (typeOf(args) !== 'object') return `\`${tool}\`: the arguments must be an object`;
  const given = args as Args;
  for (const [name, type] of Object.entries(definition.schema)) {
    if (!(name in given)) return `\`${tool}\` needs the argument \`${name}\``;
    if (typeOf(given[name]) !== type) return `\`${tool}\`: argument \`${name}\` must be a ${type}`;
  }
  for (const [name, value] of Object.entries(given)) {
    if (name in definition.schema) continue;
    const type = definition.optional?.[name];
    if (type === undefined) return `\`${tool}\` has no argument \`${name}\``;
    if (typeOf(value) !== type) return `\`${tool}\`: argument \`${name}\` must be a ${type}`;
  }
  return undefined;
}

/** A call's preparation: the prepared call, or the paired error result the model reads. */
export type Prepared = { readonly call: PreparedCall } | { readonly error: string };

/** Looks the tool up and validates the arguments. A call that fails here never reaches a hook. */
export function prepare(tools: Tools, request: ToolCallRequest): Prepared {
  const definition = tools.definition(request.tool);
  if (definition === undefined) return { error: `Error [unknown_tool]: no tool \`${request.tool}\`` };
  const problem = validateArguments(definition, request.args);
  if (problem !== undefined) return { error: `Error [invalid_arguments]: ${problem}` };
  return { call: freezeCall(request.id, definition, request.args) };
}

/** A prepared call with its own deep-frozen copy of the arguments: whoever kept a reference to
 * the arguments it came from cannot change what approval and the handler see. */
function freezeCall(id: string, definition: ToolDefinition, args: Args): PreparedCall {
  return Object.freeze({ id, definition, args: deepFreeze(structuredClone(args)) });
}

// ─── Permission ────────────────────────────────────────────────────────────────────────────────

export type Permission = 'passthrough' | 'allow' | 'ask' | 'deny';

/** The merge order of recommendations: the strongest wins (a later allow never weakens a deny). */
const STRENGTH: Readonly<Record<Permission, number>> = { passthrough: 0, allow: 1, ask: 2, deny: 3 };

export interface PermissionDecision {
  readonly behavior: Permission;
  readonly reason: string;
}

/** The system's own permission policy (workspace boundaries, fixed rules…); `passthrough` means no
 * opinion. */
export interface PermissionPolicy {
  decide(call: PreparedCall): PermissionDecision | Promise<PermissionDecision>;
}

/** Asks a person about an `ask` decision. */
export interface Approval {
  approve(call: PreparedCall, reason: string): boolean | Promise<boolean>;
}

/** The default policy: reading is allowed, anything else asks. */
export const effectPolicy: PermissionPolicy = {
  decide: ({ definition: { name, effect } }) =>
    effect === 'read'
      ? { behavior: 'allow', reason: `\`${name}\` only reads` }
      : { behavior: 'ask', reason: `\`${name}\` changes things` },
};

/** An approver that always answers the same. */
export const fixedApproval = (answer: boolean): Approval => ({ approve: () => answer });

// ─── The runner ────────────────────────────────────────────────────────────────────────────────

/** The model: answers the history with one assistant message. */
export interface Model {
  complete(history: readonly ChatMessage[]): ChatMessage | Promise<ChatMessage>;
}

/** How a run ended. */
export type Outcome =
  /** The model answered without tool calls (after at most one forced continuation). */
  | { readonly kind: 'completed'; readonly answer: string }
  /** A PostToolUse hook asked to end the turn: `result` is the stopping call's result, and
   * `stopReason` the hook's reason, when it gave one (for the caller; the model never reads it). */
  | { readonly kind: 'stopped'; readonly result: string; readonly stopReason?: string }
  /** The turn limit was reached. */
  | { readonly kind: 'maxTurns' };

/** One step of a run, for transcripts: a message added to the history, an event's hooks run (their
 * merged result, or why they failed), or the permission decision for a call. */
export type Step =
  | { readonly kind: 'message'; readonly message: ChatMessage }
  | {
      readonly kind: 'hook';
      readonly event: HookEvent;
      readonly callId?: string;
      readonly result?: HookResult;
      readonly error?: Error;
    }
  | { readonly kind: 'permission'; readonly callId: string; readonly allowed: boolean; readonly reason: string };

/** A finished run. */
export interface RunReport {
  readonly outcome: Outcome;
  readonly history: readonly ChatMessage[];
  readonly steps: readonly Step[];
}

/** Why a run failed: a UserPromptSubmit or Stop hook failed or broke the contract (extension errors
 * outside the tool calls are never ignored), or the model failed. `cause` is the original error. */
export class RunError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'RunError';
  }
}

/** The result text of the calls after the one whose PostToolUse ended the turn. */
export const SKIPPED_AFTER_STOP = 'Error [hook_stopped_continuation]: Skipped after PostToolUse requested a stop';

export interface AgentRunnerOptions {
  readonly model: Model;
  readonly tools: Tools;
  readonly hooks: HookRegistry;
  /** The system's permission policy (default: `effectPolicy`). */
  readonly policy?: PermissionPolicy;
  /** Who answers `ask` decisions. */
  readonly approval: Approval;
  /** At most this many model requests (default 8). */
  readonly maxTurns?: number;
  /** The working directory, given to hooks as `cwd` (rules resolve relative paths against it). */
  readonly cwd?: string;
}

/** A native hookc event, as `hookc eval` reads it. */
type NativeEvent = Record<string, unknown> & { readonly event: string };

const SEED_NAMES: Readonly<Record<string, HookEvent>> = {
  user_prompt_submit: 'UserPromptSubmit',
  pre_tool_use: 'PreToolUse',
  post_tool_use: 'PostToolUse',
  stop: 'Stop',
};

/** One run's history and transcript. */
class Transcript {
  readonly history: ChatMessage[] = [];
  readonly steps: Step[] = [];

  push(message: ChatMessage): void {
    this.steps.push({ kind: 'message', message });
    this.history.push(message);
  }

  report(outcome: Outcome): RunReport {
    return { outcome, history: this.history, steps: this.steps };
  }
}

/** What one tool call came to: its paired result, the context its hooks added, and whether its
 * PostToolUse asked to end the turn. */
interface CallOutcome {
  readonly result: string;
  readonly context: readonly string[];
  readonly stop?: { readonly reason: string | undefined };
}

export class AgentRunner {
  constructor(private readonly options: AgentRunnerOptions) {}

  /** Runs one user prompt to the end. Rejects with a `RunError` when a UserPromptSubmit or Stop
   * hook fails, or the model does; a tool-call hook's failure is that call's result instead. */
  async run(prompt: string): Promise<RunReport> {
    const transcript = new Transcript();

    // ① UserPromptSubmit judges the prompt before it enters the history. It may add system context
    //    (right after the prompt); it cannot replace, drop or block the prompt.
    const submitted = userMessage(prompt);
    transcript.steps.push({ kind: 'message', message: submitted });
    const promptHook = await this.runFailing(transcript, { event: 'user_prompt_submit', prompt });
    transcript.history.push(submitted);
    for (const context of promptHook.additionalContext ?? []) transcript.push(systemMessage(context));

    let stopHookActive = false;
    for (let turn = 0; turn < (this.options.maxTurns ?? 8); turn += 1) {
      const reply = await this.complete(transcript.history);
      transcript.push(reply);
      const calls = reply.toolCalls ?? [];

      if (calls.length === 0) {
        // ④ Stop: the model answered without tool calls. The first `forceContinue` of the run adds
        //    the Stop's context and that user message and asks the model once more; on the second
        //    Stop (`stop_hook_active`) the hooks still run, but hookc drops any `forceContinue`.
        const stop = await this.runFailing(transcript, stopEvent(transcript.history, reply.content, stopHookActive));
        if (stop.forceContinue === undefined) {
          // Stop context enters the history only with a continuation: nothing reads it afterwards.
          return transcript.report({ kind: 'completed', answer: reply.content });
        }
        for (const context of stop.additionalContext ?? []) transcript.push(systemMessage(context));
        transcript.push(userMessage(stop.forceContinue));
        stopHookActive = true;
        continue;
      }

      // Every call of the reply is answered before anything else enters the history, even when a
      // PostToolUse ends the turn: the calls after it are answered as skipped, so none is orphaned.
      const outcomes: CallOutcome[] = [];
      let stoppedBy: number | undefined;
      for (const call of calls) {
        if (stoppedBy !== undefined) {
          outcomes.push({ result: SKIPPED_AFTER_STOP, context: [] });
          continue;
        }
        // A call that names no tool or has invalid arguments never reaches a hook.
        const prepared = prepare(this.options.tools, call);
        const outcome =
          'error' in prepared
            ? { result: prepared.error, context: [] }
            : await this.callTool(prepared.call, transcript);
        if (outcome.stop !== undefined) stoppedBy = outcomes.length;
        outcomes.push(outcome);
      }
      calls.forEach((call, index) => transcript.push(toolMessage(call.id, outcomes[index]!.result)));
      // PreToolUse and PostToolUse context follows the reply's tool results (a system message
      // between a call and its result would break the pairing).
      for (const outcome of outcomes) for (const context of outcome.context) transcript.push(systemMessage(context));

      if (stoppedBy !== undefined) {
        const { result, stop } = outcomes[stoppedBy]!;
        const reason = stop?.reason;
        return transcript.report({ kind: 'stopped', result, ...(reason === undefined ? {} : { stopReason: reason }) });
      }
    }
    return transcript.report({ kind: 'maxTurns' });
  }

  /** ② PreToolUse → permission → handler → ③ PostToolUse, for one prepared call. */
  private async callTool(prepared: PreparedCall, transcript: Transcript): Promise<CallOutcome> {
    const { policy = effectPolicy, approval, tools } = this.options;

    // ② PreToolUse: the tool exists and its arguments are valid; nothing is decided yet. A hook
    //    that fails or breaks the contract fails this call (closed), not the run. Each hook's
    //    rewrite must still fit the tool's schema as that hook returns it (`checkInput`, the seed's
    //    normalizeUpdatedInput): a later hook cannot repair a refused one.
    let pre: HookResult;
    try {
      pre = await this.runHooks(transcript, preToolUseEvent(prepared), prepared.id, (args) =>
        validateArguments(prepared.definition, args),
      );
    } catch (error) {
      return {
        // The model reads the seed's one text for any contract error; the registry's own text
        // (validateFor's, or the schema's) is the step's detail.
        result: isContractError(error)
          ? 'Error [hook_contract_error]: PreToolUse hook returned an invalid update'
          : 'Error [hook_execution_error]: PreToolUse hook failed',
        context: [],
      };
    }
    const context = [...(pre.additionalContext ?? [])];
    // A block skips the permission policy, the handler and PostToolUse; it is the call's result.
    if (pre.blockingError !== undefined) {
      return { result: `Error [${pre.blockingError.code}]: ${pre.blockingError.message}`, context };
    }
    // A rewrite changes the arguments only (same id, same tool definition, checked above) and is
    // frozen anew: approval sees exactly what the handler gets.
    const effective =
      pre.updatedInput === undefined ? prepared : freezeCall(prepared.id, prepared.definition, pre.updatedInput);

    // Permission: a hook's recommendation is merged with the system's by strength; it never
    // authorises on its own (a system deny wins over a hook's allow, and an ask still asks).
    const system = await policy.decide(effective);
    const hookBehavior: Permission = pre.permissionBehavior ?? 'passthrough';
    const { behavior, reason } =
      STRENGTH[hookBehavior] > STRENGTH[system.behavior]
        ? { behavior: hookBehavior, reason: pre.permissionReason ?? `PreToolUse hook requested ${hookBehavior}` }
        : system;
    const allowed = behavior === 'deny' ? false : behavior === 'ask' ? await approval.approve(effective, reason) : true;
    transcript.steps.push({ kind: 'permission', callId: effective.id, allowed, reason });
    if (!allowed) {
      return { result: `Error [permission_denied]: ${behavior === 'ask' ? 'not approved' : reason}`, context };
    }

    const output = await tools.invoke(effective);

    // ③ PostToolUse: the handler ran, its result is not in the history yet. A failure here cannot
    //    claim nothing happened: the result says the hook failed.
    let post: HookResult;
    try {
      post = await this.runHooks(transcript, postToolUseEvent(effective, output), effective.id);
    } catch {
      return { result: 'Error [hook_execution_error]: PostToolUse hook failed', context };
    }
    context.push(...(post.additionalContext ?? []));
    const final = post.updatedOutput === undefined ? output : fromNativeOutput(post.updatedOutput);
    return {
      result: final.content,
      context,
      ...(post.preventContinuation === true ? { stop: { reason: post.stopReason } } : {}),
    };
  }

  /** Runs an event's hooks; every run is a step, failed or not. `checkInput` judges each PreToolUse
   * rewrite as its hook returns it (the registry rejects with the seed's contract error). */
  private async runHooks(
    transcript: Transcript,
    event: NativeEvent,
    callId?: string,
    checkInput?: (args: Record<string, unknown>) => string | undefined,
  ): Promise<HookResult> {
    const step = {
      kind: 'hook' as const,
      event: SEED_NAMES[event.event]!,
      ...(callId === undefined ? {} : { callId }),
    };
    try {
      const result = await this.options.hooks.run(
        { ...event, agent: 'native', ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }) },
        checkInput === undefined ? {} : { checkInput },
      );
      transcript.steps.push({ ...step, result });
      return result;
    } catch (error) {
      transcript.steps.push({ ...step, error: asError(error) });
      throw error;
    }
  }

  /** UserPromptSubmit and Stop: outside the tool calls, a failing hook fails the run. */
  private async runFailing(transcript: Transcript, event: NativeEvent): Promise<HookResult> {
    try {
      return await this.runHooks(transcript, event);
    } catch (error) {
      throw new RunError(asError(error).message, { cause: error });
    }
  }

  private async complete(history: readonly ChatMessage[]): Promise<ChatMessage> {
    try {
      return await this.options.model.complete([...history]);
    } catch (error) {
      throw new RunError(`the model failed: ${asError(error).message}`, { cause: error });
    }
  }
}

// ─── Native events (the JSON `hookc eval` reads) ───────────────────────────────────────────────

function preToolUseEvent(call: PreparedCall): NativeEvent {
  return { event: 'pre_tool_use', tool: call.definition.name, id: call.id, args: call.args };
}

function postToolUseEvent(call: PreparedCall, output: ToolOutput): NativeEvent {
  return {
    event: 'post_tool_use',
    tool: call.definition.name,
    id: call.id,
    args: call.args,
    result: { content: output.content, is_error: output.isError },
  };
}

/** A Stop sees the whole run: its tool results, its last answer, and every call with how it ended.
 * hookc reads a Stop's calls from what follows the history's last user message, and a run is one
 * prompt's turn (a forced continuation does not start another), so the user messages are left out
 * of the history the event carries: every call of the run counts, as in the Rust runner. */
function stopEvent(history: readonly ChatMessage[], lastMessage: string, stopHookActive: boolean): NativeEvent {
  return {
    event: 'stop',
    stop_hook_active: stopHookActive,
    tool_calls: history.filter((message) => message.role === 'tool').length,
    last_message: lastMessage,
    history: history.filter((message) => message.role !== 'user').map(nativeMessage),
  };
}

function nativeMessage(message: ChatMessage): Record<string, unknown> {
  const native: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
    native.tool_calls = message.toolCalls.map(({ id, tool, args }) => ({ id, tool, args }));
  }
  if (message.toolCallId !== undefined) {
    native.tool_call_id = message.toolCallId;
    // A call failed or was refused when its result reads `Error [code]: …` (the seed's error results).
    if (message.content.startsWith('Error [')) native.is_error = true;
  }
  return native;
}

/** A merged `updatedOutput` (hookc has checked it is a tool output: `{content, is_error}`). */
function fromNativeOutput(value: unknown): ToolOutput {
  const { content, is_error } = value as { content: string; is_error?: boolean };
  return { content, isError: is_error === true };
}

// ─── Helpers ───────────────────────────────────────────────────────────────────────────────────

/** Whether a hook run failed on the contract (`HOOKC_CONTRACT`) rather than by failing. */
function isContractError(error: unknown): boolean {
  return error instanceof HookcError && error.code === 'HOOKC_CONTRACT';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}
