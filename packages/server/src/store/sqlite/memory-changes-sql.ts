/**
 * Migration 14 on SQLite: every change to a memory's indexed text is logged, by triggers on
 * `memory_search_rows` (which the memory triggers write on every insert, every update of content,
 * speaker, tags or type, and every delete), so that the word index a process keeps of a brain's
 * memories (store/sqlite/memory-word-index/) sees every writer's changes: this process, the CLI,
 * another server on the same file. The log holds only which row changed; the row is read when the
 * change is applied. Each insert prunes the entries more than MEMORY_CHANGES_KEPT behind it (one
 * index probe), so the log stays that long and `seq` never goes back.
 */
export const MEMORY_CHANGES_KEPT = 100_000;

const logged = (row: 'NEW' | 'OLD') => `
    INSERT INTO memory_search_changes (search_rowid) VALUES (${row}.rowid);
    DELETE FROM memory_search_changes
      WHERE seq <= (SELECT max(seq) FROM memory_search_changes) - ${MEMORY_CHANGES_KEPT};`;

export const MEMORY_CHANGES_SQL = `
  CREATE TABLE memory_search_changes (
    seq          INTEGER PRIMARY KEY,
    search_rowid INTEGER NOT NULL
  ) STRICT;
  CREATE TRIGGER memory_rows_added AFTER INSERT ON memory_search_rows BEGIN${logged('NEW')}
  END;
  CREATE TRIGGER memory_rows_changed AFTER UPDATE ON memory_search_rows BEGIN${logged('NEW')}
  END;
  CREATE TRIGGER memory_rows_removed AFTER DELETE ON memory_search_rows BEGIN${logged('OLD')}
  END;
`;

/**
 * Migration 16 on SQLite: an update of a memory's other columns (promoted_to, superseded_by and
 * superseded_at, occurred_at, session_id, its emotion) is logged as migration 14's changes are,
 * so that what a process keeps of a brain's memories until the brain changes (the rows and turns
 * of memory-word-index/) is forgotten then, whichever process wrote it. An update that also
 * changes the text is logged twice (the log's reader takes each key once).
 */
export const MEMORY_UPDATES_LOGGED_SQL = `
  CREATE TRIGGER memories_updated AFTER UPDATE ON memories BEGIN
    INSERT INTO memory_search_changes (search_rowid)
      SELECT rowid FROM memory_search_rows WHERE memory_id = NEW.id;
    DELETE FROM memory_search_changes
      WHERE seq <= (SELECT max(seq) FROM memory_search_changes) - ${MEMORY_CHANGES_KEPT};
  END;
`;
