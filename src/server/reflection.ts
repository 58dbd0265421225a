/**
 * gRPC server reflection v1 and v1alpha (wire-identical), so `buf curl`, grpcurl and other
 * reflection clients work without a schema. Serves the files of the given services and all their
 * transitive dependencies.
 */
import { create, createRegistry, fromBinary, toBinary, type DescFile, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import * as v1 from "../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../gen/grpc/reflection/v1alpha/reflection_pb.js";

type Request = v1.ServerReflectionRequest;
type Response = v1.ServerReflectionResponse;

type Answer = Omit<Response, "$typeName" | "validHost" | "originalRequest">;

/** Registers ServerReflection v1 and v1alpha for `services` (the reflection services list themselves too). */
export function registerReflection(router: ConnectRouter, services: readonly DescService[]): void {
  const all = [...services, v1.ServerReflection, v1alpha.ServerReflection];
  const schema = reflectedSchema(all);
  async function* serverReflectionInfo(reqs: AsyncIterable<Request>): AsyncIterable<Response> {
    for await (const req of reqs) {
      yield create(v1.ServerReflectionResponseSchema, { validHost: req.host, originalRequest: req, ...answer(schema, req) });
    }
  }
  router.service(v1.ServerReflection, { serverReflectionInfo });
  // v1alpha messages are wire-identical; convert through the binary form.
  router.service(v1alpha.ServerReflection, {
    async *serverReflectionInfo(reqs) {
      async function* up(): AsyncIterable<Request> {
        for await (const r of reqs) yield fromBinary(v1.ServerReflectionRequestSchema, toBinary(v1alpha.ServerReflectionRequestSchema, r));
      }
      for await (const res of serverReflectionInfo(up())) {
        yield fromBinary(v1alpha.ServerReflectionResponseSchema, toBinary(v1.ServerReflectionResponseSchema, res));
      }
    },
  });
}

interface ReflectedSchema {
  readonly files: ReadonlyMap<string, DescFile>;
  readonly serviceNames: readonly string[];
  /** The file defining `symbol` (`pkg.Svc.Method` or `pkg.Msg.field` too). */
  fileOfSymbol(symbol: string): DescFile | undefined;
}

/** The services' files with all their transitive dependencies. */
function reflectedSchema(services: readonly DescService[]): ReflectedSchema {
  const files = new Map<string, DescFile>();
  const add = (f: DescFile) => {
    if (files.has(f.name)) return;
    files.set(f.name, f);
    f.dependencies.forEach(add);
  };
  services.forEach((s) => add(s.file));
  const registry = createRegistry(...files.values());
  return {
    files,
    serviceNames: services.map((s) => s.typeName),
    fileOfSymbol(symbol) {
      // Strip trailing components until a type is found.
      for (let name = symbol; name !== ""; name = name.slice(0, Math.max(0, name.lastIndexOf(".")))) {
        const d = registry.get(name);
        if (d) return d.file;
        if (!name.includes(".")) break;
      }
      return undefined;
    },
  };
}

/** The file and all its dependencies, serialized (what reflection clients expect). */
function withDependencies(f: DescFile): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  const walk = (d: DescFile) => {
    if (seen.has(d.name)) return;
    seen.add(d.name);
    out.push(toBinary(FileDescriptorProtoSchema, d.proto));
    d.dependencies.forEach(walk);
  };
  walk(f);
  return out;
}

function notFound(what: string): Answer {
  return {
    messageResponse: { case: "errorResponse", value: create(v1.ErrorResponseSchema, { errorCode: 5, errorMessage: `${what} not found` }) },
  };
}

function fileResponse(f: DescFile | undefined, what: string): Answer {
  return f
    ? { messageResponse: { case: "fileDescriptorResponse", value: create(v1.FileDescriptorResponseSchema, { fileDescriptorProto: withDependencies(f) }) } }
    : notFound(what);
}

function answer(schema: ReflectedSchema, req: Request): Answer {
  const r = req.messageRequest;
  switch (r.case) {
    case "listServices":
      return {
        messageResponse: {
          case: "listServicesResponse",
          value: create(v1.ListServiceResponseSchema, { service: schema.serviceNames.map((name) => ({ name })) }),
        },
      };
    case "fileByFilename":
      return fileResponse(schema.files.get(r.value), `file ${r.value}`);
    case "fileContainingSymbol":
      return fileResponse(schema.fileOfSymbol(r.value), `symbol ${r.value}`);
    case "allExtensionNumbersOfType":
      return {
        messageResponse: {
          case: "allExtensionNumbersResponse",
          value: create(v1.ExtensionNumberResponseSchema, { baseTypeName: r.value, extensionNumber: [] }),
        },
      };
    default:
      return notFound(r.case ?? "request");
  }
}
