// GET /api/v1/changelog (registered by v1.ts): the API changelog of the repository (docs/api/changelog.md), served as
// it is. Open like the document: what changed is no secret, and a client reads it before it has a key. Registered by
// hand: route() answers JSON in an envelope, and this is Markdown.
import { readFile } from 'node:fs/promises';
import { v1Errors } from '../../schemas/common.ts';
import type { App } from '../../types.ts';

const CHANGELOG = new URL('../../../../docs/api/changelog.md', import.meta.url);

export function registerChangelog(app: App) {
  let changelog: string | undefined;
  app.get(
    '/changelog',
    {
      schema: {
        tags: ['system'],
        summary: 'The API changelog (docs/api/changelog.md), newest first, as Markdown',
        description:
          'What changed for a client of /api/v1 and of the event stream, with the deprecations and their Sunset dates (docs/api/README.md "Stability"). text/markdown; no key needed.',
        response: {
          200: { description: 'The changelog', content: { 'text/markdown': { schema: { type: 'string' } } } },
          ...v1Errors,
        },
      },
    },
    async (_request, reply) => {
      changelog ??= await readFile(CHANGELOG, 'utf8');
      return reply.type('text/markdown; charset=utf-8').header('cache-control', 'public, max-age=300').send(changelog);
    },
  );
}
