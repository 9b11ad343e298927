import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { Memory, SnapgraphClient } from '@snapgraph/client';

/** A memory's content is 1 to 10,000 characters after trimming (design §12.1). */
export const MESSAGE_TEXT_MAX = 10_000;

/** The `speaker` a message is kept under, by LangChain message type, and back. */
const SPEAKER_OF = { human: 'human', ai: 'ai', system: 'system' } as const;
type KeptType = keyof typeof SPEAKER_OF;

export interface SnapgraphChatMessageHistoryInput {
  client: SnapgraphClient;
  /** The conversation: every message is a memory with this `session_id` (1 to 200 characters). */
  sessionId: string;
  /** The brain the memories are kept in; left out, the API key's own brain. */
  brainId?: string;
}

/**
 * A conversation kept as Snapgraph memories (design §23.2): each message one memory of the
 * session, its `speaker` the message type (`human`, `ai`, `system`), its `occurred_at` the time
 * it was added. The conversation is then also found by memory search, shown in the explorer's
 * timeline and promotable into snapshots like any other memory.
 */
export class SnapgraphChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['snapgraph', 'chat_history'];

  readonly client: SnapgraphClient;
  readonly sessionId: string;
  readonly brainId: string | undefined;
  /** The last `occurred_at` this history wrote, in ms: each message gets a later one. */
  private lastWrittenAt = 0;

  constructor(fields: SnapgraphChatMessageHistoryInput) {
    super(fields);
    const { client, sessionId, brainId } = fields;
    if (!client) throw new TypeError('SnapgraphChatMessageHistory: `client` (a SnapgraphClient) is required');
    if (typeof sessionId !== 'string' || sessionId.length < 1 || sessionId.length > 200) {
      throw new TypeError('SnapgraphChatMessageHistory: `sessionId` is a string of 1 to 200 characters');
    }
    this.client = client;
    this.sessionId = sessionId;
    this.brainId = brainId;
  }

  /** The session's messages, oldest first (by `occurred_at`, then by id, which is time-ordered). */
  async getMessages(): Promise<BaseMessage[]> {
    const memories = await this.sessionMemories();
    memories.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at) || a.id.localeCompare(b.id));
    return memories.map(toMessage);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Keeps the messages in order, each as one memory. All or nothing: every message is checked
   * before the first is written, and when the service refuses one, those this call had already
   * written are deleted again before the error is thrown.
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const kept = messages.map(keptForm);
    const written: string[] = [];
    try {
      for (const { content, speaker } of kept) {
        const memory = await this.client.memories.create({
          content,
          speaker,
          session_id: this.sessionId,
          occurred_at: this.nextOccurredAt(),
          ...(this.brainId === undefined ? {} : { brain_id: this.brainId }),
        });
        written.push(memory.id);
      }
    } catch (err) {
      await Promise.allSettled(written.map((id) => this.client.memories.delete(id)));
      throw err;
    }
  }

  /** Deletes every memory of the session (the session's memories only; snapshots promoted from them stay). */
  override async clear(): Promise<void> {
    const ids = (await this.sessionMemories()).map((m) => m.id);
    // Listed first, deleted after: deleting while walking pages by cursor would skip none, but
    // a list that changes under its cursor is harder to reason about than this.
    for (const id of ids) {
      try {
        await this.client.memories.delete(id);
      } catch (err) {
        // Already gone (a clear running beside this one) is what clear wanted.
        if ((err as { status?: number }).status !== 404) throw err;
      }
    }
  }

  private async sessionMemories(): Promise<Memory[]> {
    const memories: Memory[] = [];
    const query = {
      session_id: this.sessionId,
      limit: 100,
      ...(this.brainId === undefined ? {} : { brain_id: this.brainId }),
    };
    for await (const memory of this.client.memories.iterate(query)) memories.push(memory);
    return memories;
  }

  /**
   * Now, or 1 ms after the last message this history wrote: messages added in the same
   * millisecond keep their order when read back by `occurred_at`.
   */
  private nextOccurredAt(): string {
    this.lastWrittenAt = Math.max(Date.now(), this.lastWrittenAt + 1);
    return new Date(this.lastWrittenAt).toISOString();
  }
}

/** The memory a message becomes; a message that cannot be one is refused with the reason. */
function keptForm(message: BaseMessage): { content: string; speaker: string } {
  const type = message.type as string;
  if (!(type in SPEAKER_OF)) {
    throw new TypeError(
      `SnapgraphChatMessageHistory keeps human, AI and system messages as memories; a ${type} message cannot be kept`,
    );
  }
  const content = message.text;
  if (content.trim().length === 0) {
    throw new TypeError(
      `SnapgraphChatMessageHistory keeps what was said: this ${type} message has no text (a bare tool call?)`,
    );
  }
  if (content.trim().length > MESSAGE_TEXT_MAX) {
    throw new RangeError(`SnapgraphChatMessageHistory: a message is at most ${MESSAGE_TEXT_MAX} characters`);
  }
  return { content, speaker: SPEAKER_OF[type as KeptType] };
}

/**
 * The message a memory reads back as. A memory of the session kept by other means (the API,
 * ingest) with another speaker reads as a human message named after that speaker.
 */
function toMessage(memory: Memory): BaseMessage {
  const fields = { content: memory.content, id: memory.id };
  switch (memory.speaker) {
    case SPEAKER_OF.ai:
      return new AIMessage(fields);
    case SPEAKER_OF.system:
      return new SystemMessage(fields);
    case SPEAKER_OF.human:
    case null:
      return new HumanMessage(fields);
    default:
      return new HumanMessage({ ...fields, name: memory.speaker });
  }
}
