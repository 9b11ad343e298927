/**
 * Migration 9 on SQLite: vectors of memories, for memory search by meaning (design §12.3), kept
 * as snapshots' are (snapshot_vectors): one row per memory for the configured model, computed by
 * the background worker from tasks its triggers queue in the transaction of the write. The tasks
 * share the `embed` kind with snapshots' (the queue's kinds are fixed by a CHECK that SQLite
 * cannot alter in place); the subject id's prefix, `mem_` or `snap_`, says which it is.
 */
const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;
const embedding = `EXISTS (SELECT 1 FROM service_flags WHERE name = 'embeddings')`;
const queueEmbed = `
  INSERT INTO background_work (kind, subject_id, brain_id, run_after)
    VALUES ('embed', NEW.id, NEW.brain_id, ${NOW_MS})
    ON CONFLICT (kind, subject_id) DO UPDATE SET version = version + 1, attempts = 0, run_after = excluded.run_after;`;

export const MEMORY_VECTORS_SQL = `
  CREATE TABLE memory_vectors (
    memory_id  TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    brain_id   TEXT NOT NULL,
    model      TEXT NOT NULL,
    dimension  INTEGER NOT NULL,
    text_hash  TEXT NOT NULL,
    vector     BLOB NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX memory_vectors_by_brain ON memory_vectors (brain_id, model);

  CREATE TRIGGER memories_queue_embed AFTER INSERT ON memories WHEN ${embedding} BEGIN
    ${queueEmbed}
  END;
  CREATE TRIGGER memories_queue_reembed AFTER UPDATE OF content, tags ON memories
    WHEN (OLD.content IS NOT NEW.content OR OLD.tags IS NOT NEW.tags) AND ${embedding} BEGIN
    ${queueEmbed}
  END;
  CREATE TRIGGER memories_drop_work AFTER DELETE ON memories BEGIN
    DELETE FROM background_work WHERE subject_id = OLD.id;
  END;
`;
