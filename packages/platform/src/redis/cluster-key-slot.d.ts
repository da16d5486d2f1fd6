// cluster-key-slot (the hash slot function ioredis itself uses) ships without types.
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot (0 to 16383) of `key`, honouring a `{hash tag}`. */
  function calculateSlot(key: string | Buffer): number;
  namespace calculateSlot {
    function generateMulti(keys: readonly (string | Buffer)[]): number;
  }
  export = calculateSlot;
}
