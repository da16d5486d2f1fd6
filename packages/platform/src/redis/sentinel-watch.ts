import { Redis } from 'ioredis';

/** What the watch needs of a `redis+sentinel://` target (connect.ts's SentinelTarget has it). */
export interface SentinelGroup {
  /** The Sentinels to subscribe to. */
  readonly sentinels: readonly { readonly host: string; readonly port: number }[];
  /** The master's name in their configuration. */
  readonly name: string;
  readonly sentinelUsername?: string;
  readonly sentinelPassword?: string;
}

/** The channel on which each Sentinel announces a failover it has taken up. */
export const SWITCH_MASTER_CHANNEL = '+switch-master';

/** A `+switch-master` message: `<master name> <old ip> <old port> <new ip> <new port>`. */
export interface SwitchMaster {
  readonly name: string;
  readonly host: string;
  readonly port: number;
}

/** Reads a `+switch-master` message; undefined for anything else. */
export function parseSwitchMaster(message: string): SwitchMaster | undefined {
  const parts = message.split(' ');
  if (parts.length !== 5) return undefined;
  const port = Number(parts[4]);
  if (!Number.isInteger(port) || port < 1 || port > 65535 || parts[0] === '' || parts[3] === '') return undefined;
  return { name: parts[0]!, host: parts[3]!, port };
}

/** IPv4 addresses as Node reports a dual-stack socket's peer (`::ffff:10.0.0.1`) compare as plain ones. */
function plainAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') ? address.slice(7) : address;
}

/** Whether the client's connection is to `host:port` already (as far as its socket tells). */
function connectedTo(client: Redis, host: string, port: number): boolean {
  const stream = (client as unknown as { stream?: { remoteAddress?: string; remotePort?: number } }).stream;
  return stream?.remotePort === port && plainAddress(stream.remoteAddress) === plainAddress(host);
}

/**
 * Moves the connections of one Sentinel-watched master to the new master as soon as a Sentinel
 * announces a failover (`+switch-master`), one subscription per Sentinel for every connection of the
 * process: what ioredis's own `failoverDetector` does, without its flaw. ioredis's detector ends the
 * connector's attempt to connect when a notice comes while the client is already reconnecting (the
 * old master died, and the Sentinels still named it): the attempt throws "Connection is closed." and
 * the client is left in status `end` for good, every later command refused. A crashed master makes
 * exactly that likely, and a table worker whose connection ended serves nothing until it restarts.
 * Here only a connection that is up (`connect` or `ready`) and not on the new master yet is cut
 * (`disconnect(true)`: it reconnects at its first retry, 200 ms on, and asks the Sentinels); one
 * that is reconnecting already asks them by itself.
 *
 * A master that dies closes its connections, and a Sentinel reconfiguring a node closes its clients
 * (`CLIENT KILL`), so without the notice a connection finds the new master too, at its next retry
 * (up to 2 s later). The notice matters most for a master cut off by the network, whose connections
 * stay open until TCP gives up.
 */
class SentinelSwitchWatch {
  private readonly clients = new Set<Redis>();
  private readonly subscribers: Redis[];

  constructor(
    private readonly target: SentinelGroup,
    private readonly onEmpty: () => void,
  ) {
    this.subscribers = target.sentinels.map((s) => {
      const sub = new Redis({
        host: s.host,
        port: s.port,
        ...(target.sentinelUsername === undefined ? {} : { username: target.sentinelUsername }),
        ...(target.sentinelPassword === undefined ? {} : { password: target.sentinelPassword }),
        enableReadyCheck: false,
        maxRetriesPerRequest: null,
        retryStrategy: (times) => Math.min(times * 200, 2000),
      });
      // One Sentinel down leaves the others to hear a failover from; this one is retried meanwhile.
      sub.on('error', () => undefined);
      sub.on('message', (channel: string, message: string) => {
        if (channel === SWITCH_MASTER_CHANNEL) this.heard(message);
      });
      // Sent once connected, and again after every reconnect (autoResubscribe).
      sub.subscribe(SWITCH_MASTER_CHANNEL).catch(() => undefined);
      return sub;
    });
  }

  add(client: Redis): void {
    this.clients.add(client);
    client.once('end', () => this.remove(client));
  }

  private remove(client: Redis): void {
    if (!this.clients.delete(client) || this.clients.size > 0) return;
    for (const sub of this.subscribers) sub.disconnect();
    this.onEmpty();
  }

  private heard(message: string): void {
    const next = parseSwitchMaster(message);
    if (next === undefined || next.name !== this.target.name) return;
    for (const client of this.clients) {
      if (client.status !== 'ready' && client.status !== 'connect') continue;
      // Every Sentinel announces the switch in turn: a connection on the new master already stays.
      if (connectedTo(client, next.host, next.port)) continue;
      client.disconnect(true);
    }
  }
}

const watches = new Map<string, SentinelSwitchWatch>();

/**
 * Moves `client` (and every copy made of it with `duplicate()`) to the new master whenever a Sentinel
 * of `target` announces one, for as long as the client lives (until its `end`). The connections of one
 * target in a process share one watch.
 */
export function watchSentinelFailovers(client: Redis, target: SentinelGroup): void {
  const key = JSON.stringify([target.sentinels, target.name, target.sentinelUsername, target.sentinelPassword]);
  let watch = watches.get(key);
  if (watch === undefined) {
    watch = new SentinelSwitchWatch(target, () => watches.delete(key));
    watches.set(key, watch);
  }
  watch.add(client);
  // Copies (BullMQ's worker makes its own connections with `duplicate()`) are watched as well.
  const duplicate = client.duplicate.bind(client);
  client.duplicate = (override) => {
    const copy = duplicate(override);
    watchSentinelFailovers(copy, target);
    return copy;
  };
}

/** How many watches (distinct Sentinel groups) are open in this process: for tests. */
export function openSentinelWatches(): number {
  return watches.size;
}
