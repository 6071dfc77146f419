/**
 * The success site, where the buyer signs the training agreement (spec §2, §7): its address follows the same
 * local/production host rule as the API, and the buyer arrives at its root with `?token=`.
 */
import { pickBaseAddress } from '../domain/baseAddress';
import { loadPublicConfig } from './publicConfig';

/** The URL to send the buyer to: `{success site}/?token={token}` for the page's `hostname`. */
function successSiteUrl(base: string, token: string): string {
  return `${base}/?token=${encodeURIComponent(token)}`;
}

/** Reads the success-site addresses from the page's one GET /api/config and builds the hand-off URL for this page. */
export async function resolveSuccessSiteUrl(
  token: string,
  hostname: string = globalThis.location?.hostname ?? 'localhost',
): Promise<string> {
  const config = await loadPublicConfig();
  return successSiteUrl(pickBaseAddress(hostname, config.successSite), token);
}
