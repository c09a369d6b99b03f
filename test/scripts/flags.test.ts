// The flags of the scripts that take options (scripts/flags.ts): `npm run demo` and `npm run sim` read theirs with it.
import { describe, expect, it } from 'vitest';
import {
  type FlagValue,
  httpUrlFlag,
  numberFlag,
  readFlags,
  scriptOptions,
  wholeNumberFlag,
} from '../../scripts/flags.ts';

function read(argv: string[], flags: string[]) {
  const seen: [string, string][] = [];
  const handlers = Object.fromEntries(flags.map((f) => [f, (value: FlagValue) => seen.push([f, value()])]));
  return { ...readFlags(argv, handlers), seen };
}

describe('readFlags', () => {
  it('reads a value after the flag or after =, and help anywhere', () => {
    expect(read(['--a', '1', '--b=x=y', '-h'], ['--a', '--b'])).toEqual({
      help: true,
      seen: [
        ['--a', '1'],
        ['--b', 'x=y'],
      ],
    });
    expect(read(['--help'], []).help).toBe(true);
    expect(read([], ['--a'])).toEqual({ help: false, seen: [] });
  });

  it('refuses an unknown flag, a missing value and an empty one', () => {
    expect(() => read(['--c'], ['--a', '--b'])).toThrow('unknown option --c (the options: --a, --b)');
    expect(() => read(['--c=1'], ['--a'])).toThrow('unknown option --c=1');
    expect(() => read(['toString'], ['--a'])).toThrow('unknown option toString');
    expect(() => read(['--a'], ['--a'])).toThrow('--a needs a value');
    expect(() => read(['--a='], ['--a'])).toThrow('--a needs a value');
  });
});

describe('the values', () => {
  it('a whole number: its bounds are in, one past them out, and only decimal digits', () => {
    expect(wholeNumberFlag('--n', '3', 3, 200)).toBe(3);
    expect(wholeNumberFlag('--n', '200', 3, 200)).toBe(200);
    for (const bad of ['2', '201', '1.5', '1e2', '0x10', ' 5', '-3']) {
      expect(() => wholeNumberFlag('--n', bad, 3, 200), bad).toThrow(`--n must be a whole number 3-200, got "${bad}"`);
    }
    expect(wholeNumberFlag('--n', '0', 0)).toBe(0);
    expect(wholeNumberFlag('--n', '9007199254740991', 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => wholeNumberFlag('--n', '-1', 0)).toThrow('--n must be a whole number of at least 0, got "-1"');
  });

  it('a number: its bounds are in, past them out, and no other notation', () => {
    expect(numberFlag('--x', '0', 0, 0.5)).toBe(0);
    expect(numberFlag('--x', '0.5', 0, 0.5)).toBe(0.5);
    expect(numberFlag('--x', '0.25', 0, 0.5)).toBe(0.25);
    for (const bad of ['0.51', '-0.1', '.5', 'NaN', 'Infinity', '5e-1', '']) {
      expect(() => numberFlag('--x', bad, 0, 0.5), bad).toThrow(`--x must be a number 0-0.5, got "${bad}"`);
    }
  });

  it('an http(s) URL, without its trailing slashes', () => {
    expect(httpUrlFlag('--url', 'http://h:1/')).toBe('http://h:1');
    expect(httpUrlFlag('--url', 'https://example.test//')).toBe('https://example.test');
    for (const bad of ['ftp://x', 'localhost:3000', 'nope']) {
      expect(() => httpUrlFlag('--url', bad), bad).toThrow(`--url must be an http(s) URL, got "${bad}"`);
    }
  });
});

describe('scriptOptions', () => {
  const parse = (argv: string[], env: Record<string, string | undefined>) => {
    const options = { n: Number(env.N ?? 1), help: false };
    const { help } = readFlags(argv, {
      '--n': (value) => {
        options.n = wholeNumberFlag('--n', value(), 1, 9);
      },
    });
    return { ...options, help };
  };
  const run = (argv: string[]) => {
    const io = { out: '', err: '', code: undefined as number | undefined };
    const options = scriptOptions(
      parse,
      'USAGE\n',
      argv,
      { N: '2' },
      {
        out: (t) => {
          io.out += t;
        },
        err: (t) => {
          io.err += t;
        },
        setExitCode: (c) => {
          io.code = c;
        },
      },
    );
    return { options, ...io };
  };

  it('gives the options to run with, and prints nothing', () => {
    expect(run([])).toEqual({ options: { n: 2, help: false }, out: '', err: '', code: undefined });
    expect(run(['--n=9']).options).toEqual({ n: 9, help: false });
  });

  it('prints the usage for --help, and the error and the usage with exit code 2 for a bad option', () => {
    expect(run(['-h'])).toEqual({ options: undefined, out: 'USAGE\n', err: '', code: undefined });
    expect(run(['--n', '10'])).toEqual({
      options: undefined,
      out: '',
      err: '--n must be a whole number 1-9, got "10"\n\nUSAGE\n',
      code: 2,
    });
  });
});
