/*
 * The bare uWebSockets.js app the gateway benches compare against: the same uWS build and socket
 * options as services/gateway, and nothing else. Every socket subscribes to one topic on open and is
 * answered `pong` to a `ping` (so the harness's RawSocket.probe works on it as on a gateway). Run as
 * its own process by raw-uws.ts, so that /proc charges it alone; it prints one JSON ready line.
 *
 *   GET /stats                                   {"sockets": N}
 *   GET /publish?rate=R&seconds=S&bytes=B        publishes R messages of B bytes a second to the
 *                                                topic for S seconds, then answers {"published": P}
 */
import uWS from 'uWebSockets.js';

const TOPIC = 'bench';
/** services/gateway's figures, so a socket costs the same buffers in both. */
const MAX_PAYLOAD = 16384 * 2;
const BACKPRESSURE = 2 * 1024 * 1024;
const TICK_MS = 10;

let sockets = 0;

function payload(bytes: number): string {
  const head = '{"type":"bench","pad":"';
  const tail = '"}';
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}

const app = uWS.App();
app.ws('/ws', {
  maxPayloadLength: MAX_PAYLOAD,
  maxBackpressure: BACKPRESSURE,
  closeOnBackpressureLimit: 1,
  idleTimeout: 120,
  sendPingsAutomatically: true,
  open: (ws) => {
    sockets++;
    ws.subscribe(TOPIC);
  },
  message: (ws, message) => {
    let m: { type?: unknown; nonce?: unknown };
    try {
      m = JSON.parse(Buffer.from(message).toString('utf8')) as typeof m;
    } catch {
      return;
    }
    if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong', nonce: m.nonce }), false);
  },
  close: () => {
    sockets--;
  },
});

app.get('/stats', (res) => {
  res.writeHeader('content-type', 'application/json').end(JSON.stringify({ sockets }));
});

app.get('/publish', (res, req) => {
  const q = new URLSearchParams(req.getQuery());
  const rate = Number(q.get('rate'));
  const seconds = Number(q.get('seconds'));
  const text = payload(Number(q.get('bytes') ?? 256));
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  const started = performance.now();
  let published = 0;
  const timer = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    const due = Math.floor(Math.min(elapsed, seconds) * rate);
    for (; published < due; published++) app.publish(TOPIC, text, false);
    if (elapsed < seconds) return;
    clearInterval(timer);
    if (!aborted)
      res.cork(() => res.writeHeader('content-type', 'application/json').end(JSON.stringify({ published })));
  }, TICK_MS);
});

app.listen('127.0.0.1', 0, (listen) => {
  if (!listen) {
    process.stderr.write('raw uWS app could not listen\n');
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify({ event: 'ready', port: uWS.us_socket_local_port(listen) })}\n`);
});

process.on('SIGTERM', () => process.exit(0));
