// The workers' gRPC port accepts only an authenticated peer: mutual TLS with a certificate from the
// cluster's CA. Anything else that reaches the port (plaintext, TLS without a certificate, a
// certificate from another CA) is refused in the handshake, before it can attach as any user id. The
// Drain RPC needs the worker's drain token on top. A real worker and gateway, as separate processes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealthResponse_Status, TableServiceClient, type HealthResponse, type TournamentResponse } from '@felt/proto';
import { credentials, Metadata, status, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strangerCertificate } from '../scripts/dev-certs.js';
import { Cluster } from './harness/cluster.js';
import { ServiceProcess } from './harness/service-process.js';

let cluster: Cluster;
let scratch: string;

beforeAll(async () => {
  // Starting means every gateway has an open stream to the worker: the link works with TLS.
  cluster = await Cluster.start({ workers: 1, gateways: 1, lobby: false });
  scratch = mkdtempSync(join(tmpdir(), 'felt-grpc-auth-'));
});

afterAll(async () => {
  await cluster?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function health(creds: ChannelCredentials): Promise<HealthResponse> {
  const client = new TableServiceClient(cluster.workers[0]!.grpcAddr, creds);
  return new Promise<HealthResponse>((resolve, reject) =>
    client.health({}, new Metadata(), { deadline: Date.now() + 5_000 }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  ).finally(() => client.close());
}

function drain(creds: ChannelCredentials, token: string): Promise<unknown> {
  const client = new TableServiceClient(cluster.workers[0]!.grpcAddr, creds);
  return new Promise((resolve, reject) =>
    client.drain({ token }, new Metadata(), { deadline: Date.now() + 5_000 }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  ).finally(() => client.close());
}

async function refused(call: Promise<unknown>): Promise<ServiceError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e as ServiceError,
  );
  expect(err, 'the call should have been refused').not.toBeNull();
  return err!;
}

const caPem = (): Buffer => readFileSync(cluster.certs!.gateway.FELT_GRPC_TLS_CA);

describe('worker gRPC: only an authenticated peer gets in', () => {
  it('the gateway’s certificate gets an answer', async () => {
    expect(await health(cluster.gatewayCredentials())).toMatchObject({ workerId: cluster.workers[0]!.id });
  });

  it('plaintext is refused', async () => {
    const err = await refused(health(credentials.createInsecure()));
    expect(err.code).toBe(status.UNAVAILABLE);
  });

  it('TLS without a client certificate is refused', async () => {
    const err = await refused(health(credentials.createSsl(caPem())));
    expect(err.code).toBe(status.UNAVAILABLE);
  });

  it('a client certificate from another CA is refused', async () => {
    const stranger = strangerCertificate(scratch);
    const creds = credentials.createSsl(
      caPem(),
      readFileSync(stranger.FELT_GRPC_TLS_KEY),
      readFileSync(stranger.FELT_GRPC_TLS_CERT),
    );
    const err = await refused(health(creds));
    expect(err.code).toBe(status.UNAVAILABLE);
  });

  it('a worker that presents a certificate from another CA is not trusted by the client', async () => {
    const stranger = strangerCertificate(join(scratch, 'trust'));
    // The gateway's own certificate, but trusting only the stranger's CA: the worker's is refused.
    const creds = credentials.createSsl(
      readFileSync(stranger.FELT_GRPC_TLS_CA),
      readFileSync(cluster.certs!.gateway.FELT_GRPC_TLS_KEY),
      readFileSync(cluster.certs!.gateway.FELT_GRPC_TLS_CERT),
    );
    const err = await refused(health(creds));
    expect(err.code).toBe(status.UNAVAILABLE);
  });

  it('Tournament orders are heard from a worker’s certificate only, not a gateway’s', async () => {
    const order = (creds: ChannelCredentials): Promise<TournamentResponse> => {
      const client = new TableServiceClient(cluster.workers[0]!.grpcAddr, creds);
      const request = { targetId: 'x', payloadJson: Buffer.from('{}'), traceContext: {} };
      return new Promise<TournamentResponse>((resolve, reject) =>
        client.tournament(request, new Metadata(), { deadline: Date.now() + 5_000 }, (err, res) =>
          err ? reject(err) : resolve(res),
        ),
      ).finally(() => client.close());
    };
    const err = await refused(order(cluster.gatewayCredentials()));
    expect(err.code).toBe(status.PERMISSION_DENIED);
    // A worker's certificate is heard: the payload itself is then checked (and this one refused).
    const answer = await order(cluster.workerCredentials());
    expect(answer.result).toMatchObject({ $case: 'error', error: { code: 'invalid_frame' } });
  });

  it('Drain needs the drain token on top of the certificate; with it the worker leaves the ring', async () => {
    const worker = cluster.workers[0]!;
    for (const token of ['', 'guess']) {
      const err = await refused(drain(cluster.gatewayCredentials(), token));
      expect(err.code).toBe(status.PERMISSION_DENIED);
    }
    expect(await health(cluster.gatewayCredentials())).toMatchObject({ status: HealthResponse_Status.STATUS_SERVING });
    const token = readFileSync(join(tmpdir(), `felt-drain-${worker.id}.token`), 'utf8');
    expect(await drain(cluster.gatewayCredentials(), token)).toMatchObject({ workerId: worker.id, draining: true });
    expect(await health(cluster.gatewayCredentials())).toMatchObject({ status: HealthResponse_Status.STATUS_DRAINING });
  });
});

describe('a worker will not serve plaintext where others can reach it', () => {
  const base = (): Record<string, string> => ({
    ...cluster.commonEnv(),
    WORKER_ID: `w-refuse-${Math.random().toString(16).slice(2, 8)}`,
    WORKER_GRPC_PORT: '0',
    WORKER_HTTP_PORT: '0',
  });

  it('no TLS on 0.0.0.0: exits 1 with grpc_tls_config, naming the fix', async () => {
    const err = await ServiceProcess.start('table-worker', 'refuse', { ...base(), WORKER_GRPC_HOST: '0.0.0.0' }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('exited with 1');
    expect(err?.message).toContain('grpc_tls_config');
    expect(err?.message).toContain('FELT_GRPC_INSECURE');
  });

  it('only some of the three TLS files named: exits 1 with the ones missing', async () => {
    const err = await ServiceProcess.start('table-worker', 'refuse', {
      ...base(),
      WORKER_GRPC_HOST: '127.0.0.1',
      FELT_GRPC_TLS_CA: cluster.certs!.worker.FELT_GRPC_TLS_CA,
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('exited with 1');
    expect(err?.message).toContain('FELT_GRPC_TLS_CERT, FELT_GRPC_TLS_KEY unset');
  });

  it('a key that is not the certificate’s: exits 1 before serving', async () => {
    const err = await ServiceProcess.start('table-worker', 'refuse', {
      ...base(),
      ...cluster.certs!.worker,
      FELT_GRPC_TLS_KEY: cluster.certs!.gateway.FELT_GRPC_TLS_KEY,
      WORKER_GRPC_HOST: '0.0.0.0',
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('does not belong to certificate');
  });
});
