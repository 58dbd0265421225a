/** Entry of `npm run alt` (see alt-command.ts). Exit 2 on a usage error, 1 when the chain refuses. */
import { ALT_USAGE, AltUsageError, parseAltArgs, runAlt } from "./alt-command.js";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${ALT_USAGE}\n`);
  process.exit(0);
}
try {
  const options = parseAltArgs(args, process.env);
  await runAlt(options, (line) => process.stdout.write(`${line}\n`));
} catch (error) {
  if (error instanceof AltUsageError) {
    process.stderr.write(`alt: ${error.message}\n${ALT_USAGE}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`alt: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
