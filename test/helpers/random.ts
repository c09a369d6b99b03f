// A small seeded pseudo-random generator (mulberry32) for the tests that walk random sequences: a failing seed
// replays exactly.

/** Numbers in [0, 1) from `seed`, the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole numbers in [0, below) from `seed`. */
export function seededIntegers(seed: number): (below: number) => number {
  const next = seededRandom(seed);
  return (below) => Math.floor(next() * below);
}
