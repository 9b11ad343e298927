// Main spike: exact top-10 BM25 (FTS5's bm25 with weights 3,2,1,0.5, k1 1.2, b 0.75) over an
// in-process impact index (typed arrays, blocks of 128 postings with max f and min doc length),
// with block-max WAND, against FTS5 on the same SQLite file, in the same process.
//   node --expose-gc spike.mjs <N>        (N = 100000 chooses and saves queries.json; 1000000 reuses it)
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { random, vocabulary } from '../../lib/zipf-text.mjs';
import { ftsQuery } from '../../lib/fts-baseline.mjs';
import { indexedValues } from '../../../packages/server/dist/store/sqlite/search-index-sql.js';
import { stemmer } from 'stemmer';
import { spikeDir } from './dir.mjs';

const DIR = spikeDir();
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

const N = Number(process.argv[2]);
const QUERY_COUNT = Number(process.env.QUERIES ?? 1000);
const CHECK_COUNT = 200;
const K = 10;
const BLOCK = Number(process.env.BLOCK ?? 128);
const K1 = 1.2;
const B = 0.75;
const WEIGHTS2 = [6, 4, 2, 1]; // 2 × (3, 2, 1, 0.5): weighted frequencies kept as integers
const db = new Database(`${DIR}/data-${N}.db`, { readonly: true });
db.pragma('cache_size = -262144');
const log = (...a) => console.log(...a);
const mem = () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rssMB: m.rss / 2 ** 20, heapMB: m.heapUsed / 2 ** 20, arrayBuffersMB: m.arrayBuffers / 2 ** 20 };
};

// ---------- tokenizer: unicode61 (lower case, runs of letters/digits) + porter (the `stemmer` package)
const stems = new Map();
const stem = (w) => {
  let s = stems.get(w);
  if (s === undefined) stems.set(w, (s = w.length > 64 ? w : stemmer(w)));
  return s;
};
const tokensOf = (text) => (text ? (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) : []);

