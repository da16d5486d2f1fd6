import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDevCertificates, strangerCertificate } from '../../scripts/dev-certs.js';
import { checkGrpcTlsFiles, grpcTlsFromEnv, isLoopbackHost, requireGrpcTlsOffLoopback } from './tls.js';

const dir = mkdtempSync(join(tmpdir(), 'felt-tls-unit-'));
const certs = ensureDevCertificates(dir);
const stranger = strangerCertificate(join(dir, 'stranger'));
const files = (s: { FELT_GRPC_TLS_CA: string; FELT_GRPC_TLS_CERT: string; FELT_GRPC_TLS_KEY: string }) => ({
  ca: s.FELT_GRPC_TLS_CA,
  cert: s.FELT_GRPC_TLS_CERT,
  key: s.FELT_GRPC_TLS_KEY,
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gRPC TLS configuration', () => {
  it('none of the three: plaintext; all three: the files, checked', () => {
    expect(grpcTlsFromEnv({})).toBeNull();
    expect(grpcTlsFromEnv({ FELT_GRPC_TLS_CA: '' })).toBeNull();
    expect(grpcTlsFromEnv(certs.worker)).toEqual(files(certs.worker));
  });

  it('refuses a certificate another CA signed, a missing file, and a certificate past its end', () => {
    expect(() => checkGrpcTlsFiles({ ...files(stranger), ca: certs.worker.FELT_GRPC_TLS_CA })).toThrow(
      /not signed by a CA/,
    );
    expect(() => checkGrpcTlsFiles({ ...files(certs.worker), ca: join(dir, 'nope.crt') })).toThrow(/CA bundle .*nope/);
    expect(() => checkGrpcTlsFiles(files(certs.worker), new Date(Date.now() + 400 * 86_400_000))).toThrow(
      /not valid now/,
    );
  });

  it('plaintext is allowed on loopback only, unless FELT_GRPC_INSECURE says the network is trusted', () => {
    for (const h of ['127.0.0.1', '127.8.0.1', 'localhost', '::1']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '10.0.0.4', '::', 'felt-table-worker-0']) expect(isLoopbackHost(h)).toBe(false);
    expect(requireGrpcTlsOffLoopback({}, '127.0.0.1')).toBeNull();
    expect(() => requireGrpcTlsOffLoopback({}, '0.0.0.0')).toThrow(/FELT_GRPC_INSECURE/);
    expect(requireGrpcTlsOffLoopback({ FELT_GRPC_INSECURE: true }, '0.0.0.0')).toBeNull();
    expect(requireGrpcTlsOffLoopback(certs.worker, '0.0.0.0')).toEqual(files(certs.worker));
  });
});
