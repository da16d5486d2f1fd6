import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder on a stable local port, standing in for what sits between two parts of a real
 * cluster: a Kubernetes Service in front of a gateway whose pods come and go (`retarget` to the
 * replacement), or the network itself, which can cut every connection (`cut`) or stall it
 * (`stall`: nothing moves either way, connections stay open, until `resume`). Each accepted
 * connection gets its own upstream connection to the current target; when either side ends, so
 * does the other. A connection the target refuses is closed at once, as a Service with no ready
 * endpoint does.
 */
export class TcpProxy {
  private readonly open = new Set<Socket>();
  private stalled = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private target: { readonly host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }, host = '127.0.0.1'): Promise<TcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
    const proxy = new TcpProxy(server, address.port, { ...target });
    server.on('connection', (client) => proxy.accept(client));
    return proxy;
  }

  /** New connections go to `port` from now on (connections already open stay where they are). */
  retarget(port: number): void {
    this.target = { ...this.target, port };
  }

  /** Ends every open connection at once, both sides (a network cut; new connections still work). */
  cut(): void {
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  /**
   * Stops forwarding on every connection, open or new, both ways: bytes wait in the buffers as
   * behind a link that stalls (no reset, no FIN), until `resume`.
   */
  stall(): void {
    this.stalled = true;
    for (const s of this.open) s.pause();
  }

  resume(): void {
    this.stalled = false;
    for (const s of this.open) s.resume();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const upstream = createConnection({ host: this.target.host, port: this.target.port });
    this.open.add(client);
    this.open.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      this.open.delete(client);
      this.open.delete(upstream);
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.stalled) {
      client.pause();
      upstream.pause();
    }
  }
}
