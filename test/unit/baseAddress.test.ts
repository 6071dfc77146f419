import { describe, expect, it } from 'vitest';
import { isLocalHostname, pickBaseAddress } from '../../src/domain/baseAddress';

describe('isLocalHostname (spec §7)', () => {
  it.each(['localhost', '127.0.0.1', '[::1]', '192.168.1.20', '10.0.0.5', 'clinic-mac.local', 'LOCALHOST'])('%s is local', (host) =>
    expect(isLocalHostname(host)).toBe(true),
  );
  it.each(['checkout.example.com', '172.16.0.1', '11.0.0.1', 'localhost.example.com', 'local', '192.169.0.1'])('%s is not local', (host) =>
    expect(isLocalHostname(host)).toBe(false),
  );
});

describe('pickBaseAddress', () => {
  const addresses = { local: 'http://localhost:3000/', production: 'https://api.example.com' };
  it('picks by host and drops trailing slashes', () => {
    expect(pickBaseAddress('localhost', addresses)).toBe('http://localhost:3000');
    expect(pickBaseAddress('shop.example.com', addresses)).toBe('https://api.example.com');
  });
  it('keeps an empty address (same origin)', () => {
    expect(pickBaseAddress('localhost', { local: '', production: '' })).toBe('');
  });
});
