/**
 * The Redis keys of table ownership (docs/dev/contracts.md, "Redis layout"); `prefix` is
 * FELT_REDIS_PREFIX, prepended verbatim.
 */
export interface OwnershipKeys {
  /** string `<workerId>|<instance>|<epoch>` with a PX TTL: who serves the table now. */
  lease(tableId: string): string;
  /** integer: the table's fencing epoch, incremented on every lease acquisition; only grows. */
  epoch(tableId: string): string;
  /** hash {tableSeq, epoch, handId}: written with every checkpoint, read when the checkpoint is lost. */
  mark(tableId: string): string;
}

export function ownershipKeys(prefix: string): OwnershipKeys {
  return {
    lease: (id) => `${prefix}lease:${id}`,
    epoch: (id) => `${prefix}epoch:${id}`,
    mark: (id) => `${prefix}checkpoint-mark:${id}`,
  };
}
