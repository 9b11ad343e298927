// Synthetic embeddings for the vector benchmarks: unit vectors scattered around random cluster
// centres, the shape real text embeddings have (topics), made from a seeded generator so that
// every run measures the same data. No provider is needed.

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` unit vectors of `dimension` around `clusters` centres (seeded): each is its centre plus
 * noise of the same size (cosine to its centre about 0.7), so neighbours within a topic differ
 * finely, which is what makes approximate search miss.
 */
export function clusteredVectors({ count, dimension, clusters = 1000, seed = 1 }) {
  const random = seeded(seed);
  const gauss = gaussian(random);
  const centres = new Float32Array(clusters * dimension);
  for (let i = 0; i < centres.length; i++) centres[i] = gauss();
  const near = (out, offset) => {
    const c = Math.floor(random() * clusters) * dimension;
    let sum = 0;
    for (let i = 0; i < dimension; i++) {
      const x = centres[c + i] + gauss();
      out[offset + i] = x;
      sum += x * x;
    }
    const norm = Math.sqrt(sum);
    for (let i = 0; i < dimension; i++) out[offset + i] /= norm;
  };
  const matrix = new Float32Array(count * dimension);
  for (let row = 0; row < count; row++) near(matrix, row * dimension);
  /** A query: a fresh vector near one of the same centres. */
  const query = () => {
    const q = new Float32Array(dimension);
    near(q, 0);
    return q;
  };
  return { matrix, query };
}

function gaussian(random) {
  let spare;
  return () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = random();
    const r = Math.sqrt(-2 * Math.log(u));
    const a = 2 * Math.PI * random();
    spare = r * Math.sin(a);
    return r * Math.cos(a);
  };
}

/** The `k` rows most similar to `q` (exact: every row compared), most similar first. */
export function exactTop(matrix, dimension, q, k) {
  const n = matrix.length / dimension;
  const best = [];
  let floor = -Infinity;
  for (let row = 0; row < n; row++) {
    let s = 0;
    const o = row * dimension;
    for (let i = 0; i < dimension; i++) s += matrix[o + i] * q[i];
    if (best.length < k || s > floor) {
      best.push({ row, s });
      best.sort((a, b) => b.s - a.s);
      if (best.length > k) best.pop();
      floor = best[best.length - 1].s;
    }
  }
  return best.map((b) => b.row);
}
