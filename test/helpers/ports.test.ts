import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';

describe('freePort', () => {
  it('names a loopback port that a server can listen on right after', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65_536);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    expect((server.address() as { port: number }).port).toBe(port);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('does not name a port that is taken', async () => {
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const taken = (held.address() as { port: number }).port;
    try {
      for (let i = 0; i < 5; i++) expect(await freePort()).not.toBe(taken);
    } finally {
      await new Promise<void>((resolve) => held.close(() => resolve()));
    }
  });
});
