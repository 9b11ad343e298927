export { SnapgraphRetriever, MAX_K, type SnapgraphRetrieverInput } from './retriever.js';
export { SnapgraphChatMessageHistory, type SnapgraphChatMessageHistoryInput } from './chat-history.js';
export { snapgraphTools, type SnapgraphToolsOptions } from './tools.js';
export { memoryDocument, snapshotDocument, type SnapgraphDocumentMetadata } from './documents.js';
