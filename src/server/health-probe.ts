/**
 * The container's health probe: `GET /healthz` on this host's port, over HTTPS when the service
 * runs with TLS (TLS_CERT_FILE). Resolves 0 when it answers 200, 1 otherwise (within 3 s).
 *
 * The certificate is not verified: the probe dials 127.0.0.1, which the certificate (issued for the
 * public name) does not name, and only asks whether this very process serves. With mutual TLS the
 * probe presents HEALTHCHECK_CLIENT_CERT_FILE / HEALTHCHECK_CLIENT_KEY_FILE (a client certificate
 * signed by TLS_CLIENT_CA_FILE).
 */
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import { LIVENESS_PATH } from "../runtime/operational-paths.js";

export function probeHealth(env: NodeJS.ProcessEnv, report: (line: string) => void = () => {}): Promise<0 | 1> {
  const port = Number(env.PORT || 8080);
  const useTls = Boolean(env.TLS_CERT_FILE?.trim());
  const clientCert = env.HEALTHCHECK_CLIENT_CERT_FILE?.trim();
  const clientKey = env.HEALTHCHECK_CLIENT_KEY_FILE?.trim();
  return new Promise((resolve) => {
    let options: https.RequestOptions;
    try {
      options = {
        host: "127.0.0.1",
        port,
        path: LIVENESS_PATH,
        timeout: 3000,
        agent: false,
        ...(useTls
          ? { rejectUnauthorized: false, ...(clientCert && clientKey ? { cert: fs.readFileSync(clientCert), key: fs.readFileSync(clientKey) } : {}) }
          : {}),
      };
    } catch (e) {
      report(`healthcheck: ${(e as Error).message}`);
      resolve(1);
      return;
    }
    const req = (useTls ? https : http).get(options, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? 0 : 1);
    });
    req.on("timeout", () => req.destroy(new Error("timed out after 3 s")));
    req.on("error", (e) => {
      report(`healthcheck: ${e.message}`);
      resolve(1);
    });
  });
}
