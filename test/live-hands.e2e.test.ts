// Real hands through the real cluster on the machine's shared Redis (test/suites/live-hands.ts).
import { liveHandsSuite } from './suites/live-hands.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

liveHandsSuite('live hands across the cluster', () =>
  Promise.resolve({ url: REDIS_URL, stop: () => Promise.resolve() }),
);
