/**
 * Security headers (@fastify/helmet), minimal for the payment provider in use:
 * - Content-Security-Policy: our own scripts (and the built pages' one inline loader, allowed by its SHA-256:
 *   `inlineScriptHashes`), inline styles for styled-components, data: images, and the hosts the
 *   provider's browser library needs (PaymentProvider.pageHosts: Stripe.js's, Stripe docs "Content Security
 *   Policy"). The sandbox needs no outside host at all.
 *   `upgrade-insecure-requests` only when the public address is https, so a plain-http local run keeps loading
 *   its own assets.
 * - `X-Frame-Options: DENY`, matching `frame-ancestors 'none'`: the checkout is never framed.
 * - `Permissions-Policy`: no camera, microphone, geolocation, USB or sensors; the Payment Request API only for
 *   the provider's frames (Stripe's), for nobody in the sandbox.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Hosts the checkout page loads scripts and frames from, calls, and lets use the Payment Request API. */
export interface PageHosts {
  script: readonly string[];
  frame: readonly string[];
  connect: readonly string[];
  payment: readonly string[];
}

const NO_HOSTS: PageHosts = { script: [], frame: [], connect: [], payment: [] };

/** The Permissions-Policy value for the provider's `hosts`. */
function permissionsPolicy(hosts: PageHosts): string {
  const payment = `payment=(${hosts.payment.map((host) => `"${host}"`).join(' ')})`;
  return ['camera=()', 'microphone=()', 'geolocation=()', 'usb=()', 'accelerometer=()', 'gyroscope=()', 'magnetometer=()', payment].join(
    ', ',
  );
}

/**
 * The CSP sources (`'sha256-…'`, base64) of the inline scripts in the built, prerendered pages (`distDir`/index.html,
 * written by scripts/prerender.ts; every prerendered page carries the same): the loader that requests the entry
 * module after the first paint. None without a build. JSON data blocks (`<script type="application/json">`) are
 * not scripts to the CSP.
 */
export function inlineScriptHashes(distDir: string | undefined): string[] {
  const file = distDir ? join(distDir, 'index.html') : undefined;
  if (!file || !existsSync(file)) return [];
  return [...readFileSync(file, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
}

interface SecurityHeaderOptions {
  /** PUBLIC_URL when set. */
  publicUrl: string | undefined;
  /** What the payment provider's browser library loads and talks to; none for the sandbox. */
  providerHosts: PageHosts | undefined;
  /** CSP sources for the built pages' inline scripts (`inlineScriptHashes`). */
  inlineScripts?: string[];
}

/** Registers the headers on `app` for every response. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  { publicUrl, providerHosts, inlineScripts = [] }: SecurityHeaderOptions,
): Promise<void> {
  const hosts = providerHosts ?? NO_HOSTS;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScripts, ...hosts.script],
        frameSrc: hosts.frame.length > 0 ? ["'self'", ...hosts.frame] : ["'none'"],
        connectSrc: ["'self'", ...hosts.connect],
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
  const policy = permissionsPolicy(hosts);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Permissions-Policy', policy);
  });
}
