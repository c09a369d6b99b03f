// The command-line flags of the repository's scripts and benchmarks (`npm run demo`, `npm run sim`, bench/): each flag as
// `--flag value` or `--flag=value`, `--help` or `-h` anywhere, an error that names the flag for a missing or malformed
// value, and one for an option no handler knows. A script declares its flags as a table of handlers.

/** The value of the flag being read: after `=`, or the next argument; throws when there is none. */
export type FlagValue = () => string;

/**
 * Walks `argv` and calls the handler of each flag with a reader of its value. Returns whether help was asked for.
 * Throws `unknown option ...` (with the flags there are) for a flag with no handler, and `--flag needs a value` for a
 * value that is missing or empty. A flag that takes no value (`--no-seed`) has a handler that does not read it.
 */
export function readFlags(argv: string[], handlers: Record<string, (value: FlagValue) => void>): { help: boolean } {
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    if (flag === '--help' || flag === '-h') {
      help = true;
      continue;
    }
    const handle = Object.hasOwn(handlers, flag) ? handlers[flag] : undefined;
    if (!handle) throw new Error(`unknown option ${arg} (the options: ${Object.keys(handlers).join(', ')})`);
    handle(() => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    });
  }
  return { help };
}

/** A whole number of decimal digits within `min`-`max` (so not `1e3`, `0x10`, `2.0` or ` 5`); no `max`, no upper bound. */
export function wholeNumberFlag(flag: string, v: string, min: number, max = Number.POSITIVE_INFINITY): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) {
    const range = Number.isFinite(max) ? `${min}-${max}` : `of at least ${min}`;
    throw new Error(`${flag} must be a whole number ${range}, got "${v}"`);
  }
  return n;
}

/** A finite decimal number within `min`-`max`. */
export function numberFlag(flag: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || n < min || n > max)
    throw new Error(`${flag} must be a number ${min}-${max}, got "${v}"`);
  return n;
}

/** An http(s) URL, without its trailing slashes. */
export function httpUrlFlag(flag: string, v: string): string {
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new Error(`${flag} must be an http(s) URL, got "${v}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${flag} must be an http(s) URL, got "${v}"`);
  }
  return v.replace(/\/+$/, '');
}

export interface ScriptIo {
  out(text: string): void;
  err(text: string): void;
  setExitCode(code: number): void;
}

const PROCESS_IO: ScriptIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/**
 * A script's options from its command line, or undefined when it is not to run: `--help` prints `usage`; a bad option
 * prints its error and `usage` to stderr and sets exit code 2.
 */
export function scriptOptions<T extends { help: boolean }>(
  parse: (argv: string[], env: Record<string, string | undefined>) => T,
  usage: string,
  argv: string[] = process.argv.slice(2),
  env: Record<string, string | undefined> = process.env,
  io: ScriptIo = PROCESS_IO,
): T | undefined {
  let options: T;
  try {
    options = parse(argv, env);
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${usage}`);
    io.setExitCode(2);
    return undefined;
  }
  if (options.help) {
    io.out(usage);
    return undefined;
  }
  return options;
}
