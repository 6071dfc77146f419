/**
 * Security headers (@fastify/helmet), minimal for the provider in use: a CSP of our scripts (the pages' one inline
 * loader by its SHA-256), inline styles for styled-components and the provider's hosts (Stripe docs, "Content
 * Security Policy"; none for the sandbox); `upgrade-insecure-requests` only behind https; never framed; the Payment
 * Request API only for the provider's frames.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PageHosts {
  script: readonly string[];
  frame: readonly string[];
  connect: readonly string[];
  payment: readonly string[];
}

const NO_HOSTS: PageHosts = { script: [], frame: [], connect: [], payment: [] };

function permissionsPolicy(hosts: PageHosts): string {
  const payment = `payment=(${hosts.payment.map((host) => `"${host}"`).join(' ')})`;
  return ['camera=()', 'microphone=()', 'geolocation=()', 'usb=()', 'accelerometer=()', 'gyroscope=()', 'magnetometer=()', payment].join(
    ', ',
  );
}

/**
 * The CSP sources of the prerendered pages' inline loader (scripts/prerender.ts); none without a build. JSON data
 * blocks are not scripts to the CSP.
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
  publicUrl: string | undefined;
  providerHosts: PageHosts | undefined;
  inlineScripts?: string[];
}

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
