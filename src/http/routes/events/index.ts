// The events family (docs/api/events.md): the platform event stream under /api/v1 with a key (eventRoutes,
// registered by v1.ts) and its public read-only twin for the web app, and the recent events the activity feed opens
// on. Both streams are one route (stream.ts) with their own options.
import { registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import { registerPublicStream } from './public-stream.ts';
import recent from './recent.ts';

export { default } from './v1-stream.ts';

/** GET /api/events and GET /api/events/recent: public and read-only, for the web app's pages. */
export async function publicEventRoutes(app: App, options: RouteOptions) {
  registerPublicStream(app, options);
  registerRoute(app, options, recent, 'internal');
}
