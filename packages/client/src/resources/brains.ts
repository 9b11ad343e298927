import { items, offsetPages } from '../paging.js';
import { importBrain } from './brain-import.js';
import type { Transport } from '../transport.js';
import type {
  Brain,
  BrainCreate,
  BrainListQuery,
  BrainPage,
  BrainUpdate,
  CallOptions,
  ExportLine,
  ImportAccepted,
  ImportFile,
  ImportOptions,
  WriteOptions,
} from '../types.js';

/** `/v1/brains`: the containers of an account's snapshots and edges. */
export class Brains {
  constructor(private readonly http: Transport) {}

  async create(body: BrainCreate, options: WriteOptions = {}): Promise<Brain> {
    return this.http.data<Brain>({ method: 'POST', path: '/v1/brains', body, ...options });
  }

  /** One brain with its snapshot and edge counts. */
  async get(id: string, options: CallOptions = {}): Promise<Brain> {
    return this.http.data<Brain>({
      method: 'GET',
      path: '/v1/brains/{id}',
      params: { id },
      ...options,
    });
  }

  /** Renames the brain or turns automatic linking on or off. */
  async update(id: string, body: BrainUpdate, options: CallOptions = {}): Promise<Brain> {
    return this.http.data<Brain>({
      method: 'PUT',
      path: '/v1/brains/{id}',
      params: { id },
      body,
      ...options,
    });
  }

  list(query: BrainListQuery = {}, options: CallOptions = {}): Promise<BrainPage> {
    return this.http.request({ method: 'GET', path: '/v1/brains', query, ...options });
  }

  /** Every page (by offset: the brain list has no cursor). */
  pages(query: Omit<BrainListQuery, 'offset'> = {}, options: CallOptions = {}) {
    return offsetPages((offset) => this.list({ ...query, offset }, options));
  }

  iterate(query: Omit<BrainListQuery, 'offset'> = {}, options: CallOptions = {}) {
    return items<Brain>(this.pages(query, options));
  }

  /**
   * The brain's export file (`GET /v1/brains/{id}/export`, NDJSON), line by line as it arrives,
   * each parsed: the header, one `{ kind, data }` per record, and the `end` line with the count
   * of each kind. A brain of any size costs the caller one line's memory at a time. A file that
   * stops before its `end` line (a dropped connection) throws instead of ending quietly.
   */
  async *export(id: string, options: CallOptions = {}): AsyncGenerator<ExportLine, void, undefined> {
    const response = await this.http.open({
      method: 'GET',
      path: '/v1/brains/{id}/export',
      params: { id },
      accept: 'application/x-ndjson',
      ...options,
    });
    let ended = false;
    for await (const line of textLines(response)) {
      const parsed = JSON.parse(line) as ExportLine;
      if ('kind' in parsed && parsed.kind === 'end') ended = true;
      yield parsed;
    }
    if (!ended) throw new Error(`the export of ${id} stopped before its end line`);
  }

  /**
   * Imports an export file (NDJSON, or GraphML with `format: 'graphml'`) as a job: into your
   * account, keeping the file's ids where they are free, or into `brainId` under new ids.
   * Follow the job with `sg.waitForJob(accepted.job_id)`: its result is `{ brain_id, counts }`.
   */
  import(file: ImportFile, options: ImportOptions = {}): Promise<ImportAccepted> {
    return importBrain(this.http, file, options);
  }

  /** The brain as a GraphML document (`?format=graphml`), for graph tools. */
  async exportGraphml(id: string, options: CallOptions = {}): Promise<string> {
    const response = await this.http.open({
      method: 'GET',
      path: '/v1/brains/{id}/export',
      params: { id },
      query: { format: 'graphml' },
      accept: 'application/graphml+xml',
      ...options,
    });
    return response.text();
  }
}

/** The non-empty lines of a response's body, decoded as UTF-8, as they arrive. */
async function* textLines(response: Response): AsyncGenerator<string, void, undefined> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') yield line;
      if (done) break;
    }
    if (pending.trim() !== '') yield pending;
  } finally {
    // A caller that stops early (break) lets the connection go.
    await reader.cancel().catch(() => undefined);
  }
}
