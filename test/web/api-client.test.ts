// The typed API clients are generated from the service's own OpenAPI documents (openapi-typescript): this test
// generates them again and fails when a committed file differs, so the clients, the published v1 document and the
// API cannot drift apart. `npm run gen:api` writes the files instead (UPDATE_API_CLIENT=1):
// - web/src/api-schema.d.ts, the web app's client, from the full document GET /api/openapi.json;
// - docs/api/openapi.v1.json, the public v1 document GET /api/v1/openapi.json (src/http/openapi-v1.ts);
// - packages/client/src/schema.ts, the v1 client package's types, from that v1 document.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';

const t = useTestApp();
const ROOT = path.resolve(import.meta.dirname, '../..');
const header = (source: string) =>
  `// Generated from GET ${source} by openapi-typescript (npm run gen:api); do not edit.\n// biome-ignore-all lint: generated\n`;

function check(file: string, generated: string) {
  const at = path.join(ROOT, file);
  if (process.env.UPDATE_API_CLIENT) writeFileSync(at, generated);
  expect(readFileSync(at, 'utf8'), `run \`npm run gen:api\` and commit ${file}`).toBe(generated);
}

it('web/src/api-schema.d.ts is what the OpenAPI document generates', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  check(
    'web/src/api-schema.d.ts',
    header('/api/openapi.json') + astToString(await openapiTS(doc, { alphabetize: true })),
  );
});

it('docs/api/openapi.v1.json and packages/client/src/schema.ts are what the v1 document generates', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  check('docs/api/openapi.v1.json', `${JSON.stringify(doc, null, 2)}\n`);
  check(
    'packages/client/src/schema.ts',
    header('/api/v1/openapi.json') + astToString(await openapiTS(doc, { alphabetize: true })),
  );
});
