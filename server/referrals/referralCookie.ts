/**
 * The referral cookie (docs/decisions/0017): `referral=<slug>.<first touch, Unix s>`, signed, httpOnly, SameSite=Lax.
 * The server checks the time itself, so a cookie kept past its Max-Age attributes nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'referral';
const DAY_SECONDS = 24 * 60 * 60;

interface Referral {
  slug: string;
  touchedAt: Date;
}

/** Undefined when none, forged or expired. */
export function readReferral(request: FastifyRequest, windowDays: number, now = Date.now()): Referral | undefined {
  const raw = request.cookies[COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  const match = /^([a-z0-9-]{1,64})\.(\d{1,12})$/.exec(unsigned.value);
  if (!match) return undefined;
  const touchedAtSeconds = Number(match[2]);
  if (now / 1000 - touchedAtSeconds > windowDays * DAY_SECONDS) return undefined;
  return { slug: match[1]!, touchedAt: new Date(touchedAtSeconds * 1000) };
}

export function writeReferral(reply: FastifyReply, slug: string, windowDays: number, secure: boolean, now = Date.now()): void {
  reply.setCookie(COOKIE, `${slug}.${Math.floor(now / 1000)}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: windowDays * DAY_SECONDS,
  });
}
