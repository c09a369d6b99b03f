// A CPU profile of the service while one read route is under load: the service as bench/http.ts starts it (on the
// seeded database `bench`), autocannon in a child process, and the V8 profiler (node:inspector) running only for the
// measured seconds, so warm-up, start-up and the bare route are not in it. Prints the functions and packages with
// the most self time and writes the .cpuprofile (Chrome DevTools opens it). Seed first with `npx tsx bench/http.ts`.
// --first PATH loads another path (10,000 variants) for 5 s before, as an earlier route of the benchmark would.
// --case NAME profiles a case of bench/http.ts (its path, or its varied paths in turn: `--case v1-trades-varied`).
// --warmup N loads the route itself for N s first (2): long enough for every path to be read once, the profile shows
// the steady state (10,000 company views take about 15 s to read once on the 2-core machine).
//   npx tsx bench/profile.ts /api/nft/metadata/{i} [--seconds 8] [--spread 10000] [--warmup 2] [--first PATH] [--out FILE]
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

function summarize(profile: Profile, top = 25) {
  const timeOf = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...timeOf.values()].reduce((a, b) => a + b, 0);
  const where = (url: string) =>
    url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const node of profile.nodes) {
    const t = timeOf.get(node.id) ?? 0;
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
  return `self time by function:\n${table(byFunction)}\n\nby file or package:\n${table(byPlace)}`;
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
  const out = path.resolve(flag('--out', path.join(os.tmpdir(), 'aie-route.cpuprofile')));

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
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const cpu = process.cpuUsage();
    const started = performance.now();
    const load = await loader.load({ ...target, seconds });
    const used = process.cpuUsage(cpu);
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    writeFileSync(out, JSON.stringify(profile));
    const busy = ((used.user + used.system) / 1000 / (performance.now() - started)) * 100;
    console.log(
      `${route}: ${Math.round(load.rps)} req/s, p99 ${load.p99} ms, server process ${busy.toFixed(0)} % of a core`,
    );
    console.log(summarize(profile));
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
