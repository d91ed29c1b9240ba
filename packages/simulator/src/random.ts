/**
 * Seeded randomness, so that a simulation is the same for the same seed (tests, demo, benchmarks).
 * mulberry32: tiny, fast and good enough for load shapes; not for anything secret.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A seed derived from a text (a serial) and a base seed, so each device of a fleet differs. */
export function deriveSeed(base: number, text: string): number {
  let h = (base ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function uniform(random: Random, min: number, max: number): number {
  return min + (max - min) * random();
}

/** Number of events of a Poisson process with the given mean (Knuth; the means here are small). */
export function poisson(random: Random, mean: number): number {
  if (mean <= 0) return 0;
  const limit = Math.exp(-mean);
  let count = 0;
  let product = random();
  while (product > limit) {
    count += 1;
    product *= random();
  }
  return count;
}

/** Standard normal deviate (Box–Muller), for sensor noise. */
export function gaussian(random: Random): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
