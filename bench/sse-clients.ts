// The client side of bench/sse.ts, run in a child process so the server keeps its own file descriptors and core:
// opens N event streams, records when each platform event reaches each client, and reports to the parent.
import http from 'node:http';
import { createParser } from 'eventsource-parser';

interface Start {
  url: string;
  clients: number;
  concurrency: number;
  apiKey: string;
  /** Loopback source addresses to spread the streams over: each has its own ~28,000 ephemeral ports. */
  localAddresses?: string[];
}

type FromParent = { kind: 'start'; start: Start } | { kind: 'collect'; events: number } | { kind: 'exit' };

const send = (msg: unknown) => process.send!(msg);

/** Per event seq: delivery latencies (ms) of the clients that got it. */
const latencies = new Map<number, number[]>();
const sockets: http.ClientRequest[] = [];
let connected = 0;
let failed = 0;
let closedEarly = 0;

let opened = 0;
function openOne(start: Start): Promise<void> {
  return new Promise((resolve) => {
    const local = start.localAddresses?.[opened++ % start.localAddresses.length];
    const req = http.get(start.url, {
      agent: false,
      headers: { 'x-api-key': start.apiKey },
      ...(local ? { localAddress: local } : {}),
    });
    sockets.push(req);
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      if (ok) connected++;
      else failed++;
      resolve();
    };
    req.on('error', () => settle(false));
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return settle(false);
      }
      res.setEncoding('utf8');
      const parser = createParser({
        onEvent: (m) => {
          if (m.event === 'connected') return settle(true);
          const now = Date.now();
          const { data } = JSON.parse(m.data) as { data: { seq: number; sentAt: number } };
          const list = latencies.get(data.seq) ?? [];
          if (list.length === 0) latencies.set(data.seq, list);
          list.push(now - data.sentAt);
        },
      });
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('close', () => {
        if (settled) closedEarly++;
        settle(false);
      });
    });
  });
}

async function openAll(start: Start) {
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < start.clients) {
      next++;
      await openOne(start);
    }
  };
  await Promise.all(Array.from({ length: start.concurrency }, worker));
  send({ kind: 'connected', connected, failed, ms: Date.now() - started, rss: process.memoryUsage().rss });
}

process.on('message', (msg: FromParent) => {
  if (msg.kind === 'start') void openAll(msg.start);
  else if (msg.kind === 'collect') {
    const perEvent = Array.from({ length: msg.events }, (_, seq) => latencies.get(seq) ?? []);
    send({ kind: 'results', perEvent, closedEarly });
  } else if (msg.kind === 'exit') {
    for (const s of sockets) s.destroy();
    process.exit(0);
  }
});
send({ kind: 'ready' });
