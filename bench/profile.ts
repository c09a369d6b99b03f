// A CPU profile of the service while one read route is under load: the service as bench/http.ts starts it (on the
// seeded database `bench`), autocannon in a child process, and the V8 profiler (node:inspector) running only for the
// measured seconds, so warm-up, start-up and the bare route are not in it. Prints the functions and packages with
// the most self time and writes the .cpuprofile (Chrome DevTools opens it). Seed first with `npx tsx bench/http.ts`.
// --first PATH loads another path (10,000 variants) for 5 s before, as an earlier route of the benchmark would.
// --case NAME profiles a case of bench/http.ts (its path, or its varied paths in turn: `--case v1-trades-varied`).
// --warmup N loads the route itself for N s first (2): long enough for every path to be read once, the profile shows
// the steady state (10,000 company views take about 15 s to read once on the 2-core machine).
// --heap samples the bytes allocated instead of the CPU time (V8's sampling heap profiler, the objects the garbage
// collector has taken back included): by function and by package, and the bytes a request.
//   npx tsx bench/profile.ts /api/nft/metadata/{i} [--seconds 8] [--spread 10000] [--warmup 2] [--first PATH] [--out FILE]
//     [--heap]
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { ROUTES } from './http-routes.ts';
import { benchDatabase, startBenchService, startLoadProcess } from './service.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A sampling heap profile's tree (HeapProfiler.stopSampling). */
interface HeapNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapNode[];
}

/** Each frame with its weight: the CPU profile's self time. */
function cpuWeights(profile: Profile): { node: ProfileNode; weight: number }[] {
  const timeOf = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return profile.nodes.map((node) => ({ node, weight: timeOf.get(node.id) ?? 0 }));
}

/** Each frame with its weight: the bytes it allocated itself. */
function heapWeights(head: HeapNode): { node: HeapNode; weight: number }[] {
  const all: { node: HeapNode; weight: number }[] = [];
  const walk = (node: HeapNode) => {
    all.push({ node, weight: node.selfSize });
    for (const child of node.children) walk(child);
  };
  walk(head);
  return all;
}

function summarize(
  weights: { node: Pick<ProfileNode, 'callFrame'>; weight: number }[],
  what: string,
  top = 25,
): string {
  const total = weights.reduce((a, w) => a + w.weight, 0);
  const where = (url: string) =>
    url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const { node, weight: t } of weights) {
    const { functionName, url, lineNumber } = node.callFrame;
    const fn = `${functionName || '(anonymous)'} ${url ? `${where(url)}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
    const place = url ? where(url).replace(/:\d+$/, '') : functionName;
    byPlace.set(place, (byPlace.get(place) ?? 0) + t);
  }
  const table = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return `${what} by function:\n${table(byFunction)}\n\nby file or package:\n${table(byPlace)}`;
}

async function main() {
  const args = process.argv.slice(2);
  const named = args.includes('--case') ? ROUTES.find((r) => r.name === args[args.indexOf('--case') + 1]) : undefined;
  const route = named?.path ?? args.find((a) => a.startsWith('/'));
  if (!route) {
    throw new Error('usage: npx tsx bench/profile.ts /api/path/{i} [--seconds 8] [--spread 10000] (or --case NAME)');
  }
  const flag = (name: string, fallback: string) => {
    const i = args.indexOf(name);
    return i === -1 ? fallback : (args[i + 1] ?? fallback);
  };
  const seconds = Number(flag('--seconds', '8'));
  const spread = Number(flag('--spread', '10000'));
  const heap = args.includes('--heap');
  const out = path.resolve(
    flag('--out', path.join(os.tmpdir(), heap ? 'aie-route.heapprofile' : 'aie-route.cpuprofile')),
  );

  const { url } = await benchDatabase(false);
  const service = await startBenchService(url);
  const loader = await startLoadProcess();
  const headers: Record<string, string> = route.startsWith('/api/v1/') ? { 'x-api-key': service.apiKey } : {};
  const target = { url: service.url, path: route, spread, headers, connections: 64, variants: named?.variants };
  try {
    const first = flag('--first', '');
    if (first) await loader.load({ ...target, path: first, spread: 10_000, variants: undefined, seconds: 5 });
    await loader.load({ ...target, seconds: Number(flag('--warmup', '2')) });
    const session = new Session();
    session.connect();
    if (heap) {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    } else {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const cpu = process.cpuUsage();
    const started = performance.now();
    const load = await loader.load({ ...target, seconds });
    const used = process.cpuUsage(cpu);
    const stopped = heap
      ? ((await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: HeapNode } })
      : ((await session.post('Profiler.stop')) as unknown as { profile: Profile });
    session.disconnect();
    writeFileSync(out, JSON.stringify(stopped.profile));
    const busy = ((used.user + used.system) / 1000 / (performance.now() - started)) * 100;
    console.log(
      `${route}: ${Math.round(load.rps)} req/s, p99 ${load.p99} ms, server process ${busy.toFixed(0)} % of a core`,
    );
    if ('head' in stopped.profile) {
      const weights = heapWeights(stopped.profile.head);
      const bytes = weights.reduce((a, w) => a + w.weight, 0);
      console.log(`${Math.round(bytes / load.requests)} bytes allocated a request (${load.requests} requests)`);
      console.log(summarize(weights, 'bytes allocated'));
    } else {
      console.log(summarize(cpuWeights(stopped.profile), 'self time'));
    }
    console.log(`profile written to ${out}`);
  } finally {
    loader.close();
    await service.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
