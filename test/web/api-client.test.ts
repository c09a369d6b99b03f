// The web app's typed API client is generated from the service's own OpenAPI document (openapi-typescript): this
// test generates it again and fails when web/src/api-schema.d.ts differs, so the client and the API cannot drift
// apart. `npm run gen:api` writes the file instead (UPDATE_API_CLIENT=1).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';

const t = useTestApp();
const FILE = path.resolve(import.meta.dirname, '../../web/src/api-schema.d.ts');
const HEADER =
  '// Generated from GET /api/openapi.json by openapi-typescript (npm run gen:api); do not edit.\n// biome-ignore-all lint: generated\n';

it('web/src/api-schema.d.ts is what the OpenAPI document generates', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const generated = HEADER + astToString(await openapiTS(doc, { alphabetize: true }));
  if (process.env.UPDATE_API_CLIENT) writeFileSync(FILE, generated);
  expect(readFileSync(FILE, 'utf8'), 'run `npm run gen:api` and commit web/src/api-schema.d.ts').toBe(generated);
});
