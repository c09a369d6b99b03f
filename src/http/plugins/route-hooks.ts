// Hooks a plugin gives each route as the route is registered (from an onRoute hook), closed over what the route's
// options say: no request builds its route options to ask (Fastify's request.routeOptions is a new object of a dozen
// fields on every read, and the read routes must stay close to a bare route's speed, docs/benchmarks.md).
import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preHandler' | 'onSend' | 'onResponse';

/** A route option's hooks as a list (the option takes one hook or several). */
const hooksOf = <H>(h: H | H[] | undefined): H[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/**
 * Adds `hook` to the route's own `name` hooks, before or after those it has. A route's own hooks run after the
 * hooks added to the app (app.addHook) of the same kind.
 */
export function addRouteHook(route: RouteOptions, name: HookName, hook: unknown, at: 'first' | 'last'): void {
  const own = hooksOf(route[name] as unknown);
  route[name] = (at === 'first' ? [hook, ...own] : [...own, hook]) as never;
}
