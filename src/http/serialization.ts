// Response serializers, compiled once a process. Fastify compiles every route's response schemas with
// fast-json-stringify when the app starts (about a third of a second of CPU for this app); the route schemas are
// module constants, so a process that builds the app more than once (a test worker builds dozens) reuses what it
// compiled, as long as the options are the same object and the shared schemas (which Fastify copies for each app)
// are the same.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Factory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<Factory>>;

const buildDefault = SerializerSelector();
// By schema object: a schema used under several sets of shared schemas (routes registered before and after one is
// added) has an entry for each.
const compiled = new WeakMap<object, { externals: string; options: unknown; serialize: Serializer }[]>();

/** Fastify's default serializer factory (`schemaController.compilersFactory.buildSerializer`), keeping what it compiled. */
export const buildCachedSerializer: Factory = (externalSchemas, options) => {
  const compile = buildDefault(externalSchemas, options);
  const externals = JSON.stringify(externalSchemas ?? {});
  return (route) => {
    const { schema } = route;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let entries = compiled.get(schema);
    if (!entries) {
      entries = [];
      compiled.set(schema, entries);
    }
    const known = entries.find((e) => e.options === options && e.externals === externals);
    if (known) return known.serialize;
    const serialize = compile(route);
    entries.push({ externals, options, serialize });
    return serialize;
  };
};
