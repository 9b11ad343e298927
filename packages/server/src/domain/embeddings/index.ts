import { createHash } from 'node:crypto';
import { isoTime } from '../../clock.js';
import type { Snapshot } from '../../model.js';
import type { FastifyBaseLogger } from 'fastify';
import type { EmbeddingsSettings, VectorSettings } from '../../config.js';
import { createEmbeddingProvider, probeEmbeddingProvider, vectorToBuffer } from '../../providers/index.js';
import { SemanticIndex } from '../search/semantic.js';
import type { WorkTask } from '../../store/link-store.js';
import type { VectorKind } from '../../store/vector-store.js';
import { isIdOf } from '../../ids.js';
import type { Domain } from '../context.js';

/**
 * What a snapshot's meaning is computed from: its name, one-liner, tags and core — the fields
 * search weighs most; the narrative fields would drown them and overrun models' input limits.
 */
export function embeddingText(snapshot: Pick<Snapshot, 'name' | 'one_liner' | 'tags' | 'core'>): string {
  return [snapshot.name, snapshot.one_liner ?? '', snapshot.tags.join(', '), snapshot.core].filter(Boolean).join('\n');
}

const hashOf = (model: string, text: string) =>
  createHash('sha256').update(model).update('\0').update(text).digest('hex');

/** What a memory's meaning is computed from: its content, then its tags. */
export function memoryEmbeddingText(memory: { content: string; tags: string[] }): string {
  return [memory.content, memory.tags.join(', ')].filter(Boolean).join('\n');
}

/** A subject to embed: its id, brain and text. */
interface Embeddable {
  id: string;
  brain_id: string;
  text: string;
}

/**
 * The background task of embeddings: one provider call for the batch (snapshots and memories
 * together), the vectors stored. A provider that fails throws, and the worker tries the batch
 * again later — writes never wait.
 */
export async function embedQueued(domain: Domain, tasks: WorkTask[]): Promise<void> {
  const semantic = domain.semantic;
  if (!semantic) throw new Error('no embedding provider is configured');
  const ids = tasks.map((t) => t.subject_id);
  const [snapshots, memories] = await Promise.all([
    domain.store.vectors.embeddingSources(ids.filter((id) => !isIdOf('mem', id))),
    domain.store.vectors.memoryEmbeddingSources(ids.filter((id) => isIdOf('mem', id))),
  ]);
  const subjects: Record<VectorKind, Embeddable[]> = {
    snapshot: snapshots.map(({ id, brain_id, json }) => ({ id, brain_id, text: embeddingText(JSON.parse(json)) })),
    memory: memories.map((m) => ({ id: m.id, brain_id: m.brain_id, text: memoryEmbeddingText(m) })),
  };
  const all = [...subjects.snapshot, ...subjects.memory];
  if (all.length === 0) return;
  const vectors = await semantic.embed(all.map((s) => s.text));
  const at = isoTime(domain.clock.now());
  const model = semantic.provider.model;
  let offset = 0;
  for (const kind of ['snapshot', 'memory'] as const) {
    const batch = subjects[kind];
    const ofBatch = vectors.slice(offset, offset + batch.length);
    offset += batch.length;
    if (batch.length === 0) continue;
    await domain.store.vectors.saveVectors(
      kind,
      batch.map((subject, i) => {
        const vector = ofBatch[i] as Float32Array;
        return {
          subject_id: subject.id,
          brain_id: subject.brain_id,
          model,
          dimension: vector.length,
          text_hash: hashOf(model, subject.text),
          vector: vectorToBuffer(vector),
          updated_at: at,
        };
      }),
    );
    semantic.forget(kind, new Set(batch.map((s) => s.brain_id)));
  }
}

/**
 * Semantic search for a process with an embedding provider: the provider probed (its dimension
 * learnt), triggers told to queue embed tasks for every write, and every snapshot and memory
 * without a vector of this model queued now (a new provider, or a new model, embeds the whole store in the
 * background). A provider that fails its probe does not stop the server: vectors wait for it.
 */
export async function startSemanticSearch(
  domain: Domain,
  settings: EmbeddingsSettings,
  log: FastifyBaseLogger,
  vectors?: VectorSettings,
): Promise<SemanticIndex> {
  let provider;
  let probed = true;
  try {
    provider = await probeEmbeddingProvider(settings);
  } catch (err) {
    log.warn({ err }, 'embedding provider: start-up probe failed; vectors will be computed when it answers');
    provider = createEmbeddingProvider(settings);
    probed = false;
  }
  await domain.store.work.setFlag('embeddings', true);
  const queued = await domain.store.vectors.queueMissingEmbeddings(provider.model);
  if (queued > 0) log.info({ queued, model: provider.model }, 'embedding provider: snapshots queued for vectors');
  const index = new SemanticIndex(provider, domain.store.vectors, () => domain.clock.now(), vectors);
  // /readyz says so from the start, not only after the next call fails again.
  if (!probed) index.providerState = 'unavailable';
  return index;
}
