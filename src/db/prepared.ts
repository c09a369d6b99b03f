// Prepared statements of the hot reads: built once per database handle, then sent by name, so
// PostgreSQL parses and plans each once per connection rather than on every request (planning cost as much as
// running these), and Drizzle builds the SQL text once rather than on every request.

const byHandle = new WeakMap<object, Map<string, unknown>>();

/** The statement `name` prepared on `db` by `build(name)` the first time, then the same one. */
export function preparedOn<P>(db: object, name: string, build: (name: string) => P): P {
  let statements = byHandle.get(db);
  if (statements === undefined) {
    statements = new Map();
    byHandle.set(db, statements);
  }
  let statement = statements.get(name) as P | undefined;
  if (statement === undefined) {
    statement = build(name);
    statements.set(name, statement);
  }
  return statement;
}
