// `npm run generate:config-docs`: rewrites docs/configuration.md's generated tables from the schema (src/config/settings*.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withGeneratedTables } from "../src/config/configuration-docs.js";

const file = fileURLToPath(new URL("../docs/configuration.md", import.meta.url));
const before = readFileSync(file, "utf8");
const after = withGeneratedTables(before);
if (after !== before) writeFileSync(file, after);
console.log(after === before ? "docs/configuration.md: up to date" : "docs/configuration.md: tables regenerated");
