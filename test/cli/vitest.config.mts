// The command-line tool's tests (`npm run test:cli`): Node, not the Workers pool. They run the built
// binary (dist/cli/berth.mjs) as a child process against `wrangler dev` on port 8809, which
// global-setup.ts starts on a fresh local state and stops (its process group) at the end.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/cli/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./test/cli/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
