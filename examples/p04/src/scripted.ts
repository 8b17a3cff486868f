// A scripted model and scripted tools (crates/runtime/src/scripted.rs in TypeScript): the loop runs offline,
// and the tests see exactly what the model was sent and what each handler got.

import {
  checkPairing,
  type ChatMessage,
  type Model,
  type PreparedCall,
  type ToolDefinition,
  type ToolOutput,
  type Tools,
} from './loop';

/** A model that answers with scripted replies, in order, and refuses any request in which a tool
 * call is not paired with exactly one result. */
export class ScriptedModel implements Model {
  private readonly replies: ChatMessage[];
  /** Every request received, in order: the history as the model was sent it. */
  readonly requests: (readonly ChatMessage[])[] = [];

  constructor(replies: readonly ChatMessage[]) {
    this.replies = [...replies];
  }

  /** Replies not used. */
  get remaining(): number {
    return this.replies.length;
  }

  complete(history: readonly ChatMessage[]): ChatMessage {
    this.requests.push([...history]);
    const problem = checkPairing(history);
    if (problem !== undefined) {
      throw new Error(`request ${this.requests.length} breaks tool-call pairing: ${problem.message}`);
    }
    const reply = this.replies.shift();
    if (reply === undefined) throw new Error(`the script has no reply for request ${this.requests.length}`);
    return reply;
  }
}

/** Tools whose handlers return scripted outputs (`ok` unless told otherwise) and record what they
 * were called with. */
export class ScriptedTools implements Tools {
  private readonly definitions: Map<string, ToolDefinition>;
  private readonly outputs = new Map<string, ToolOutput>();
  /** Every call a handler ran, in order: exactly what the handler got. */
  readonly invoked: PreparedCall[] = [];

  constructor(definitions: readonly ToolDefinition[]) {
    this.definitions = new Map(definitions.map((definition) => [definition.name, Object.freeze(definition)]));
  }

  /** The output the handler gives for a call id. */
  output(callId: string, output: ToolOutput): this {
    this.outputs.set(callId, output);
    return this;
  }

  definition(name: string): ToolDefinition | undefined {
    return this.definitions.get(name);
  }

  invoke(call: PreparedCall): ToolOutput {
    this.invoked.push(call);
    return this.outputs.get(call.id) ?? { content: 'ok', isError: false };
  }
}