// ---------- build
function buildIndex() {
  const memBefore = mem();
  const t0 = performance.now();
  const n = db.prepare('SELECT count(*) FROM snapshots').pluck().get();
  const termIds = new Map();
  const MAXT = 1 << 16;
  const stamp = new Int32Array(MAXT).fill(-1);
  const acc = new Uint16Array(MAXT);
  const colStamp = new Int32Array(MAXT * 4).fill(-1);
  const colDoc = new Uint32Array(MAXT * 4); // for the check against fts5vocab 'col'
  const colCnt = new Uint32Array(MAXT * 4);
  const df = new Uint32Array(MAXT);
  const docLen = new Uint16Array(n);
  const docStart = new Uint32Array(n + 1);
  let cap = n * 48;
  let bufT = new Uint16Array(cap);
  let bufF = new Uint16Array(cap);
  let used = 0;
  const touched = new Int32Array(4096);
  let totalTokens = 0;
  let d = 0;
  for (const row of db
    .prepare(`SELECT s.rowid, ${indexedValues('s')} FROM snapshots s ORDER BY s.rowid`)
    .raw()
    .iterate()) {
    if (row[0] !== d + 1) throw new Error(`rowids not contiguous at ${d}`);
    let nt = 0;
    let len = 0;
    for (let c = 0; c < 4; c++) {
      for (const w of tokensOf(row[c + 1])) {
        const s = stem(w);
        let id = termIds.get(s);
        if (id === undefined) termIds.set(s, (id = termIds.size));
        len++;
        if (stamp[id] !== d) {
          stamp[id] = d;
          acc[id] = 0;
          touched[nt++] = id;
        }
        acc[id] += WEIGHTS2[c];
        const tc = id * 4 + c;
        colCnt[tc]++;
        if (colStamp[tc] !== d) {
          colStamp[tc] = d;
          colDoc[tc]++;
        }
      }
    }
    if (used + nt > cap) {
      cap *= 2;
      const t2 = new Uint16Array(cap);
      t2.set(bufT);
      bufT = t2;
      const f2 = new Uint16Array(cap);
      f2.set(bufF);
      bufF = f2;
    }
    for (let i = 0; i < nt; i++) {
      const id = touched[i];
      bufT[used] = id;
      bufF[used++] = acc[id];
      df[id]++;
    }
    docLen[d] = len;
    totalTokens += len;
    docStart[++d] = used;
  }
  const tRead = performance.now();
  const T = termIds.size;
  const termStart = new Uint32Array(T + 1);
  for (let t = 0; t < T; t++) termStart[t + 1] = termStart[t] + df[t];
  const total = termStart[T];
  const docs = new Int32Array(total);
  const f2s = new Uint16Array(total);
  const fill = termStart.slice(0, T);
  for (let doc = 0; doc < n; doc++) {
    for (let p = docStart[doc]; p < docStart[doc + 1]; p++) {
      const t = bufT[p];
      const at = fill[t]++;
      docs[at] = doc;
      f2s[at] = bufF[p];
    }
  }
  bufT = bufF = null;
  // blocks
  const blockStart = new Uint32Array(T + 1);
  for (let t = 0; t < T; t++) blockStart[t + 1] = blockStart[t] + Math.ceil(df[t] / BLOCK);
  const nb = blockStart[T];
  const blkLast = new Int32Array(nb);
  const blkMaxF2 = new Uint16Array(nb);
  const blkMinLen = new Uint16Array(nb);
  for (let t = 0; t < T; t++) {
    const s = termStart[t];
    const e = termStart[t + 1];
    for (let b = blockStart[t], p = s; p < e; b++) {
      const end = Math.min(p + BLOCK, e);
      let mf = 0;
      let ml = 65535;
      for (; p < end; p++) {
        if (f2s[p] > mf) mf = f2s[p];
        const l = docLen[docs[p]];
        if (l < ml) ml = l;
      }
      blkLast[b] = docs[end - 1];
      blkMaxF2[b] = mf;
      blkMinLen[b] = ml;
    }
  }
  const t1 = performance.now();
  const index = {
    n,
    T,
    termIds,
    termStart,
    blockStart,
    docs,
    f2s,
    docLen,
    blkLast,
    blkMaxF2,
    blkMinLen,
    totalTokens,
    colDoc,
    colCnt,
    df,
  };
  const bytes = [termStart, blockStart, docs, f2s, docLen, blkLast, blkMaxF2, blkMinLen].reduce(
    (a, x) => a + x.byteLength,
    0,
  );
  return {
    index,
    stats: {
      buildSeconds: (t1 - t0) / 1000,
      readTokenizeSeconds: (tRead - t0) / 1000,
      terms: T,
      postings: total,
      blocks: nb,
      typedArrayMB: bytes / 2 ** 20,
      memBefore,
      memAfter: mem(),
    },
  };
}

