// The few parts of autocannon (which ships no types) that bench/http-load.ts uses.
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface RequestTemplate extends Request {
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      headers?: Record<string, string>;
      requests?: RequestTemplate[];
      /** Requests per second over all connections. */
      overallRate?: number;
      /** Requests in all, after which the run stops. */
      amount?: number;
    }
    interface Histogram {
      average: number;
      mean: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      /** Seconds the run took. */
      duration: number;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
    }
  }
  function autocannon(
    options: autocannon.Options,
    callback: (err: Error | null, result: autocannon.Result) => void,
  ): unknown;
  export default autocannon;
}
