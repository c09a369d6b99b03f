// The Fortune List family (docs/api/fortune.md): the internal ranking of a daily score snapshot and a company's score
// history, and under /api/v1 (v1FortuneRoutes, registered by v1.ts) the public ranking by platformScore and the
// history's twin. The daily snapshot itself is the `score-snapshot` job (src/jobs/scheduler.ts).
import { registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import list from './list.ts';
import ranking from './ranking.ts';
import scores from './scores.ts';

export default async function fortuneRoutes(app: App, options: RouteOptions) {
  registerRoute(app, options, list, 'internal');
  registerRoute(app, options, scores, 'internal');
}

/** The public v1 ranking and score history, registered under /api/v1 by v1.ts. */
export async function v1FortuneRoutes(app: App, options: RouteOptions) {
  registerRoute(app, options, ranking, 'v1');
  registerRoute(app, options, scores, 'v1');
}