// ---------- the check of the tokenizer against FTS5's own index (fts5vocab 'col')
function checkVocab(index) {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.vc USING fts5vocab(main, t, 'col')`);
  const cols = ['name', 'tags', 'core', 'body'];
  let rows = 0;
  let bad = 0;
  let ftsTokens = 0;
  for (const [term, col, doc, cnt] of db.prepare('SELECT term, col, doc, cnt FROM temp.vc').raw().iterate()) {
    rows++;
    ftsTokens += cnt;
    const id = index.termIds.get(term);
    const c = cols.indexOf(col);
    if (id === undefined || index.colDoc[id * 4 + c] !== doc || index.colCnt[id * 4 + c] !== cnt) {
      if (bad++ < 5)
        log(
          'vocab mismatch',
          term,
          col,
          doc,
          cnt,
          id === undefined ? 'unknown' : [index.colDoc[id * 4 + c], index.colCnt[id * 4 + c]],
        );
    }
  }
  let jsRows = 0;
  for (let i = 0; i < index.T * 4; i++) if (index.colDoc[i] > 0) jsRows++;
  return { ftsTermColumns: rows, jsTermColumns: jsRows, mismatches: bad, ftsTokens, jsTokens: index.totalTokens };
}

// ---------- queries
function chooseQueries() {
  const path = `${DIR}/queries.json`;
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
  if (N !== 100_000) throw new Error('choose queries on the 100k brain first');
  const words = vocabulary(4000);
  const count = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();
  const next = random(42);
  const [first, last] = [100, 3000].map(Math.log);
  const word = () => words[Math.floor(Math.exp(first + next() * (last - first)))];
  const queries = [];
  for (let tries = 0; tries < QUERY_COUNT * 20 && queries.length < QUERY_COUNT; tries++) {
    const a = word();
    const b = word();
    if (a === b) continue;
    const q = `${a} ${b}`;
    const c = count.get(ftsQuery(q, 'or'));
    if (c >= 100 && c <= 5000) queries.push(q);
  }
  writeFileSync(path, JSON.stringify(queries));
  return queries;
}

// ---------- exact top-k
const INF = 0x7fffffff;
const EPS = 1e-9;

/** Per-query state: one cursor per query word (FTS5 phrase), in phrase order. */
function prepare(index, q) {
  const words = tokensOf(q);
  const avgdl = index.totalTokens / index.n;
  return {
    avgdl,
    cursors: words.map((w) => {
      const t = index.termIds.get(stem(w));
      const nHit = t === undefined ? 0 : index.termStart[t + 1] - index.termStart[t];
      let idf = Math.log((index.n - nHit + 0.5) / (nHit + 0.5));
      if (idf <= 0) idf = 1e-6;
      if (t === undefined) return { s: 0, e: 0, pos: 0, bs: 0, be: 0, sb: 0, idf, ub: 0 };
      const s = index.termStart[t];
      const bs = index.blockStart[t];
      const be = index.blockStart[t + 1];
      let ub = 0;
      for (let b = bs; b < be; b++) {
        const u = bound(idf, index.blkMaxF2[b], index.blkMinLen[b], avgdl);
        if (u > ub) ub = u;
      }
      return { s, e: index.termStart[t + 1], pos: s, bs, be, sb: bs, idf, ub };
    }),
  };
}
const bound = (idf, f2, len, avgdl) => {
  const f = f2 / 2;
  return idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * len) / avgdl)));
};

function makeTop(k) {
  return { k, n: 0, docs: new Int32Array(k), scores: new Float64Array(k) };
}
const theta = (top) => (top.n < top.k ? -1 : top.scores[top.k - 1]);
function insert(top, doc, score) {
  let i = top.n < top.k ? top.n++ : top.k - 1;
  while (i > 0 && top.scores[i - 1] < score) {
    top.scores[i] = top.scores[i - 1];
    top.docs[i] = top.docs[i - 1];
    i--;
  }
  top.scores[i] = score;
  top.docs[i] = doc;
}

/** The score of `doc` exactly as FTS5's fts5Bm25Function sums it (phrase order, 0 for absent phrases). */
function scoreAt(index, st, doc) {
  let score = 0;
  const D = index.docLen[doc];
  for (const c of st.cursors) {
    let f = 0;
    if (c.pos < c.e && index.docs[c.pos] === doc) f = index.f2s[c.pos] / 2;
    score += c.idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / st.avgdl)));
  }
  return score;
}

/** Exhaustive: every match scored (what FTS5 does), over the typed arrays. */
function topExhaustive(index, q, k = K) {
  const st = prepare(index, q);
  const top = makeTop(k);
  const cs = st.cursors;
  const { docs } = index;
  for (;;) {
    let d = INF;
    for (const c of cs) if (c.pos < c.e && docs[c.pos] < d) d = docs[c.pos];
    if (d === INF) break;
    const s = scoreAt(index, st, d);
    if (top.n < k || s > top.scores[k - 1]) insert(top, d, s);
    for (const c of cs) if (c.pos < c.e && docs[c.pos] === d) c.pos++;
  }
  return top;
}

function seek(index, c, target) {
  const { blkLast, docs } = index;
  let b = c.bs + Math.floor((c.pos - c.s) / BLOCK);
  while (b < c.be && blkLast[b] < target) b++;
  if (b === c.be) {
    c.pos = c.e;
    return;
  }
  let lo = Math.max(c.pos, c.s + (b - c.bs) * BLOCK);
  let hi = Math.min(c.s + (b - c.bs + 1) * BLOCK, c.e) - 1; // docs[hi] >= target
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  c.pos = lo;
}
/** The block-max bound of cursor c at `target` (0 past its end); leaves c.sb at that block. */
function shallow(index, c, target, avgdl) {
  let b = Math.max(c.sb, c.bs + Math.floor((c.pos - c.s) / BLOCK));
  while (b < c.be && index.blkLast[b] < target) b++;
  c.sb = b;
  return b === c.be ? 0 : bound(c.idf, index.blkMaxF2[b], index.blkMinLen[b], avgdl);
}

/** Block-max WAND (Ding & Suel 2011), exact; n cursors. */
function topBMW(index, q, k = K) {
  const st = prepare(index, q);
  const top = makeTop(k);
  const cs = st.cursors.filter((c) => c.e > c.s);
  const n = cs.length;
  const { docs } = index;
  const cur = (c) => (c.pos < c.e ? docs[c.pos] : INF);
  const order = cs.slice();
  for (;;) {
    order.sort((x, y) => cur(x) - cur(y));
    const th = theta(top);
    let acc = 0;
    let p = -1;
    for (let j = 0; j < n; j++) {
      if (cur(order[j]) === INF) break;
      acc += order[j].ub;
      if (acc * (1 + EPS) > th) {
        p = j;
        break;
      }
    }
    if (p < 0) break;
    const pivot = cur(order[p]);
    while (p + 1 < n && cur(order[p + 1]) === pivot) p++;
    let bsum = 0;
    for (let j = 0; j <= p; j++) bsum += shallow(index, order[j], pivot, st.avgdl);
    if (bsum * (1 + EPS) > th) {
      if (cur(order[0]) === pivot) {
        const s = scoreAt(index, st, pivot);
        if (top.n < k || s > top.scores[k - 1]) insert(top, pivot, s);
        for (let j = 0; j <= p; j++) order[j].pos++;
      } else {
        for (let j = 0; j < p; j++) if (cur(order[j]) < pivot) seek(index, order[j], pivot);
      }
    } else {
      let nd = p + 1 < n ? cur(order[p + 1]) : INF;
      for (let j = 0; j <= p; j++) {
        const c = order[j];
        const last = c.sb < c.be ? index.blkLast[c.sb] + 1 : INF;
        if (last < nd) nd = last;
      }
      if (nd === INF) break;
      for (let j = 0; j <= p; j++) if (cur(order[j]) < nd) seek(index, order[j], nd);
    }
  }
  return top;
}

/**
 * Block-max MaxScore over windows (as Lucene's MaxScoreBulkScorer): a window ends where the
 * first current block ends; in it, terms whose block bounds sum to no more than the 10th score
 * are non-essential (only probed for candidates of the others), and a window where all are is
 * skipped whole. Exact: a candidate is dropped only when its bound is at most the 10th score.
 */
const contrib = new Float64Array(64);
const wub = new Float64Array(64);
const ord = new Int32Array(64);
const bmmStats = { scored: 0, postings: 0 };
function topBMM(index, q, k = K) {
  const st = prepare(index, q);
  const top = makeTop(k);
  const cs = st.cursors.filter((c) => c.e > c.s);
  const n = cs.length;
  const { docs, f2s, docLen, blkLast } = index;
  const avgdl = st.avgdl;
  const cur = (c) => (c.pos < c.e ? docs[c.pos] : INF);
  for (let i = 0; i < n; i++) bmmStats.postings += cs[i].e - cs[i].s;
  for (;;) {
    let lo = INF;
    for (let i = 0; i < n; i++) {
      const d = cur(cs[i]);
      if (d < lo) lo = d;
    }
    if (lo === INF) break;
    let hi = INF;
    for (let i = 0; i < n; i++) {
      const c = cs[i];
      if (c.pos >= c.e) {
        wub[i] = 0;
        continue;
      }
      wub[i] = shallow(index, c, lo, avgdl);
      if (c.sb < c.be && blkLast[c.sb] < hi) hi = blkLast[c.sb];
    }
    const th = theta(top);
    for (let i = 0; i < n; i++) {
      let j = i;
      while (j > 0 && wub[ord[j - 1]] > wub[i]) {
        ord[j] = ord[j - 1];
        j--;
      }
      ord[j] = i;
    }
    let m = 0;
    let cum = 0;
    while (m < n && (cum + wub[ord[m]]) * (1 + EPS) <= th) cum += wub[ord[m++]];
    if (m < n) {
      // essential: ord[m..n-1]; non-essential: ord[0..m-1], bound `cum`
      for (;;) {
        let d = INF;
        for (let j = m; j < n; j++) {
          const x = cur(cs[ord[j]]);
          if (x < d) d = x;
        }
        if (d > hi) break;
        const D = docLen[d];
        const norm = K1 * (1 - B + (B * D) / avgdl);
        let sum = 0;
        for (let i = 0; i < n; i++) contrib[i] = 0;
        for (let j = m; j < n; j++) {
          const c = cs[ord[j]];
          if (c.pos < c.e && docs[c.pos] === d) {
            const f = f2s[c.pos] / 2;
            sum += contrib[ord[j]] = c.idf * ((f * (K1 + 1.0)) / (f + norm));
            c.pos++;
          }
        }
        const th2 = theta(top);
        let rest = cum;
        let alive = (sum + rest) * (1 + EPS) > th2;
        for (let j = m - 1; alive && j >= 0; j--) {
          const c = cs[ord[j]];
          if (cur(c) < d) seek(index, c, d);
          if (c.pos < c.e && docs[c.pos] === d) {
            const f = f2s[c.pos] / 2;
            sum += contrib[ord[j]] = c.idf * ((f * (K1 + 1.0)) / (f + norm));
          }
          rest -= wub[ord[j]];
          alive = (sum + rest) * (1 + EPS) > th2;
        }
        if (!alive && !(sum > th2)) continue;
        bmmStats.scored++;
        // the exact score, summed in phrase order as FTS5 does
        let score = 0;
        for (let i = 0; i < n; i++) score += contrib[i];
        if (top.n < k || score > top.scores[k - 1]) insert(top, d, score);
      }
    }
    if (hi === INF) break;
    for (let i = 0; i < n; i++) if (cur(cs[i]) <= hi) seek(index, cs[i], hi + 1);
  }
  return top;
}

// ---------- variant: the postings in SQLite (one row per term: blobs of doc ids, 2×f, block
// maxima), read per query; only doc lengths (2 bytes a doc) and N, total tokens in memory.
function buildSqliteImpact(index) {
  const path = `${DIR}/impact-${N}.db`;
  for (const s of ['', '-wal', '-shm']) if (existsSync(path + s)) rmSync(path + s);
  const t0 = performance.now();
  const idb = new Database(path);
  idb.pragma('journal_mode = WAL');
  idb.pragma('synchronous = OFF');
  idb.exec(`CREATE TABLE postings (term TEXT PRIMARY KEY, df INTEGER, docs BLOB, f2 BLOB, blk_last BLOB, blk_max_f2 BLOB, blk_min_len BLOB) WITHOUT ROWID;
    CREATE TABLE meta (n INTEGER, total_tokens INTEGER, doc_len BLOB)`);
  const ins = idb.prepare('INSERT INTO postings VALUES (?, ?, ?, ?, ?, ?, ?)');
  const buf = (a, from, to) =>
    Buffer.from(a.buffer, a.byteOffset + from * a.BYTES_PER_ELEMENT, (to - from) * a.BYTES_PER_ELEMENT);
  idb.transaction(() => {
    for (const [term, t] of index.termIds) {
      const s = index.termStart[t],
        e = index.termStart[t + 1],
        bs = index.blockStart[t],
        be = index.blockStart[t + 1];
      ins.run(
        term,
        e - s,
        buf(index.docs, s, e),
        buf(index.f2s, s, e),
        buf(index.blkLast, bs, be),
        buf(index.blkMaxF2, bs, be),
        buf(index.blkMinLen, bs, be),
      );
    }
    idb.prepare('INSERT INTO meta VALUES (?, ?, ?)').run(index.n, index.totalTokens, buf(index.docLen, 0, index.n));
  })();
  idb.pragma('wal_checkpoint(TRUNCATE)');
  idb.close();
  const seconds = (performance.now() - t0) / 1000;
  const r = new Database(path, { readonly: true });
  r.pragma('cache_size = -262144');
  const [n, totalTokens, lenBuf] = r.prepare('SELECT * FROM meta').raw().get();
  const docLen = new Uint16Array(lenBuf.buffer.slice(lenBuf.byteOffset, lenBuf.byteOffset + lenBuf.byteLength));
  const get = r.prepare('SELECT df, docs, f2, blk_last, blk_max_f2, blk_min_len FROM postings WHERE term = ?').raw();
  const view = (b, T) => new T(b.buffer, b.byteOffset, b.byteLength / T.BYTES_PER_ELEMENT);
  return {
    seconds,
    fileMB: statSync(path).size / 2 ** 20,
    /** A small index of the query's terms only, in the shape topBMM reads. */
    load(q) {
      const rows = [];
      const termIds = new Map();
      for (const w of tokensOf(q)) {
        const st = stem(w);
        if (termIds.has(st)) continue;
        const row = get.get(st);
        if (row) termIds.set(st, rows.push(row) - 1);
      }
      const T = rows.length;
      const termStart = new Uint32Array(T + 1);
      const blockStart = new Uint32Array(T + 1);
      for (let t = 0; t < T; t++) {
        termStart[t + 1] = termStart[t] + rows[t][0];
        blockStart[t + 1] = blockStart[t] + rows[t][3].byteLength / 4;
      }
      const cat = (col, Ty, ends) => {
        if (T === 1) return view(rows[0][col], Ty);
        const out = new Ty(ends[T]);
        for (let t = 0; t < T; t++) out.set(view(rows[t][col], Ty), ends[t]);
        return out;
      };
      return {
        n,
        totalTokens,
        docLen,
        termIds,
        termStart,
        blockStart,
        docs: cat(1, Int32Array, termStart),
        f2s: cat(2, Uint16Array, termStart),
        blkLast: cat(3, Int32Array, blockStart),
        blkMaxF2: cat(4, Uint16Array, blockStart),
        blkMinLen: cat(5, Uint16Array, blockStart),
      };
    },
  };
}

/** Matches of any word: a merge of the posting lists. */
function countUnion(index, q) {
  const lists = [...new Set(tokensOf(q).map((w) => index.termIds.get(stem(w))))].filter((t) => t !== undefined);
  const { docs, termStart } = index;
  if (lists.length === 1) return termStart[lists[0] + 1] - termStart[lists[0]];
  if (lists.length === 2) {
    let i = termStart[lists[0]];
    const ie = termStart[lists[0] + 1];
    let j = termStart[lists[1]];
    const je = termStart[lists[1] + 1];
    let both = 0;
    while (i < ie && j < je) {
      const a = docs[i];
      const b = docs[j];
      if (a === b) {
        both++;
        i++;
        j++;
      } else if (a < b) i++;
      else j++;
    }
    return ie - termStart[lists[0]] + je - termStart[lists[1]] - both;
  }
  const seen = new Set();
  for (const t of lists) for (let p = termStart[t]; p < termStart[t + 1]; p++) seen.add(docs[p]);
  return seen.size;
}

// ---------- run
const pct = (xs, p) => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const summary = (xs) => ({
  p50: +pct(xs, 0.5).toFixed(3),
  p95: +pct(xs, 0.95).toFixed(3),
  p99: +pct(xs, 0.99).toFixed(3),
  mean: +(xs.reduce((a, x) => a + x, 0) / xs.length).toFixed(3),
});

const queries = chooseQueries();
log(`N=${N}, ${queries.length} queries`);
const { index, stats } = buildIndex();
log(
  'build',
  JSON.stringify(stats, (k, v) => (typeof v === 'number' ? +v.toFixed(3) : v)),
);
const tv = performance.now();
log('vocab check', JSON.stringify(checkVocab(index)), `${((performance.now() - tv) / 1000).toFixed(1)} s`);

const sqliteImpact = buildSqliteImpact(index);
log(
  'sqlite impact table',
  JSON.stringify({ buildSeconds: +sqliteImpact.seconds.toFixed(2), fileMB: +sqliteImpact.fileMB.toFixed(1) }),
);
const ftsTop = db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t,3,2,1,0.5) LIMIT 10').pluck();
const ftsTopScored = db
  .prepare('SELECT rowid, bm25(t,3,2,1,0.5) FROM t WHERE t MATCH ? ORDER BY bm25(t,3,2,1,0.5) LIMIT 10')
  .raw();
const ftsCount = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();

// Ranking check: scores position by position to 1e-9 relative; ids equal but for ties.
function compare(fts, top) {
  if (fts.length !== top.n) return 'length';
  let maxRel = 0;
  let tieOnly = false;
  for (let i = 0; i < fts.length; i++) {
    const want = -fts[i][1];
    const rel = Math.abs(top.scores[i] - want) / Math.abs(want);
    if (rel > maxRel) maxRel = rel;
    if (fts[i][0] - 1 !== top.docs[i]) {
      // allowed only when FTS5 has the same score somewhere else for our doc (or at the cut)
      const same = fts.filter((r) => Math.abs(-r[1] - want) <= 1e-9 * Math.abs(want));
      if (same.length < 2 && i !== fts.length - 1) return `id at ${i}`;
      tieOnly = true;
    }
  }
  if (maxRel > 1e-9) return `score ${maxRel}`;
  return tieOnly ? 'tie' : 'ok';
}
const check = { ok: 0, tie: 0, bad: [], maxRel: 0 };
for (const q of queries.slice(0, CHECK_COUNT)) {
  const fts = ftsTopScored.all(ftsQuery(q, 'or'));
  for (const [name, fn] of [
    ['bmw', topBMW],
    ['bmm', topBMM],
    ['exhaustive', topExhaustive],
    ['sqlite bmm', (_, q) => topBMM(sqliteImpact.load(q), q)],
  ]) {
    const r = compare(fts, fn(index, q));
    if (r === 'ok') check.ok++;
    else if (r === 'tie') check.tie++;
    else check.bad.push([name, q, r]);
  }
  for (let i = 0; i < fts.length; i++) {
    const top = topBMW(index, q);
    const rel = Math.abs(top.scores[i] + fts[i][1]) / Math.abs(fts[i][1]);
    if (rel > check.maxRel) check.maxRel = rel;
  }
}
log(
  'ranking check (200 queries × 4 methods):',
  JSON.stringify({
    ok: check.ok,
    tieOnly: check.tie,
    bad: check.bad.length,
    firstBad: check.bad.slice(0, 3),
    maxRelScoreDiff: check.maxRel,
  }),
);

// Latency: every method on each query in turn (rotated), after a warm-up pass.
const methods = {
  'fts5 top10': (q) => ftsTop.all(ftsQuery(q, 'or')),
  'fts5 count': (q) => ftsCount.get(ftsQuery(q, 'or')),
  'js bmw top10': (q) => topBMW(index, q),
  'js exhaustive top10': (q) => topExhaustive(index, q),
  'js block-max maxscore top10': (q) => topBMM(index, q),
  'js count': (q) => countUnion(index, q),
  'sqlite-table bmm top10': (q) => topBMM(sqliteImpact.load(q), q),
  'sqlite-table load only': (q) => sqliteImpact.load(q),
};
const names = Object.keys(methods);
const PASSES = Number(process.env.PASSES ?? 3);
for (const q of queries.slice(0, 100)) for (const m of names) methods[m](q);
let countMismatch = 0;
const hits = queries.map((q) => {
  const c = ftsCount.get(ftsQuery(q, 'or'));
  if (c !== countUnion(index, q)) countMismatch++;
  return c;
});
log(
  'bmm scored / postings (checks + warm-up)',
  bmmStats.scored,
  bmmStats.postings,
  (bmmStats.scored / bmmStats.postings).toFixed(4),
);
log('hits per query', JSON.stringify(summary(hits)), 'count mismatches', countMismatch);
const passes = [];
for (let pass = 0; pass < PASSES; pass++) {
  const times = Object.fromEntries(names.map((m) => [m, []]));
  queries.forEach((q, i) => {
    for (let j = 0; j < names.length; j++) {
      const m = names[(i + j) % names.length];
      const t0 = process.hrtime.bigint();
      methods[m](q);
      times[m].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  });
  const load = (await import('node:os')).loadavg()[0];
  const sum = Object.fromEntries(names.map((m) => [m, summary(times[m])]));
  passes.push({ load1: load, ...sum });
  log(`pass ${pass + 1} (load average ${load.toFixed(2)})`);
  for (const m of names) log('  ' + m.padEnd(28), JSON.stringify(sum[m]));
}
const med = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const medianOfPasses = Object.fromEntries(
  names.map((m) => [
    m,
    {
      p50: med(passes.map((p) => p[m].p50)),
      p95: med(passes.map((p) => p[m].p95)),
      minP95: Math.min(...passes.map((p) => p[m].p95)),
    },
  ]),
);
log('median over passes', JSON.stringify(medianOfPasses, null, 1));
const result = {
  N,
  queries: queries.length,
  hits: summary(hits),
  countMismatch,
  build: stats,
  sqliteImpact: { buildSeconds: sqliteImpact.seconds, fileMB: sqliteImpact.fileMB },
  medianOfPasses,
  passes,
};
writeFileSync(`${DIR}/result-${N}.json`, JSON.stringify(result, null, 2));
await new Promise((r) => setTimeout(r, 200));
log('steady-state memory after queries', JSON.stringify(mem()));
