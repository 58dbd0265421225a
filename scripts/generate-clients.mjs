#!/usr/bin/env node
// Generates the clients of proto/ into clients/typescript/src/gen, clients/python and clients/go (or
// into `--out DIR`/typescript/src/gen, DIR/python and DIR/go); `--only typescript,python,go` picks some:
//   TypeScript: buf + protoc-gen-es from node_modules, with clients/typescript/buf.gen.yaml (nothing else needed)
//   Python:     protoc's built-in python and pyi generators + grpc_python_plugin
//   Go:         protoc-gen-go + protoc-gen-go-grpc (module swapd.dev/clients/go)
// Debian/Ubuntu (Python, Go): apt-get install protobuf-compiler libprotobuf-dev protobuf-compiler-grpc protoc-gen-go protoc-gen-go-grpc
//
// Only the service protos are generated (swapd.swap.v1, swapd.trigger.v1, swapd.trigger.v2, and grpc.health.v1 for Python).
// Go takes grpc.health.v1 from google.golang.org/grpc/health/grpc_health_v1 (its go_package), so it
// is not generated. Python cannot import a generated `grpc/health/v1` next to the `grpc` package
// itself (`No module named 'grpc.health'`), so the health proto is compiled as
// `grpc_health/v1/health.proto`, as grpcio-health-checking does: the module is
// `grpc_health.v1.health_pb2`, the package on the wire stays `grpc.health.v1`.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outArg = process.argv.indexOf("--out");
const out = resolve(outArg >= 0 ? (process.argv[outArg + 1] ?? "") : join(root, "clients"));
const languages = ["typescript", "python", "go"];
const onlyArg = process.argv.indexOf("--only");
const only = onlyArg >= 0 ? (process.argv[onlyArg + 1] ?? "").split(",") : languages;
for (const language of only) {
  if (!languages.includes(language)) {
    process.stderr.write(`generate-clients: --only: "${language}" is not one of ${languages.join(", ")}\n`);
    process.exit(2);
  }
}
const protoDir = join(root, "proto");
const serviceProtos = ["swapd/swap/v1/swap.proto", "swapd/trigger/v1/trigger.proto", "swapd/trigger/v2/nonce_trigger.proto"];
const goModule = "swapd.dev/clients/go";

function protoc(args) {
  try {
    execFileSync("protoc", args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  } catch (error) {
    const reason = error.code === "ENOENT" ? "protoc not found" : `protoc exited with ${error.status}`;
    process.stderr.write(
      `generate-clients: ${reason} (Debian: apt-get install protobuf-compiler libprotobuf-dev protobuf-compiler-grpc protoc-gen-go protoc-gen-go-grpc)\n`,
    );
    process.exit(1);
  }
}

// TypeScript: the package's own template (run in its folder, so its relative paths hold), with
// node_modules/.bin on PATH for buf to find protoc-gen-es, as `npm run` would put it.
if (only.includes("typescript")) {
  const bin = join(root, "node_modules/.bin");
  execFileSync(join(bin, "buf"), ["generate", "--output", join(out, "typescript")], {
    cwd: join(root, "clients/typescript"),
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

// Python
if (only.includes("python")) {
  const healthRoot = mkdtempSync(join(tmpdir(), "swapd-health-proto-"));
  try {
    mkdirSync(join(healthRoot, "grpc_health/v1"), { recursive: true });
    copyFileSync(join(protoDir, "grpc/health/v1/health.proto"), join(healthRoot, "grpc_health/v1/health.proto"));
    const python = join(out, "python");
    for (const dir of ["swapd", "grpc_health"]) rmSync(join(python, dir), { recursive: true, force: true });
    mkdirSync(python, { recursive: true });
    protoc([
      `-I${protoDir}`,
      `-I${healthRoot}`,
      "--plugin=protoc-gen-grpc_python=" + (process.env.GRPC_PYTHON_PLUGIN ?? "/usr/bin/grpc_python_plugin"),
      `--python_out=${python}`,
      `--pyi_out=${python}`,
      `--grpc_python_out=${python}`,
      ...serviceProtos,
      "grpc_health/v1/health.proto",
    ]);
  } finally {
    rmSync(healthRoot, { recursive: true, force: true });
  }
}

// Go
if (only.includes("go")) {
  const go = join(out, "go");
  rmSync(join(go, "gen"), { recursive: true, force: true });
  mkdirSync(go, { recursive: true });
  protoc([`-I${protoDir}`, `--go_out=${go}`, `--go_opt=module=${goModule}`, `--go-grpc_out=${go}`, `--go-grpc_opt=module=${goModule}`, ...serviceProtos]);
}
process.stdout.write(`generated the ${only.join(", ")} clients of proto/ into ${out}\n`);
