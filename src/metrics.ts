// Prometheus metrics of one process: a registry per container (never prom-client's global one, so several apps in
// one test process do not collide), the HTTP, job and RPC-error series, and gauges read on each scrape from the
// event hub and the chain log followers. docs/operations.md lists every series.
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { isChainUnavailable } from './errors.ts';

/** Where a CHAIN_UNAVAILABLE error surfaced. */
export type RpcErrorSource = 'http' | 'indexer' | 'job' | 'engine';

/** What the metrics read from the event hub on each scrape. */
export interface StreamStats {
  stats(): { streams: number; clients: number };
}

/** What the metrics read from a chain log follower on each scrape. */
export interface LaggingStream {
  readonly name: string;
  lag(): bigint | undefined;
  /** When (epoch ms, this process's clock) its last poll succeeded; undefined before one. */
  lastPolledAt?(): number | undefined;
}

export interface Metrics {
  readonly registry: Registry;
  /** The exposition format's content type. */
  readonly contentType: string;
  /** Records one answered HTTP request under its route pattern (never the raw URL). */
  observeRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void;
  /** Records one run of a scheduled job; `ran` false when another process held its lock. */
  observeJob(job: string, seconds: number, outcome: 'ok' | 'failed' | 'skipped'): void;
  /** Counts an error when it is a CHAIN_UNAVAILABLE one (the RPC did not answer); true when it was counted. */
  countRpcError(err: unknown, source: RpcErrorSource): boolean;
  /** The event hub whose open streams the SSE gauges report. */
  watchStreams(hub: StreamStats): void;
  /** A log follower whose lag the indexer gauge reports, labelled with its stream name. */
  watchFollower(follower: LaggingStream): void;
  /** The registry in the text exposition format. */
  render(): Promise<string>;
}

export const statusClass = (statusCode: number) => `${Math.floor(statusCode / 100)}xx`;

