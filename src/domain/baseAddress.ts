/**
 * The base-address rule of spec §7: local hosts talk to the local address, everything else to production.
 * Pure; used for the API and for the success site, by the page and by the server (the manage page's agreement link).
 */

/**
 * True for the hosts spec §7 calls local: localhost, 127.0.0.1 (and ::1), 192.168.*, 10.*, and *.local.
 * `hostname` is a URL's hostname (no port).
 */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host === '127.0.0.1' ||
    host === '::1' ||
    host.startsWith('192.168.') ||
    host.startsWith('10.') ||
    host.endsWith('.local')
  );
}

interface AddressPair {
  /** Used when the page's host is local. */
  local: string;
  /** Used otherwise. */
  production: string;
}

/** Picks the local or production address for `hostname`; trailing slashes are dropped. */
export function pickBaseAddress(hostname: string, addresses: AddressPair): string {
  const address = isLocalHostname(hostname) ? addresses.local : addresses.production;
  return address.replace(/\/+$/, '');
}
