import type { Policy } from '../index';

/** A tool guardrail, structurally the SDK's `ToolInputGuardrailDefinition` / `ToolOutputGuardrailDefinition`. */
export interface HookcToolGuardrail {
  type: 'tool_input' | 'tool_output';
  name: string;
  run(data: { toolCall: { name: string; arguments: string; callId: string }; output?: unknown }): Promise<{
    behavior: { type: 'allow' } | { type: 'rejectContent'; message: string };
  }>;
}

/** `tools` with hookc's input and output guardrails added to each function tool; a hosted tool,
 * which takes no tool guardrails, is refused with a TypeError. */
export function guard<T extends { type: string }>(policy: Pick<Policy, 'evaluateAsync'>, tools: T[]): T[];
export function inputGuardrail(policy: Pick<Policy, 'evaluateAsync'>): HookcToolGuardrail;
export function outputGuardrail(policy: Pick<Policy, 'evaluateAsync'>): HookcToolGuardrail;
