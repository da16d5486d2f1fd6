/** Why a socket was refused by the per-user or per-address cap (the metrics' `reason` label). */
export const SocketRefusal = {
  USER: 'user_socket_limit',
  ADDRESS: 'address_socket_limit',
  /** The gateway holds as many sockets as it accepts (GATEWAY_MAX_SOCKETS): another gateway may not. */
  GATEWAY: 'gateway_socket_limit',
} as const;
export type SocketRefusal = (typeof SocketRefusal)[keyof typeof SocketRefusal];

export interface SocketCaps {
  /** Open sockets one account may hold at this gateway. */
  readonly perUser: number;
  /** Open sockets one client address (an IPv6 /64) may hold at this gateway. */
  readonly perAddress: number;
  /** Open sockets this gateway holds in all (absent: no bound beyond the others). */
  readonly total?: number;
}

/**
 * Counts the open sockets of each account and client address at one gateway. Sockets are admitted
 * and released on uWS's single thread, so a count is exact however many upgrades race.
 */
export class SocketLimiter {
  private readonly byUser = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();
  private open = 0;

  constructor(private readonly caps: SocketCaps) {
    if (!(caps.perUser >= 1) || !(caps.perAddress >= 1)) throw new RangeError('socket caps must be at least 1');
  }

  /** Counts a socket in, or says which cap it would pass (and counts nothing). */
  admit(userId: string, address: string): SocketRefusal | null {
    if (this.caps.total !== undefined && this.open >= this.caps.total) return SocketRefusal.GATEWAY;
    const user = this.byUser.get(userId) ?? 0;
    if (user >= this.caps.perUser) return SocketRefusal.USER;
    const addr = this.byAddress.get(address) ?? 0;
    if (addr >= this.caps.perAddress) return SocketRefusal.ADDRESS;
    this.byUser.set(userId, user + 1);
    this.byAddress.set(address, addr + 1);
    this.open++;
    return null;
  }

  /** Counts an admitted socket out. */
  release(userId: string, address: string): void {
    if (this.byUser.has(userId)) this.open = Math.max(0, this.open - 1);
    decrement(this.byUser, userId);
    decrement(this.byAddress, address);
  }

  openFor(userId: string): number {
    return this.byUser.get(userId) ?? 0;
  }

  openFrom(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }
}

function decrement(map: Map<string, number>, key: string): void {
  const n = map.get(key);
  if (n === undefined) return;
  if (n <= 1) map.delete(key);
  else map.set(key, n - 1);
}
