// Where a webhook may be sent (docs/api/webhooks.md "Targets"): a public address only. The URL is checked when an
// endpoint is registered (scheme, no credentials, no literal private address) and each attempt resolves the name
// itself and refuses a private, loopback or link-local answer, so the address checked is the address connected to
// (a name that resolves to a public address at registration and a private one later gains nothing).
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_URL_MAX } from '../../constants.ts';
import { AppError } from '../../errors.ts';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`), if it carries one. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

const isLoopback = (address: string, family: 4 | 6) =>
  family === 4 ? address.startsWith('127.') : address === '::1' || address === '0:0:0:0:0:0:0:1';

/**
 * Whether a webhook may connect to this IP address: a public unicast address, or a loopback one when
 * WEBHOOK_ALLOW_LOOPBACK allows it (tests).
 */
export function isAllowedTarget(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4 !== undefined) {
    if (allowLoopback && isLoopback(v4, 4)) return true;
    return !blocked.check(v4, 'ipv4');
  }
  if (allowLoopback && isLoopback(address, 6)) return true;
  return !blocked.check(address, 'ipv6');
}

const invalidUrl = (message: string) =>
  new AppError('VALIDATION_ERROR', `body.url ${message}`, { details: [{ path: 'body.url', message }] });

/**
 * The endpoint URL as registered, or 400 VALIDATION_ERROR: absolute http(s) (https only in production), no
 * user:password, no fragment, and a host that is a name or a public address. A name is checked at each attempt.
 */
export function checkWebhookUrl(raw: string, options: { production: boolean; allowLoopback: boolean }): string {
  if (raw.length > WEBHOOK_URL_MAX) throw invalidUrl(`must be at most ${WEBHOOK_URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('must be an absolute URL');
  }
  const schemes = options.production ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol)) {
    throw invalidUrl(`must use ${options.production ? 'https' : 'http or https'}`);
  }
  if (url.username !== '' || url.password !== '') throw invalidUrl('must not carry a user name or password');
  if (url.hash !== '') throw invalidUrl('must not have a fragment');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isAllowedTarget(host, options.allowLoopback)) {
    throw invalidUrl('must not point to a loopback, private, link-local or reserved address');
  }
  if (isIP(host) === 0 && /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i.test(host) && !options.allowLoopback) {
    throw invalidUrl('must name a public host');
  }
  return url.toString();
}
