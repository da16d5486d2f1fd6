import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface GatewayMetrics {
  readonly sockets: Gauge;
  readonly messagesIn: Counter<'type'>;
  readonly messagesOut: Counter;
  readonly refusals: Counter<'reason'>;
  readonly closes: Counter<'code'>;
  readonly frameErrors: Counter<'code'>;
  readonly dropped: Counter;
  readonly requestSeconds: Histogram<'type' | 'result'>;
  readonly notOwnerRetries: Counter;
}

export function createGatewayMetrics(
  registry: Registry,
  workerStreams: () => number,
  maxSockets?: number,
): GatewayMetrics {
  if (maxSockets !== undefined) {
    new Gauge({
      name: 'felt_gateway_max_sockets',
      help: 'Open client sockets this gateway accepts (GATEWAY_MAX_SOCKETS)',
      registers: [registry],
    }).set(maxSockets);
  }
  new Gauge({
    name: 'felt_gateway_worker_streams',
    help: 'Open Connect streams to workers',
    registers: [registry],
    collect() {
      this.set(workerStreams());
    },
  });
  return {
    sockets: new Gauge({ name: 'felt_gateway_sockets', help: 'Open client WebSockets', registers: [registry] }),
    messagesIn: new Counter({
      name: 'felt_gateway_messages_in_total',
      help:
        'Client frames received, by type (invalid when they did not parse; oversized_unread and invalid_utf8 ' +
        'when uWS dropped the connection on them)',
      labelNames: ['type'] as const,
      registers: [registry],
    }),
    messagesOut: new Counter({
      name: 'felt_gateway_messages_out_total',
      help: 'Server messages sent to clients',
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'felt_gateway_refusals_total',
      help: 'Sockets refused, by reason: at the upgrade, or at open for the per-user and per-address socket caps',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    closes: new Counter({
      name: 'felt_gateway_server_closes_total',
      help: 'Sockets the gateway closed, by close code',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
    frameErrors: new Counter({
      name: 'felt_gateway_frame_errors_total',
      help: 'Client frames refused with an error, by code',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
    dropped: new Counter({
      name: 'felt_gateway_test_dropped_total',
      help: 'Pub/sub deliveries dropped on purpose (GATEWAY_TEST_DROP_RATE, tests only)',
      registers: [registry],
    }),
    requestSeconds: new Histogram({
      name: 'felt_gateway_request_duration_seconds',
      help: 'Client frame to worker answer',
      labelNames: ['type', 'result'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    notOwnerRetries: new Counter({
      name: 'felt_gateway_not_owner_retries_total',
      help: 'Requests retried after a NOT_OWNER answer',
      registers: [registry],
    }),
  };
}
