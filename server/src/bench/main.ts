/**
 * `npm run bench`: speed figures printed, never asserted (timed unit tests are flaky on
 * shared machines). Each benchmark generates its inputs deterministically from a seed.
 */
import { benchEnvsubst } from './envsubst.bench';

async function main(): Promise<void> {
  const sections: Array<[string, () => Promise<string[]>]> = [['envsubst', benchEnvsubst]];
  for (const [name, run] of sections) {
    process.stdout.write(`# ${name}\n`);
    for (const line of await run()) process.stdout.write(`  ${line}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
