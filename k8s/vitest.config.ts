import { feltProject } from '../vitest.shared.ts';

// Schema and strict-field checks load kubernetes-models and run the TypeScript checker: seconds, not ms,
// on a busy machine.
export default feltProject('@felt/k8s', { test: { testTimeout: 60_000 } });
