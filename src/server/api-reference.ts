/**
 * The rendered API reference at `/docs`: Swagger UI (swagger-ui-dist, Apache-2.0) served from node_modules, so it
 * works offline (no CDN, and its online validator badge is off), over the document at `/openapi.json`.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The renderer's files, read once on first use. */
const assets = new Map<string, Buffer>();

export function swaggerUiAsset(file: "swagger-ui.css" | "swagger-ui-bundle.js"): Buffer {
  let bytes = assets.get(file);
  if (bytes === undefined) {
    bytes = readFileSync(join(dirname(require.resolve("swagger-ui-dist/package.json")), file));
    assets.set(file, bytes);
  }
  return bytes;
}

/** The package version swapd reports in its document. */
export function swapdVersion(): string {
  return (require("../../package.json") as { version: string }).version;
}

export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>swapd API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null });
</script>
</body>
</html>
`;
