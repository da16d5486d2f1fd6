import { describe, expect, it } from 'vitest';
import { clientAddress, normalizeAddress } from './client-address.js';

describe('clientAddress', () => {
  it('is the remote address when the gateway trusts no proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress('127.0.0.1', '', 0)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '203.0.113.7', 0)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '203.0.113.7, 198.51.100.9', 0)).toBe('127.0.0.1');
  });

  it('behind trusted proxies, is the entry the outermost trusted proxy wrote, not what the client wrote', () => {
    // One proxy that overwrites the header: one entry.
    expect(clientAddress('10.0.0.5', '203.0.113.7', 1)).toBe('203.0.113.7');
    // One proxy that appends: the client's own entries on the left count for nothing.
    expect(clientAddress('10.0.0.5', '1.2.3.4, 203.0.113.7', 1)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.5', 'spoofed,1.2.3.4 ,  203.0.113.7', 1)).toBe('203.0.113.7');
    // Two proxies (CDN, then ingress): the CDN appended the client, the ingress the CDN.
    expect(clientAddress('10.0.0.5', '1.2.3.4, 203.0.113.7, 198.51.100.1', 2)).toBe('203.0.113.7');
    // Fewer entries than hops: every entry is a trusted proxy's, the leftmost is the client.
    expect(clientAddress('10.0.0.5', '203.0.113.7', 3)).toBe('203.0.113.7');
  });

  it('falls back to the remote address when the header is missing or the entry is not an address', () => {
    expect(clientAddress('10.0.0.5', '', 1)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', '   ', 1)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', '203.0.113.7, unknown', 1)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', 'x'.repeat(500), 1)).toBe('10.0.0.5');
  });

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4, in every notation', () => {
    expect(clientAddress('10.0.0.5', '2001:db8:1:2:aaaa::1', 1)).toBe('2001:db8:1:2::/64');
    expect(clientAddress('10.0.0.5', '[2001:db8:1:2:ffff:ffff:ffff:ffff]:443', 1)).toBe('2001:db8:1:2::/64');
    expect(clientAddress('0000:0000:0000:0000:0000:ffff:7f00:0001', '', 0)).toBe('127.0.0.1');
    expect(clientAddress('::ffff:192.0.2.1', '', 0)).toBe('192.0.2.1');
    expect(clientAddress('0000:0000:0000:0000:0000:0000:0000:0001', '', 0)).toBe('0:0:0:0::/64');
  });
});

describe('normalizeAddress', () => {
  it('reads the forms proxies write and refuses the rest', () => {
    expect(normalizeAddress(' 198.51.100.9 ')).toBe('198.51.100.9');
    expect(normalizeAddress('198.51.100.9:51234')).toBe('198.51.100.9');
    expect(normalizeAddress('[::1]')).toBe('0:0:0:0::/64');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(normalizeAddress('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
    for (const bad of ['', 'unknown', '999.1.1.1', '[::1', '1.2.3', 'example.org', '::ffff:1.2.3.4.5'])
      expect(normalizeAddress(bad), bad).toBeUndefined();
  });
});
