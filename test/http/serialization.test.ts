// Response serializers are compiled once a process (src/http/serialization.ts): a second app reuses what the first
// compiled, and never a serializer compiled for other shared schemas or other options.
import { describe, expect, it } from 'vitest';
import { buildCachedSerializer } from '../../src/http/serialization.ts';

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/thing', httpStatus: '200' });
const options = {};
const thing = (property: string) => ({
  Thing: { $id: 'Thing', type: 'object', properties: { [property]: { type: 'string' } } },
});

describe('buildCachedSerializer', () => {
  it('hands a second app the serializer the first compiled for the same schema, shared schemas and options', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    const first = buildCachedSerializer(thing('a'), options)(route(schema));
    const second = buildCachedSerializer(thing('a'), options)(route(schema));
    expect(second).toBe(first);
    expect(second({ n: 5, extra: 1 })).toBe('{"n":5}');
  });

  it('compiles again for other shared schemas, and keeps both', () => {
    const schema = { $ref: 'Thing#' };
    const withA = buildCachedSerializer(thing('a'), options)(route(schema));
    const withB = buildCachedSerializer(thing('b'), options)(route(schema));
    expect(withB).not.toBe(withA);
    expect(withA({ a: 'x', b: 'y' })).toBe('{"a":"x"}');
    expect(withB({ a: 'x', b: 'y' })).toBe('{"b":"y"}');
    expect(buildCachedSerializer(thing('a'), options)(route(schema))).toBe(withA);
  });

  it('compiles again for other options and for another schema object of the same content', () => {
    const schema = { type: 'object', properties: { s: { type: 'string' } } };
    const first = buildCachedSerializer({}, options)(route(schema));
    expect(buildCachedSerializer({}, {})(route(schema))).not.toBe(first);
    expect(buildCachedSerializer({}, options)(route({ ...schema }))).not.toBe(first);
  });
});
