/**
 * Security headers (@fastify/helmet) with a Content-Security-Policy for the SPA: our own scripts plus Stripe.js
 * (scripts and frames from js.stripe.com, 3-D Secure frames from hooks.stripe.com, calls to api.stripe.com),
 * inline styles for styled-components, data: images. `upgrade-insecure-requests` only when the public address
 * is https, so a plain-http local run (http://127.0.0.1) keeps loading its own assets.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Registers helmet on `app` for every response; `publicUrl` is PUBLIC_URL when set. */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
        frameSrc: ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
        connectSrc: ["'self'", 'https://api.stripe.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: publicUrl?.startsWith('https://') ? [] : null,
      },
    },
  });
}
