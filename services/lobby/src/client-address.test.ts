import { describe, expect, it } from 'vitest';
import { AddressPolicy, parseAddressRange, UNKNOWN_ADDRESS } from './client-address.js';

describe('the client address', () => {
  it('is the socket peer unless the lobby is told to trust proxies', () => {
    const direct = new AddressPolicy(0, []);
    expect(direct.clientAddress('198.51.100.7', '203.0.113.1')).toBe('198.51.100.7');
    expect(direct.clientAddress('::ffff:198.51.100.7', undefined)).toBe('198.51.100.7');
    expect(direct.clientAddress(undefined, '203.0.113.1')).toBe(UNKNOWN_ADDRESS);
    expect(direct.clientAddress('not an address', undefined)).toBe(UNKNOWN_ADDRESS);
  });

  it('behind N proxies, is the entry the outermost trusted proxy wrote, not one the client made up', () => {
    const one = new AddressPolicy(1, []);
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the address it saw.
    expect(one.clientAddress('10.0.0.2', '1.2.3.4, 198.51.100.9')).toBe('198.51.100.9');
    expect(one.clientAddress('10.0.0.2', '198.51.100.9')).toBe('198.51.100.9');
    const two = new AddressPolicy(2, []);
    expect(two.clientAddress('10.0.0.3', '1.2.3.4, 198.51.100.9, 10.0.0.2')).toBe('198.51.100.9');
    // Fewer entries than proxies: the leftmost is the best there is.
    expect(two.clientAddress('10.0.0.3', '198.51.100.9')).toBe('198.51.100.9');
    // Garbage in the header: the socket's peer.
    expect(one.clientAddress('10.0.0.2', 'evil, <script>')).toBe('10.0.0.2');
    expect(one.clientAddress('10.0.0.2', undefined)).toBe('10.0.0.2');
  });

  it('counts IPv6 by its /64 and IPv4 by itself', () => {
    const p = new AddressPolicy(0, []);
    expect(p.limitKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(p.limitKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(p.limitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(p.limitKey('::1')).toBe('0:0:0:0::/64');
    expect(p.limitKey('64:ff9b::198.51.100.1')).toBe('64:ff9b:0:0::/64');
    expect(p.limitKey('198.51.100.7')).toBe('198.51.100.7');
    expect(p.limitKey(UNKNOWN_ADDRESS)).toBe(UNKNOWN_ADDRESS);
  });

  it('skips the exempt ranges only', () => {
    const p = new AddressPolicy(0, ['127.0.0.0/8', '::1', '10.1.0.0/16']);
    expect(p.isExempt('127.0.0.1')).toBe(true);
    expect(p.isExempt('127.255.0.9')).toBe(true);
    expect(p.isExempt('::1')).toBe(true);
    expect(p.isExempt('10.1.200.3')).toBe(true);
    expect(p.isExempt('10.2.0.1')).toBe(false);
    expect(p.isExempt('198.51.100.7')).toBe(false);
    expect(p.isExempt(UNKNOWN_ADDRESS)).toBe(false);
    expect(() => new AddressPolicy(0, ['localhost'])).toThrow(RangeError);
  });

  it('parses addresses and CIDR ranges', () => {
    expect(parseAddressRange('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseAddressRange('::1')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
    for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/x', '10.0.0/8', 'host', '1.2.3.4/8/9', '']) {
      expect(parseAddressRange(bad), bad).toBeNull();
    }
  });
});
