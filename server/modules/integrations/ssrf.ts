import { lookup } from 'node:dns/promises';
import net from 'node:net';

/** Loopback, private, link-local, unique-local, CGNAT and other non-public ranges. */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  const v6 = ip.toLowerCase();
  if (v6 === '::' || v6 === '::1') return true;
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses
  // reach the IPv4 address inside them; URL parsing writes it in hex ([::ffff:7f00:1]).
  const embedded = /^(?:::ffff:|::|64:ff9b::)(.+)$/.exec(v6)?.[1];
  if (embedded !== undefined) {
    if (net.isIPv4(embedded)) return isPrivateAddress(embedded);
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(embedded);
    if (hex) {
      const [hi, lo] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
      return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
  }
  return (
    v6.startsWith('fc') ||
    v6.startsWith('fd') ||
    v6.startsWith('fe8') ||
    v6.startsWith('fe9') ||
    v6.startsWith('fea') ||
    v6.startsWith('feb') ||
    v6.startsWith('ff')
  );
}

/**
 * Refuses callback (and decision) URLs that resolve to loopback, private or link-local addresses, unless the
 * server runs in development or test (where receivers live on this machine). Checked when the URL
 * is saved and again at each delivery, so a DNS change cannot smuggle one in later.
 */
export async function callbackUrlProblem(raw: string, env: string, what = 'The callback URL'): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full URL such as https://example.com/webhooks';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${what} must use https`;
  if (env === 'production' && url.protocol !== 'https:') return `${what} must use https`;
  if (url.username || url.password) return `${what} must not contain credentials`;
  if (env === 'development' || env === 'test') return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `${what}'s host name does not resolve`;
  }
  if (!addresses.length || addresses.some(isPrivateAddress)) return `${what} must point at a public address`;
  return null;
}
