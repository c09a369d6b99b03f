// Where a webhook may go (src/domain/webhooks/targets.ts, send.ts): public addresses only, checked on the URL at
// registration and on the address each attempt resolves and connects to; loopback only with WEBHOOK_ALLOW_LOOPBACK,
// which production refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { sendWebhook } from '../../../src/domain/webhooks/send.ts';
import { signWebhook, webhookHeaders } from '../../../src/domain/webhooks/signing.ts';
import { checkWebhookUrl, isAllowedTarget } from '../../../src/domain/webhooks/targets.ts';
import { type Receiver, startReceiver, verifyStandardWebhook } from '../../helpers/webhook-receiver.ts';

describe('isAllowedTarget', () => {
  it.each([
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.0.10', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::a00:1', false],
    ['2606:4700:4700::1111', true],
    ['not an address', false],
  ])('%s: %s', (address, allowed) => {
    expect(isAllowedTarget(address, false)).toBe(allowed);
  });

  it('allows loopback, and loopback only, when the flag says so', () => {
    expect(isAllowedTarget('127.0.0.1', true)).toBe(true);
    expect(isAllowedTarget('::1', true)).toBe(true);
    expect(isAllowedTarget('::ffff:127.0.0.1', true)).toBe(true);
    expect(isAllowedTarget('10.0.0.1', true)).toBe(false);
    expect(isAllowedTarget('169.254.169.254', true)).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  const dev = { production: false, allowLoopback: false };
  it('takes http(s) URLs of public hosts; production takes https only', () => {
    expect(checkWebhookUrl('https://hooks.example.com/a?b=1', dev)).toBe('https://hooks.example.com/a?b=1');
    expect(checkWebhookUrl('http://hooks.example.com/', dev)).toBe('http://hooks.example.com/');
    expect(() => checkWebhookUrl('http://hooks.example.com/', { ...dev, production: true })).toThrow(/https/);
    expect(() => checkWebhookUrl('http://localhost:8080/', dev)).toThrow(/public host/);
    expect(() => checkWebhookUrl('http://127.0.0.1:8080/', dev)).toThrow(/loopback/);
    expect(checkWebhookUrl('http://127.0.0.1:8080/', { ...dev, allowLoopback: true })).toBe('http://127.0.0.1:8080/');
    expect(() => checkWebhookUrl('https://a.example.com/#frag', dev)).toThrow(/fragment/);
  });
});

describe('WEBHOOK_ALLOW_LOOPBACK', () => {
  it('is refused in production, and takes only true or false', () => {
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhookAllowLoopback).toBe(true);
    expect(loadConfig({}).webhookAllowLoopback).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true', NODE_ENV: 'production' })).toThrow(/production/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow(/true" or "false/);
  });
});

describe('sendWebhook', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  const body = '{"id":"7"}';
  const headers = () => webhookHeaders(['whsec_c2VjcmV0'], '7', 1_700_000_000, body);

  it('refuses a loopback address literal, and a name that resolves to loopback, without connecting', async () => {
    receiver.received.length = 0;
    for (const url of [
      receiver.url,
      `http://localhost:${receiver.port}/hooks`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
    ]) {
      const result = await sendWebhook(url, headers(), body, { timeoutMs: 1000, allowLoopback: false });
      expect(result.statusCode, url).toBeNull();
      expect(result.error, url).toMatch(/loopback, private, link-local or reserved/);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('sends to loopback when allowed, resolving the name itself, with a Standard Webhooks signature', async () => {
    receiver.received.length = 0;
    receiver.secret = 'whsec_c2VjcmV0';
    const result = await sendWebhook(`http://localhost:${receiver.port}/hooks`, headers(), body, {
      timeoutMs: 1000,
      allowLoopback: true,
    });
    expect(result).toMatchObject({ statusCode: 200, error: null, response: '{"received":true}' });
    expect(receiver.received[0]!.verified).toBe(true);
    expect(receiver.received[0]!.headers['webhook-signature']).toBe(
      signWebhook('whsec_c2VjcmV0', '7', 1_700_000_000, body),
    );
    // The signature changes with the body: a tampered body does not verify.
    expect(verifyStandardWebhook('whsec_c2VjcmV0', receiver.received[0]!.headers, '{"id":"8"}')).toBe(false);
  });
});
