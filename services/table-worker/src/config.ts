import { hostname } from 'node:os';
import { commonEnv, databaseEnv, envPort, registryEnv } from '@felt/platform';
import { z } from 'zod';

export const workerEnv = {
  ...commonEnv,
  ...databaseEnv,
  ...registryEnv,
  WORKER_ID: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9_.-]+$/, { message: 'expected letters, digits, _ . or -' })
    .default(hostname()),
  WORKER_GRPC_HOST: z.string().default('0.0.0.0'),
  WORKER_GRPC_PORT: envPort.default(50051),
  /** host:port gateways dial; a bare host gets the bound gRPC port appended. */
  WORKER_ADVERTISE_ADDR: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+(:\d{1,5})?$/, { message: 'expected host or host:port' })
    .optional(),
  WORKER_HTTP_PORT: envPort.default(9091),
};

export type WorkerEnv = z.output<z.ZodObject<typeof workerEnv>>;

/** Where gateways dial this worker: WORKER_ADVERTISE_ADDR, completed with the bound port if needed. */
export function advertisedAddress(advertise: string | undefined, boundPort: number): { host: string; addr: string } {
  if (!advertise) return { host: hostname(), addr: `${hostname()}:${boundPort}` };
  const m = /^(.*):(\d+)$/.exec(advertise);
  return m ? { host: m[1]!, addr: advertise } : { host: advertise, addr: `${advertise}:${boundPort}` };
}
