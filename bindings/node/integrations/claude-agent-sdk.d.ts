import type { Policy } from '../index';

/** The events hookc answers for Claude Code. */
export const EVENTS: readonly string[];

/** One matcher of the SDK's `hooks` option (structurally the SDK's `HookCallbackMatcher`). */
export interface HookcMatcher {
  hooks: ((input: Record<string, unknown>) => Promise<Record<string, unknown>>)[];
  timeout: number;
  onFailure: 'block';
}

/**
 * The Claude Agent SDK's `hooks` option: every event of `events` (all of `EVENTS` by default)
 * answered by `policy` in-process, as `hookc hook claude` answers Claude Code. Never throws: where
 * hookc cannot decide, the answer is `{ decision: 'block', reason }`.
 */
export function hooksFor(policy: Policy, options?: { events?: readonly string[]; timeout?: number }): Record<string, HookcMatcher[]>;