interface RequestSeries {
  labels: { method: string; route: string; status_class: string };
  /** Observations per bucket (not cumulative), the last one past every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The HTTP requests' histogram, exposed as prom-client's Histogram exposes one (the same series and text), but
 * counted per request with a lookup and three additions: prom-client's `observe` checks and hashes the labels
 * again on every call, even a labelled child's (a few µs and about 500 bytes of garbage a request, on every route).
 * Label sets are finite (route patterns, never the raw URL), so is the map.
 */
class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, RequestSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, statusClass: string, seconds: number) {
    const key = `${method} ${route} ${statusClass}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = {
        labels: { method, route, status_class: statusClass },
        counts: new Array(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    const value = seconds > 0 ? seconds : 0;
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    series.counts[bucket]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /**
   * prom-client's metric object as its Histogram gives it to Registry.metrics(): per series its cumulative buckets
   * (`le` as the value's own label, the series' labels shared), then _sum and _count.
   */
  async getForPromString() {
    type Value = { labels: Record<string, string | number>; sharedLabels: object; value: number; metricName: string };
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { le }, sharedLabels: labels, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucket });
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same with each value's labels whole (Registry.getMetricsAsJSON). */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ labels, sharedLabels, ...value }) => ({
        ...value,
        labels: { ...labels, ...sharedLabels },
      })),
    };
  }

  reset() {
    this.series.clear();
  }
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  const requestDuration = new RequestHistogram(
    'http_request_duration_seconds',
    'HTTP requests by method, route pattern and status class (rate: the _count series); event streams excluded',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  registry.registerMetric(requestDuration as never);
  const jobDuration = new Histogram({
    name: 'aie_job_duration_seconds',
    help: 'Scheduled job runs by job and outcome (ok, failed, skipped: another process held the lock)',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'aie_job_failures_total',
    help: 'Scheduled job runs that threw',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const rpcErrors = new Counter({
    name: 'aie_rpc_errors_total',
    help: 'CHAIN_UNAVAILABLE errors (the chain RPC did not answer in time) by where they surfaced',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  for (const source of ['http', 'indexer', 'job', 'engine'] satisfies RpcErrorSource[]) rpcErrors.inc({ source }, 0);

  const hubs: StreamStats[] = [];
  const followers = new Map<string, LaggingStream>();
  new Gauge({
    name: 'aie_sse_connections',
    help: 'Open event streams (GET /api/v1/events) held by this process',
    registers: [registry],
    collect() {
      this.set(hubs.reduce((n, hub) => n + hub.stats().streams, 0));
    },
  });
  new Gauge({
    name: 'aie_sse_clients',
    help: 'Distinct clients (API keys, or addresses without a key) holding event streams in this process',
    registers: [registry],
    collect() {
      this.set(hubs.reduce((n, hub) => n + hub.stats().clients, 0));
    },
  });
  new Gauge({
    name: 'aie_indexer_lag_blocks',
    help: 'Blocks between the chain head and the last applied block of each followed log stream, at its last poll',
    labelNames: ['stream'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, follower] of followers) {
        const lag = follower.lag();
        if (lag !== undefined) this.set({ stream: name }, Number(lag));
      }
    },
  });

  new Gauge({
    name: 'aie_indexer_seconds_since_poll',
    help: 'Seconds since each followed log stream last polled the chain successfully: grows while the RPC is down',
    labelNames: ['stream'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, follower] of followers) {
        const at = follower.lastPolledAt?.();
        if (at !== undefined) this.set({ stream: name }, Math.max(0, (Date.now() - at) / 1000));
      }
    },
  });

  return {
    registry,
    contentType: registry.contentType,
    observeRequest(method, route, statusCode, seconds) {
      requestDuration.observe(method, route ?? 'unmatched', statusClass(statusCode), seconds);
    },
    observeJob(job, seconds, outcome) {
      jobDuration.observe({ job, outcome }, Math.max(0, seconds));
      if (outcome === 'failed') jobFailures.inc({ job });
    },
    countRpcError(err, source) {
      if (!isChainUnavailable(err)) return false;
      rpcErrors.inc({ source });
      return true;
    },
    watchStreams(hub) {
      if (!hubs.includes(hub)) hubs.push(hub);
    },
    watchFollower(follower) {
      followers.set(follower.name, follower);
    },
    render: () => registry.metrics(),
  };
}

export interface LoopLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The logger handed to a background loop (log followers, the engine), counting each warning whose `err` is
 * CHAIN_UNAVAILABLE under `source`: those loops report their failures through their logger only.
 */
export function countingRpcErrors(log: LoopLogger, metrics: Metrics, source: RpcErrorSource): LoopLogger {
  return {
    debug: (obj, msg) => log.debug(obj, msg),
    warn: (obj, msg) => {
      metrics.countRpcError((obj as { err?: unknown }).err, source);
      log.warn(obj, msg);
    },
  };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** True when `header` is `Bearer <token>`; compared in constant time (digests of equal length). */
/** Where a process serves GET /metrics, from its settings (docs/operations.md "Metrics"). */
export interface MetricsExposure {
  /** On the API's own port (api role). */
  onApi: boolean;
  /** On a port of its own. */
  port: number | undefined;
  /** Why it is served nowhere, for the start-up log; undefined when it is served somewhere. */
  hidden: string | undefined;
}

/**
 * Outside production /metrics is on the API port (behind METRICS_TOKEN when set), and on METRICS_PORT for a process
 * without the api role. In production the metrics are never open on the public port: they need METRICS_TOKEN there,
 * or, with METRICS_PORT set, they are served on that port only (on every role), for a scraper inside the network.
 */
export function metricsExposure(config: {
  nodeEnv: string;
  metricsToken: string | undefined;
  metricsPort: number | undefined;
  roles: ReadonlySet<string>;
}): MetricsExposure {
  const api = config.roles.has('api');
  if (config.nodeEnv !== 'production') {
    return { onApi: api, port: api ? undefined : config.metricsPort, hidden: undefined };
  }
  if (config.metricsPort !== undefined) return { onApi: false, port: config.metricsPort, hidden: undefined };
  if (config.metricsToken !== undefined) return { onApi: api, port: undefined, hidden: undefined };
  return {
    onApi: false,
    port: undefined,
    hidden:
      'GET /metrics is not served: in production set METRICS_TOKEN (scrapers then send Authorization: Bearer <METRICS_TOKEN>) or METRICS_PORT (served on that port only)',
  };
}

export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^\s*Bearer +(\S+)\s*$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(sha256(given), sha256(token));
}

/**
 * A bare HTTP server answering GET /metrics only, for processes without the api role (indexer, scheduler, engine)
 * when METRICS_PORT is set. Same token rule as the API route.
 */
export async function serveMetrics(
  metrics: Metrics,
  options: { host: string; port: number; token?: string | undefined },
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (options.token && !bearerMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
