/**
 * A stand-in training platform: the OpenID Connect client side of our sign-in (decision 0033), on openid-client (panva), as a tiny
 * local HTTP server. `/` has a "Sign in" link; `/login` sends the browser to our authorization endpoint (code flow,
 * PKCE S256, a state; `?login_hint=` passed on); `/callback` exchanges the code, verifies the id token (signature against our JWKS) and shows
 * its claims (and hands them to `onSignedIn`). Used by `npm run oidc:client` (scripts/oidc-client.ts) and the
 * browser test (test/e2e/signIn.test.ts).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';

interface PlatformOptions {
  /** Our issuer (the checkout's public base address). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Port to listen on, on 127.0.0.1 (0: any free one). The redirect URI is http://localhost:{port}/callback. */
  port: number;
  /** Called with the verified id token's claims after each sign-in. */
  onSignedIn?: (claims: Record<string, unknown>) => void;
}

interface RunningPlatform {
  /** http://localhost:{port} */
  url: string;
  close(): Promise<void>;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Training platform</title></head><body><main>${body}</main></body></html>`,
  );
}

/** Starts the stand-in platform; discovers our provider first (so the checkout must be running). */
export async function startStandInPlatform({
  issuer,
  clientId,
  clientSecret,
  port,
  onSignedIn,
}: PlatformOptions): Promise<RunningPlatform> {
  const insecure = issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined;
  const config = await oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(clientSecret), insecure);
  const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
  /** The PKCE verifier of each sign-in in progress, by its state. */
  const pending = new Map<string, string>();
  let redirectUri = '';

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', redirectUri);
    void (async () => {
      if (url.pathname === '/') return page(response, 200, '<h1>Training platform</h1><p><a href="/login">Sign in</a></p>');
      if (url.pathname === '/login') {
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        pending.set(state, verifier);
        const hint = url.searchParams.get('login_hint');
        const authorization = oidc.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: 'openid email profile access',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          ...(hint ? { login_hint: hint } : {}),
        });
        response.writeHead(302, { location: authorization.href });
        return response.end();
      }
      if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? '';
        const verifier = pending.get(state);
        pending.delete(state);
        if (!verifier) return page(response, 400, '<h1>Unknown sign-in</h1><p><a href="/login">Sign in again</a></p>');
        try {
          const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: verifier, expectedState: state });
          // openid-client checks the id token's issuer, audience and times; its signature is checked here, against our JWKS.
          const { payload: claims } = await jwtVerify(tokens.id_token ?? '', jwks, { issuer, audience: clientId });
          onSignedIn?.(claims);
          return page(response, 200, `<h1>Signed in</h1><pre id="claims">${escape(JSON.stringify(claims, null, 2))}</pre>`);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return page(response, 401, `<h1>Not signed in</h1><p id="error">${escape(message)}</p><p><a href="/login">Sign in again</a></p>`);
        }
      }
      if (url.pathname === '/favicon.ico') {
        response.writeHead(204);
        return response.end();
      }
      return page(response, 404, '<h1>Not found</h1>');
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  redirectUri = `${url}/callback`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
