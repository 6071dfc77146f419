/**
 * Security headers (@fastify/helmet), minimal for the payment provider in use:
 * - Content-Security-Policy: our own scripts, inline styles for styled-components, data: images; with Stripe,
 *   also Stripe.js (scripts and frames from js.stripe.com, 3-D Secure frames from hooks.stripe.com, calls to
 *   api.stripe.com; Stripe docs, "Content Security Policy"). The sandbox needs no outside host at all.
 *   `upgrade-insecure-requests` only when the public address is https, so a plain-http local run keeps loading
 *   its own assets.
 * - `X-Frame-Options: DENY`, matching `frame-ancestors 'none'`: the checkout is never framed.
 * - `Permissions-Policy`: no camera, microphone, geolocation, USB or sensors; the Payment Request API only for
 *   Stripe's frames in Stripe mode, for nobody in the sandbox.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { ProviderName } from '../payments/provider';

/** Where Stripe.js loads from and talks to (Stripe docs, "Content Security Policy"). */
const STRIPE_HOSTS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
} as const;

/** The Permissions-Policy value for `provider`. */
function permissionsPolicy(provider: ProviderName): string {
  const payment = provider === 'stripe' ? 'payment=("https://js.stripe.com")' : 'payment=()';
  return ['camera=()', 'microphone=()', 'geolocation=()', 'usb=()', 'accelerometer=()', 'gyroscope=()', 'magnetometer=()', payment].join(', ');
}

interface SecurityHeaderOptions {
  /** PUBLIC_URL when set. */
  publicUrl: string | undefined;
  provider: ProviderName;
}

/** Registers the headers on `app` for every response. */
export async function registerSecurityHeaders(app: FastifyInstance, { publicUrl, provider }: SecurityHeaderOptions): Promise<void> {
  const stripe = provider === 'stripe';
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? STRIPE_HOSTS.script : [])],
        frameSrc: stripe ? ["'self'", ...STRIPE_HOSTS.frame] : ["'none'"],
        connectSrc: ["'self'", ...(stripe ? STRIPE_HOSTS.connect : [])],
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
    frameguard: { action: 'deny' },
  });
  const policy = permissionsPolicy(provider);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Permissions-Policy', policy);
  });
}
