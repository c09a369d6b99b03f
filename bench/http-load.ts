// The client side of bench/http.ts, in a child process so autocannon does not share the server's event loop: runs
// one autocannon load per message from the parent and answers with its summary. `{i}` in a path is replaced, per
// request, by a number cycling through 1..spread, so keyed routes read many rows rather than one; a target with
// variants asks a different path (other pages, filters, companies) with every request. A load may name a
// mix of routes (each connection asks them in turn) and a fixed overall rate (bench/soak.ts uses both).
import autocannon from 'autocannon';

export interface LoadTarget {
  path: string;
  spread: number;
  headers: Record<string, string>;
  /** Paths asked in turn, one per request (varied traffic); `path` alone when absent. */
  variants?: string[];
}

export interface LoadRequest extends LoadTarget {
  kind: 'load';
  url: string;
  connections: number;
  seconds: number;
  /** Routes asked in turn instead of `path` alone. */
  mix?: LoadTarget[];
  /** Requests per second over all connections; as fast as possible when absent. */
  rate?: number;
  /** Stop after this many requests in all (then `seconds` is only the longest it may take). */
  amount?: number;
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

/** One autocannon request template; `{i}` cycles through 1..spread, per template, or the variants in turn. */
function template(target: LoadTarget): autocannon.RequestTemplate {
  let next = 0;
  const variants = target.variants;
  if (variants && variants.length > 0) {
    return {
      method: 'GET',
      path: variants[0]!,
      headers: target.headers,
      setupRequest: (req: autocannon.Request) => {
        next = (next + 1) % variants.length;
        return { ...req, path: variants[next]! };
      },
    };
  }
  return {
    method: 'GET',
    path: target.path.replace('{i}', '1'),
    headers: target.headers,
    ...(target.path.includes('{i}')
      ? {
          setupRequest: (req: autocannon.Request) => {
            next = (next % target.spread) + 1;
            return { ...req, path: target.path.replace('{i}', String(next)) };
          },
        }
      : {}),
  };
}

function load(msg: LoadRequest): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: msg.url,
        connections: msg.connections,
        duration: msg.seconds,
        headers: msg.headers,
        requests: (msg.mix ?? [msg]).map(template),
        ...(msg.rate ? { overallRate: msg.rate } : {}),
        ...(msg.amount ? { amount: msg.amount } : {}),
      },
      (err, r) => {
        if (err) return reject(err);
        resolve({
          requests: r.requests.total,
          // A run of a fixed number of requests ends within a second: its rate is what it took, not an average of
          // whole seconds.
          rps: msg.amount ? r.requests.total / r.duration : r.requests.average,
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
