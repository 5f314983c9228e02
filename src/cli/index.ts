// Entry point of the `berth` binary (bundled to dist/cli/berth.mjs by scripts/build-cli.mjs).
import { run } from './main';

const code = await run(process.argv);
process.exit(code);
