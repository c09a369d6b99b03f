// The client side of bench/http.ts, in a child process so autocannon does not share the server's event loop: runs
// one autocannon load per message from the parent and answers with its summary. `{i}` in a path is replaced, per
// request, by a number cycling through 1..spread, so keyed routes read many rows rather than one.
import autocannon from 'autocannon';

export interface LoadRequest {
  kind: 'load';
  url: string;
  path: string;
  spread: number;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadSummary {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  bytesPerSecond: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function load(msg: LoadRequest): Promise<LoadSummary> {
  let next = 0;
  const keyed = msg.path.includes('{i}');
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: msg.url,
        connections: msg.connections,
        duration: msg.seconds,
        headers: msg.headers,
        requests: [
          {
            method: 'GET',
            path: msg.path.replace('{i}', '1'),
            ...(keyed
              ? {
                  setupRequest: (req: autocannon.Request) => {
                    next = (next % msg.spread) + 1;
                    return { ...req, path: msg.path.replace('{i}', String(next)) };
                  },
                }
              : {}),
          },
        ],
      },
      (err, r) => {
        if (err) return reject(err);
        resolve({
          requests: r.requests.total,
          rps: r.requests.average,
          p50: r.latency.p50,
          p90: r.latency.p90,
          p99: r.latency.p99,
          max: r.latency.max,
          bytesPerSecond: r.throughput.average,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
        });
      },
    );
  });
}

process.on('message', (msg: LoadRequest | { kind: 'exit' }) => {
  if (msg.kind === 'exit') process.exit(0);
  load(msg).then(
    (summary) => process.send!({ kind: 'done', summary }),
    (err: Error) => process.send!({ kind: 'failed', message: err.message }),
  );
});
process.send!({ kind: 'ready' });
