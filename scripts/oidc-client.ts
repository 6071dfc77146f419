/**
 * `npm run oidc:client`: a stand-in training platform signing people in through this checkout's OpenID Provider
 * (docs/operations.md, "Connect the training platform"). Start the checkout with the same client first:
 *
 *   OIDC_CLIENT_ID=training-platform OIDC_CLIENT_SECRET=<32+ characters> \
 *     OIDC_REDIRECT_URIS=http://localhost:5175/callback npm start
 *   OIDC_CLIENT_ID=training-platform OIDC_CLIENT_SECRET=<the same> npm run oidc:client
 *
 * then open http://localhost:5175 and choose "Sign in". The verified id token's claims are printed here and shown
 * on the page. OIDC_ISSUER (default http://localhost:3000) and PLATFORM_PORT (default 5175) change the addresses.
 */
import { startStandInPlatform } from './support/standInPlatform';

const clientId = process.env.OIDC_CLIENT_ID;
const clientSecret = process.env.OIDC_CLIENT_SECRET;
if (!clientId || !clientSecret) {
  console.error('Set OIDC_CLIENT_ID and OIDC_CLIENT_SECRET as the checkout has them.');
  process.exit(1);
}
const platform = await startStandInPlatform({
  issuer: process.env.OIDC_ISSUER ?? 'http://localhost:3000',
  clientId,
  clientSecret,
  port: Number(process.env.PLATFORM_PORT ?? 5175),
  onSignedIn: (claims) => console.log('Signed in; the id token verified. Its claims:\n', JSON.stringify(claims, null, 2)),
});
console.log(`Stand-in training platform on ${platform.url} (redirect URI ${platform.url}/callback). Open it and choose "Sign in".`);
