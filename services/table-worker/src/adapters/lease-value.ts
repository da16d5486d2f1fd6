import type { LeaseHolder } from '../ports.js';

/** A lease's stored value: who holds it (worker id and process instance) and under which epoch. */
export function leaseValue(workerId: string, instance: string, epoch: number): string {
  return `${workerId}|${instance}|${epoch}`;
}

/** The holder a lease value `<workerId>|<instance>|<epoch>` names. */
export function parseLeaseHolder(value: string, ttlMs: number): LeaseHolder {
  const [workerId = '', , epoch = '0'] = value.split('|');
  return { workerId, epoch: Number(epoch) || 0, ttlMs };
}
