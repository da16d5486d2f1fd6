import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { credentials, experimental, ServerCredentials, type ChannelCredentials } from '@grpc/grpc-js';

/**
 * The PEM files of the link's mutual TLS: the CA bundle a peer's certificate must chain to, and the
 * certificate (chain) and private key this process presents.
 */
export interface GrpcTlsFiles {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** The environment variables that name the files (all three, or none for plaintext). */
export interface GrpcTlsEnv {
  readonly FELT_GRPC_TLS_CA?: string | undefined;
  readonly FELT_GRPC_TLS_CERT?: string | undefined;
  readonly FELT_GRPC_TLS_KEY?: string | undefined;
  /** Plaintext on an address other hosts can reach: only when this is true (a trusted network). */
  readonly FELT_GRPC_INSECURE?: boolean | undefined;
}

/** A process started with files that cannot serve mutual TLS, or without TLS where it is required. */
export class GrpcTlsConfigError extends Error {
  override readonly name = 'GrpcTlsConfigError';
  readonly code = 'grpc_tls_config';
}

/**
 * How often the files are read again: cert-manager (or an operator) replaces them before they expire,
 * and new handshakes use the new ones without a restart. Streams already open keep their session.
 */
export const GRPC_TLS_REFRESH_MS = 60_000;

/** All three variables set: mutual TLS with those files; none: plaintext; some: a config error. */
export function grpcTlsFromEnv(env: GrpcTlsEnv): GrpcTlsFiles | null {
  const named = {
    FELT_GRPC_TLS_CA: env.FELT_GRPC_TLS_CA || undefined,
    FELT_GRPC_TLS_CERT: env.FELT_GRPC_TLS_CERT || undefined,
    FELT_GRPC_TLS_KEY: env.FELT_GRPC_TLS_KEY || undefined,
  };
  const missing = Object.entries(named)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length === 3) return null;
  if (missing.length > 0) {
    throw new GrpcTlsConfigError(`gRPC TLS needs all of FELT_GRPC_TLS_CA, _CERT and _KEY; ${missing.join(', ')} unset`);
  }
  const files = { ca: named.FELT_GRPC_TLS_CA!, cert: named.FELT_GRPC_TLS_CERT!, key: named.FELT_GRPC_TLS_KEY! };
  checkGrpcTlsFiles(files);
  return files;
}

/**
 * Reads the files once, so that a missing, unreadable or mismatched file stops the process at start
 * with its name instead of failing every handshake later: the certificate must parse, be valid now,
 * chain to the CA bundle and match the key.
 */
export function checkGrpcTlsFiles(files: GrpcTlsFiles, now = new Date()): void {
  const read = (what: string, path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      throw new GrpcTlsConfigError(`gRPC TLS ${what} ${path}: ${(err as Error).message}`);
    }
  };
  let cert: X509Certificate;
  let cas: X509Certificate[];
  try {
    cert = new X509Certificate(read('certificate', files.cert));
  } catch (err) {
    if (err instanceof GrpcTlsConfigError) throw err;
    throw new GrpcTlsConfigError(`gRPC TLS certificate ${files.cert} is not a PEM certificate`);
  }
  try {
    cas = pemBlocks(read('CA bundle', files.ca)).map((b) => new X509Certificate(b));
  } catch (err) {
    if (err instanceof GrpcTlsConfigError) throw err;
    throw new GrpcTlsConfigError(`gRPC TLS CA bundle ${files.ca} is not PEM certificates`);
  }
  if (cas.length === 0) throw new GrpcTlsConfigError(`gRPC TLS CA bundle ${files.ca} holds no certificate`);
  let key;
  try {
    key = createPrivateKey(read('key', files.key));
  } catch (err) {
    if (err instanceof GrpcTlsConfigError) throw err;
    throw new GrpcTlsConfigError(`gRPC TLS key ${files.key} is not a PEM private key`);
  }
  if (!cert.checkPrivateKey(key)) {
    throw new GrpcTlsConfigError(`gRPC TLS key ${files.key} does not belong to certificate ${files.cert}`);
  }
  if (now < new Date(cert.validFrom) || now > new Date(cert.validTo)) {
    throw new GrpcTlsConfigError(
      `gRPC TLS certificate ${files.cert} is not valid now (${cert.validFrom} to ${cert.validTo})`,
    );
  }
  if (!cas.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey))) {
    throw new GrpcTlsConfigError(`gRPC TLS certificate ${files.cert} is not signed by a CA in ${files.ca}`);
  }
}

function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

function provider(files: GrpcTlsFiles): experimental.FileWatcherCertificateProvider {
  return new experimental.FileWatcherCertificateProvider({
    caCertificateFile: files.ca,
    certificateFile: files.cert,
    privateKeyFile: files.key,
    refreshIntervalMs: GRPC_TLS_REFRESH_MS,
  });
}

/**
 * The worker's server credentials: with files, TLS that requires every client to present a
 * certificate chaining to the CA (a peer without one never completes the handshake); without,
 * plaintext.
 */
export function grpcServerCredentials(files: GrpcTlsFiles | null): ServerCredentials {
  if (!files) return ServerCredentials.createInsecure();
  const p = provider(files);
  return experimental.createCertificateProviderServerCredentials(p, p, true);
}

/**
 * The gateway's channel credentials: with files, TLS presenting this process's certificate and
 * verifying the worker's against the CA and against the host it dials (its WORKER_ADVERTISE_ADDR);
 * without, plaintext.
 */
export function grpcChannelCredentials(files: GrpcTlsFiles | null): ChannelCredentials {
  if (!files) return credentials.createInsecure();
  const p = provider(files);
  return experimental.createCertificateProviderChannelCredentials(p, p);
}

/** Whether a bind address is reachable from this host only. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The worker's rule: without TLS it serves only on a loopback address, unless FELT_GRPC_INSECURE says
 * the network is trusted. Anything that can reach a plaintext port can attach as any user id.
 */
export function requireGrpcTlsOffLoopback(env: GrpcTlsEnv, bindHost: string): GrpcTlsFiles | null {
  const files = grpcTlsFromEnv(env);
  if (files === null && !isLoopbackHost(bindHost) && env.FELT_GRPC_INSECURE !== true) {
    throw new GrpcTlsConfigError(
      `gRPC on ${bindHost} without TLS would let anything that reaches the port act for any player: ` +
        'set FELT_GRPC_TLS_CA, _CERT and _KEY, bind to a loopback address, or set FELT_GRPC_INSECURE=true ' +
        'on a network only Felt can reach',
    );
  }
  return files;
}
