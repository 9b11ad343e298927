import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import type { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import type { SnapgraphClient } from '@snapgraph/client';
import { memoryDocument, snapshotDocument, type SnapgraphDocumentMetadata } from './documents.js';

/** The most results one search answers (design §8.1, §12.3). */
export const MAX_K = 100;

export interface SnapgraphRetrieverInput extends BaseRetrieverInput {
  client: SnapgraphClient;
  /** The brain to search; left out, the API key's own brain. */
  brainId?: string;
  /** Search snapshots (the knowledge graph, the default) or memories (what was said). */
  source?: 'snapshots' | 'memories';
  /** How many documents to return, 1 to 100 (default 4, as LangChain's vector-store retrievers). */
  k?: number;
}

/**
 * Snapgraph search as a LangChain retriever (design §23.1): `await retriever.invoke('query')`
 * answers the best `k` snapshots or memories as Documents, best first, with the id and the
 * score in their metadata. Composes like any retriever (`retriever.pipe(…)`, in a chain's
 * `context`).
 */
export class SnapgraphRetriever extends BaseRetriever<SnapgraphDocumentMetadata> {
  static override lc_name(): string {
    return 'SnapgraphRetriever';
  }

  lc_namespace = ['snapgraph', 'retrievers'];

  readonly client: SnapgraphClient;
  readonly brainId: string | undefined;
  readonly source: 'snapshots' | 'memories';
  readonly k: number;

  constructor(fields: SnapgraphRetrieverInput) {
    super(fields);
    const { client, brainId, source = 'snapshots', k = 4 } = fields;
    // Checked here, not at the first query: a misconfigured retriever fails where it is built.
    if (!client) throw new TypeError('SnapgraphRetriever: `client` (a SnapgraphClient) is required');
    if (source !== 'snapshots' && source !== 'memories') {
      throw new TypeError(`SnapgraphRetriever: \`source\` is "snapshots" or "memories", not ${JSON.stringify(source)}`);
    }
    if (!Number.isInteger(k) || k < 1 || k > MAX_K) {
      throw new RangeError(`SnapgraphRetriever: \`k\` is a whole number from 1 to ${MAX_K}, not ${String(k)}`);
    }
    this.client = client;
    this.brainId = brainId;
    this.source = source;
    this.k = k;
  }

  override async _getRelevantDocuments(
    query: string,
    _runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document<SnapgraphDocumentMetadata>[]> {
    const brain = this.brainId === undefined ? {} : { brain_id: this.brainId };
    if (this.source === 'memories') {
      const found = await this.client.memories.search({ query, limit: this.k, ...brain });
      return found.data.map(memoryDocument);
    }
    const found = await this.client.snapshots.search({ q: query, limit: this.k, ...brain });
    return found.data.map(snapshotDocument);
  }
}
