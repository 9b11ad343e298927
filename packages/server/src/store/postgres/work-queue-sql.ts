import { SEARCHED_COLUMNS } from '../searched-columns.js';

/**
 * Background work (auto-linking, embeddings), durable in the database: queued by triggers in
 * the transaction of the write that calls for it, one row per (kind, snapshot); a snapshot
 * written again before its task ran bumps `version`. Workers of several instances claim rows
 * with FOR UPDATE SKIP LOCKED and a lease, so each task runs once at a time and a crashed
 * worker's task is taken up again when its lease ends. Times are the database's clock.
 */
const textChanged = SEARCHED_COLUMNS.map((c) =>
  c === 'tags' ? `OLD.tags::text IS DISTINCT FROM NEW.tags::text` : `OLD.${c} IS DISTINCT FROM NEW.${c}`,
).join(' OR ');

export const WORK_QUEUE_SQL = `
  CREATE TABLE background_work (
    id           bigserial PRIMARY KEY,
    kind         text NOT NULL CHECK (kind IN ('auto_link', 'embed')),
    subject_id   text COLLATE "C" NOT NULL,
    brain_id     text COLLATE "C" NOT NULL,
    version      integer NOT NULL DEFAULT 1,
    attempts     integer NOT NULL DEFAULT 0,
    run_after    timestamptz(3) NOT NULL DEFAULT now(),
    leased_until timestamptz(3),
    last_error   text,
    UNIQUE (kind, subject_id)
  );
  CREATE INDEX background_work_due ON background_work (run_after, id);
  CREATE INDEX background_work_by_brain ON background_work (brain_id, kind);

  -- Settings of the running service that triggers must see ('embeddings' while a provider is on).
  CREATE TABLE service_flags (name text PRIMARY KEY);

  CREATE FUNCTION snapgraph_queue_work(work_kind text, subject text, brain text) RETURNS void LANGUAGE sql AS $$
    INSERT INTO background_work (kind, subject_id, brain_id) VALUES (work_kind, subject, brain)
      ON CONFLICT (kind, subject_id) DO UPDATE
      SET version = background_work.version + 1, attempts = 0, run_after = now();
  $$;

  CREATE FUNCTION snapgraph_snapshot_work() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' THEN
      DELETE FROM background_work WHERE subject_id = OLD.id;
      RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND NOT (${textChanged}) THEN
      RETURN NULL;
    END IF;
    IF (SELECT auto_link FROM brains WHERE id = NEW.brain_id) THEN
      PERFORM snapgraph_queue_work('auto_link', NEW.id, NEW.brain_id);
    END IF;
    IF EXISTS (SELECT 1 FROM service_flags WHERE name = 'embeddings') THEN
      PERFORM snapgraph_queue_work('embed', NEW.id, NEW.brain_id);
    END IF;
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER snapshots_queue_work AFTER INSERT OR UPDATE OR DELETE ON snapshots
    FOR EACH ROW EXECUTE FUNCTION snapgraph_snapshot_work();

  -- A brain that opts in has its existing snapshots linked too.
  CREATE FUNCTION snapgraph_brain_link_all() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.auto_link AND NOT OLD.auto_link THEN
      INSERT INTO background_work (kind, subject_id, brain_id)
        SELECT 'auto_link', id, brain_id FROM snapshots WHERE brain_id = NEW.id
        ON CONFLICT (kind, subject_id) DO NOTHING;
    END IF;
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER brains_link_all AFTER UPDATE OF auto_link ON brains
    FOR EACH ROW EXECUTE FUNCTION snapgraph_brain_link_all();
`;
