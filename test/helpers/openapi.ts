// Every response a route test receives, checked against the service's own OpenAPI document: the status must be one
// the operation lists, and a JSON body must match that status's schema. A mismatch is a defect of the document or of
// the route, so the test app's close() fails with the list (startTestApp records them).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ADDRESS_FORMAT, parseAddress } from '../../src/address.ts';
import type { App } from '../../src/http/types.ts';
import { REPO_ROOT } from './process.ts';

type Json = Record<string, any>;
const pointer = (segments: string[]) => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export interface ResponseChecker {
  /** Mismatches found so far, one line each. */
  problems: string[];
}

interface CompiledDocument {
  json: string;
  doc: Json;
  ajv: InstanceType<typeof Ajv.default>;
  validators: Map<string, ValidateFunction | null>;
}

// The last document compiled in this process, with its validators: the apps a worker's files start almost always
// serve the same document, and compiling it is most of what checking costs.
let lastCompiled: CompiledDocument | undefined;

function compiledDocument(app: App): CompiledDocument {
  const doc = app.swagger() as Json;
  const json = JSON.stringify(doc);
  if (lastCompiled?.json === json) return lastCompiled;
  const ajv = new (Ajv as unknown as typeof Ajv.default)({ strict: false, allErrors: true, validateSchema: false });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  ajv.addFormat(ADDRESS_FORMAT, { type: 'string', validate: (v: string) => parseAddress(v).ok });
  ajv.addSchema(doc, 'openapi');
  lastCompiled = { json, doc, ajv, validators: new Map() };
  return lastCompiled;
}

/** Adds the hook (before the app is ready) that checks each response once the document can be read. */
export function checkResponsesAgainstDocument(app: App): ResponseChecker {
  const checker: ResponseChecker = { problems: [] };
  let compiled: CompiledDocument | undefined;

  const validatorFor = (path: string, method: string, status: string): ValidateFunction | null => {
    const { doc, ajv, validators } = compiled!;
    const key = `${method} ${path} ${status}`;
    if (validators.has(key)) return validators.get(key)!;
    const media = doc.paths[path][method].responses[status]?.content?.['application/json'];
    const validate = media?.schema
      ? ajv.compile({
          $ref: `openapi#/${pointer(['paths', path, method, 'responses', status, 'content', 'application/json', 'schema'])}`,
        })
      : null;
    validators.set(key, validate);
    return validate;
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    try {
      const url = request.routeOptions.url;
      const type = String(reply.getHeader('content-type') ?? '');
      // Only JSON answers of documented routes: not the SSE stream, images, metrics text, the docs page, or a
      // request that matched no route.
      if (
        url === undefined ||
        !type.startsWith('application/json') ||
        (typeof payload !== 'string' && !Buffer.isBuffer(payload))
      ) {
        return done(null, payload);
      }
      const text = String(payload);
      compiled ??= compiledDocument(app);
      const { doc, ajv } = compiled;
      const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const method = request.method.toLowerCase();
      const operation = doc.paths?.[path]?.[method];
      // Hidden from the document, or a route a test added without documenting it (no error responses declared).
      if (!operation || !operation.responses['500']) return done(null, payload);
      const status = String(reply.statusCode);
      if (!operation.responses[status]) {
        checker.problems.push(
          `${request.method} ${path} answered ${status}, which the document does not list (${text.slice(0, 200)})`,
        );
        return done(null, payload);
      }
      const validate = validatorFor(path, method, status);
      if (validate && !validate(JSON.parse(text))) {
        checker.problems.push(
          `${request.method} ${path} ${status}: the body does not match the document: ${ajv.errorsText(validate.errors)} (${text.slice(0, 200)})`,
        );
      }
    } catch (err) {
      checker.problems.push(`checking ${request.method} ${request.url}: ${(err as Error).message}`);
    }
    done(null, payload);
  });
  return checker;
}

/**
 * A check of platform events against the document's schema of the stream (the `text/event-stream` answer of
 * GET /api/v1/events): returns the mismatches of `event` as text, or null when it matches.
 */
export function platformEventCheck(app: App): (event: unknown) => string | null {
  const { ajv } = compiledDocument(app);
  const at = ['paths', '/api/v1/events', 'get', 'responses', '200', 'content', 'text/event-stream', 'schema'];
  const validate = ajv.compile({ $ref: `openapi#/${pointer(at)}` });
  return (event) => (validate(JSON.parse(JSON.stringify(event))) ? null : ajv.errorsText(validate.errors));
}

/** Lints an OpenAPI document with @redocly/cli under the repository's redocly.yaml: its problems as lines, and the exit status. */
export function redoclyLint(doc: unknown): { problems: string[]; status: number | null } {
  const dir = mkdtempSync(path.join(tmpdir(), 'aie-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const cli = path.join(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const run = spawnSync(
      process.execPath,
      [cli, 'lint', file, '--config', path.join(REPO_ROOT, 'redocly.yaml'), '--format', 'json'],
      { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')));
    const problems = (report.problems ?? []).map(
      (p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`,
    );
    return { problems, status: run.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
