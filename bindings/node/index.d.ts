/** A failure from hookc: `code` is a diagnostic code (`E0101`) for rules that do not check, or
 * `HOOKC_LOAD`, `HOOKC_EVENT`, `HOOKC_EVAL`, `HOOKC_AGENT`, `HOOKC_TRUST_KEY`. */
export class HookcError extends Error {
  code: string;
  diagnostics?: { code: string; severity: 'error' | 'warning'; message: string }[];
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
