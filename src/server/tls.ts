/**
 * TLS on the one port (`TLS_CERT_FILE`, `TLS_KEY_FILE`, optional `TLS_CLIENT_CA_FILE` for mutual
 * TLS): the server options — ALPN `h2` and `http/1.1`, so gRPC and the HTTP/1.1 protocols share
 * the port — and a watcher that loads new PEM files into the running server when they change (or
 * on SIGHUP), keeping the previous certificate if the new files do not load.
 */
import fs from "node:fs";
import type tls from "node:tls";
import { createSecureContext } from "node:tls";
import type { Logger } from "pino";
import { currentFileVersion, pollFileVersions, type FileVersionPoll } from "./file-versions.js";

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly clientCaFile: string | undefined;
}

/** The PEM contents; throws naming the setting whose file cannot be read. */
function readPems(files: TlsFiles): tls.SecureContextOptions {
  const read = (name: string, path: string) => {
    try {
      return fs.readFileSync(path);
    } catch (e) {
      throw new Error(`${name}: cannot read ${path}: ${(e as Error).message}`);
    }
  };
  return {
    cert: read("TLS_CERT_FILE", files.certFile),
    key: read("TLS_KEY_FILE", files.keyFile),
    ...(files.clientCaFile !== undefined ? { ca: read("TLS_CLIENT_CA_FILE", files.clientCaFile) } : {}),
  };
}

/** Reads and checks the PEMs (a key that does not match the certificate fails here), as a context's options. */
function loadPems(files: TlsFiles): tls.SecureContextOptions {
  const pems = readPems(files);
  try {
    createSecureContext(pems);
  } catch (e) {
    throw new Error(`TLS_CERT_FILE / TLS_KEY_FILE${files.clientCaFile ? " / TLS_CLIENT_CA_FILE" : ""}: ${(e as Error).message}`);
  }
  return pems;
}

/** Options of the one port's TLS server. Throws (naming the setting) when the files do not load. */
export function tlsServerOptions(files: TlsFiles, handshakeTimeoutMs: number): tls.TlsOptions {
  const mutual = files.clientCaFile !== undefined;
  return {
    ...loadPems(files),
    ALPNProtocols: ["h2", "http/1.1"],
    minVersion: "TLSv1.2",
    // Mutual TLS: a client without a certificate signed by the CA fails the handshake.
    requestCert: mutual,
    rejectUnauthorized: mutual,
    handshakeTimeout: handshakeTimeoutMs,
  };
}

/** The subject of a verified client certificate (`CN=…,O=…`), or undefined. */
export function clientCertSubject(socket: unknown): string | undefined {
  const s = socket as Partial<tls.TLSSocket> | undefined;
  if (typeof s?.getPeerCertificate !== "function" || !s.authorized) return undefined;
  const subject = s.getPeerCertificate().subject as Record<string, string | string[]> | undefined;
  if (!subject) return undefined;
  return Object.entries(subject)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : v}`)
    .join(",");
}

export interface TlsReloaderOptions {
  readonly files: TlsFiles;
  readonly server: tls.Server;
  readonly logger: Logger;
  /** How often the files' modification is polled, ms. */
  readonly pollMs?: number;
}

/** Watches the PEM files (and SIGHUP) and swaps the server's certificate when they change. */
export class TlsReloader {
  private timer: NodeJS.Timeout | undefined;
  private readonly poll: FileVersionPoll;
  private readonly onHup = () => this.reload("SIGHUP");
  private readonly onChange = () => {
    // Certificate and key are usually replaced one after the other: load once both have landed.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reload("file changed"), 200);
    this.timer.unref();
  };

  constructor(private readonly opts: TlsReloaderOptions) {
    const { certFile, keyFile, clientCaFile } = opts.files;
    const paths = [certFile, keyFile, ...(clientCaFile !== undefined ? [clientCaFile] : [])];
    this.poll = pollFileVersions(new Map(paths.map((p) => [p, currentFileVersion(p)])), opts.pollMs ?? 1000, this.onChange);
    process.on("SIGHUP", this.onHup);
  }

  reload(reason: string): void {
    try {
      this.opts.server.setSecureContext(loadPems(this.opts.files));
      this.opts.logger.info({ reason, certFile: this.opts.files.certFile }, "TLS certificate reloaded");
    } catch (e) {
      this.opts.logger.error({ reason, error: (e as Error).message }, "TLS certificate not reloaded; the previous one stays in use");
    }
  }

  close(): void {
    clearTimeout(this.timer);
    this.poll.close();
    process.off("SIGHUP", this.onHup);
  }
}
