/** A failure from hookc: `code` is a diagnostic code (`E0101`) for rules that do not check, or
 * `HOOKC_LOAD`, `HOOKC_EVENT`, `HOOKC_EVAL`, `HOOKC_AGENT`, `HOOKC_TRUST_KEY`; from a
 * `HookRegistry` run, `HOOKC_HOOK` (a hook failed) or `HOOKC_CONTRACT` (a result its event's
 * contract refuses: the message is the seed's text, `detail` says what was wrong). */
export class HookcError extends Error {
  code: string;
  diagnostics?: { code: string; severity: 'error' | 'warning'; message: string }[];
  detail?: string;
}

/** What `hookc hook AGENT` prints and exits with. */
export interface Answer {
  stdout: string | null;
  exit: number;
  stderr: string[];
}

/** The HookResult, as `hookc eval` prints it (fields at their defaults are left out). */
export interface HookResult {
  permissionBehavior?: 'allow' | 'deny' | 'ask';
  permissionReason?: string;
  blockingError?: { code: string; message: string };
  updatedInput?: Record<string, unknown>;
  updatedOutput?: unknown;
  additionalContext?: string[];
  preventContinuation?: boolean;
  stopReason?: string;
  forceContinue?: string;
  matched?: string[];
}

export class Policy {
  static fromRules(paths: string | string[]): Policy;
  static fromSource(name: string, text: string): Policy;
  static fromBundle(path: string, options?: { trustKey?: string }): Policy;
  readonly sourceHash: string;
  evaluate(event: Record<string, unknown>): HookResult;
  /** `evaluate` from JSON text to JSON text. */
  evaluateJson(event: string): string;
  answer(agent: string, payload: string | Record<string, unknown>, event?: string): Answer;
  /** `evaluate` on a worker thread: the event loop never waits. Rejects with a `HookcError`. */
  evaluateAsync(event: Record<string, unknown>): Promise<HookResult>;
  /** `evaluateJson` on a worker thread. */
  evaluateJsonAsync(event: string): Promise<string>;
  /** `answer` on a worker thread. */
  answerAsync(agent: string, payload: string | Record<string, unknown>, event?: string): Promise<Answer>;
}

/** An event by its rule-file name or its seed name. */
export type EventName =
  | 'user_prompt_submit' | 'pre_tool_use' | 'post_tool_use' | 'stop' | 'session_start' | 'session_end'
  | 'subagent_stop' | 'post_tool_use_failure' | 'pre_compact' | 'notification' | 'permission_request'
  | 'UserPromptSubmit' | 'PreToolUse' | 'PostToolUse' | 'Stop' | 'SessionStart' | 'SessionEnd'
  | 'SubagentStop' | 'PostToolUseFailure' | 'PreCompact' | 'Notification' | 'PermissionRequest';

/** What an observer sees of one decision: enough to record it, nothing to change the run. */
export interface Observation {
  event: string;
  tool: string | null;
  /** `block`, `deny`, `ask`, `allow`, `rewrite`, `stop`, `continue`, `context`, `none` or `error`. */
  outcome: string;
  matched: string[];
  reason: string | null;
  error: string | null;
  logs: ({ rule: string; message: string } | { rule: string; error: string })[];
  waived: {
    rule: string;
    waiver: string;
    until?: string;
    reason?: string;
    /** For a rule in audit mode: what it would have decided. */
    would?: { decision: string; reason?: string };
  }[];
}

/** A callback hook: the native event as it stands after earlier hooks' rewrites. */
export type Callback = (
  event: Record<string, unknown>,
) => HookResult | undefined | void | Promise<HookResult | undefined | void>;

/** Options of a run: `checkInput` judges each PreToolUse rewrite as its hook returns it (a text is
 * why it is refused: the run rejects with the seed's contract error). */
export interface RunOptions {
  checkInput?: (
    args: Record<string, unknown>,
  ) => string | null | undefined | void | Promise<string | null | undefined | void>;
}

/** Per event, rule sets and callbacks in registration order, merged by hookc's own rules; and
 * observers. `run` rejects with a `HookcError` when a hook fails or breaks the contract. */
export class HookRegistry {
  /** How many times an observer threw or rejected (each is also a process warning). */
  readonly observerFailures: number;
  addRules(policy: Policy): this;
  register(event: EventName, callback: Callback): this;
  observe(observer: (observation: Observation) => void): this;
  observe(event: EventName, observer: (observation: Observation) => void): this;
  run(event: Record<string, unknown> | string, options?: RunOptions): Promise<HookResult>;
}
