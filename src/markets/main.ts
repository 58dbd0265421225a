/** Entry of `npm run markets` (see markets-command.ts). Exit 2 on a usage error, 1 when the RPC refuses a program or all. */
import { MARKETS_USAGE, MarketsUsageError, parseMarketsArgs, runMarkets } from "./markets-command.js";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${MARKETS_USAGE}\n`);
  process.exit(0);
}
try {
  const options = parseMarketsArgs(args, process.env);
  const result = await runMarkets(options, (line) => process.stdout.write(`${line}\n`));
  if (result.failed.length > 0) {
    process.stderr.write(`markets: not listed (the index searches them by pair): ${result.failed.map((f) => f.label).join(", ")}\n`);
    process.exitCode = 1;
  }
} catch (error) {
  if (error instanceof MarketsUsageError) {
    process.stderr.write(`markets: ${error.message}\n${MARKETS_USAGE}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`markets: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
