/**
 * The environment, read once at start and validated by one schema; a bad value stops the process naming the
 * variable. `.env.example` says what each variable does.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseCredentialsKey } from './security/credentialsCipher';
import { parseJwks } from './security/jwks';
import { DEFAULT_MAX_SEATS } from '../src/domain/pricing';
import { DEFAULT_TAX_REGISTRATIONS, type TaxRegistration } from '../src/domain/tax';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const absoluteUrl = z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' });

const integerInRange = (min: number, max: number, fallback: number) =>
  optionalText.pipe(
    z.coerce
      .number<string | undefined>({ message: 'must be a whole number' })
      .int('must be a whole number')
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`)
      .default(fallback),
  );

const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  optionalText.pipe(z.enum(values, { message: `must be one of ${values.join(', ')}` }).default(fallback));

const withPrefix = (prefix: string) => optionalText.pipe(z.string().startsWith(prefix, `must start with "${prefix}"`).optional());

/** Null when a part is not a registered state with a rate up to 100 %, or repeats one. */
function parseTaxRegistrations(text: string): TaxRegistration[] | null {
  const registrations: TaxRegistration[] = [];
  for (const part of text.split(',').map((piece) => piece.trim())) {
    const match = /^(HI|AZ)=(\d{1,7})$/.exec(part);
    const rateMillionths = Number(match?.[2]);
    if (!match || rateMillionths > 1_000_000 || registrations.some(({ state }) => state === match[1])) return null;
    registrations.push({ state: match[1] as TaxRegistration['state'], rateMillionths });
  }
  return registrations;
}

/** What Fastify's trustProxy accepts. */
function isAddressOrRange(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/');
  if (!address || rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

const envSchema = z
  .object({
    PORT: integerInRange(0, 65_535, 3000),
    HOST: optionalText.pipe(z.string().default('0.0.0.0')),
    DATA_DIR: optionalText.pipe(z.string().default('./data')),
    DATABASE_URL: optionalText.pipe(
      z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// or postgresql:// URL' }).optional(),
    ),
    PUBLIC_URL: optionalText.pipe(absoluteUrl.optional()),
    MAX_SEATS: integerInRange(1, 10_000, DEFAULT_MAX_SEATS),
    HANDOFF_API_KEY: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    HANDOFF_TTL_MINUTES: integerInRange(1, 7 * 24 * 60, 30),
    /** Required with DATABASE_URL; generated into DATA_DIR for the embedded database (server/security/credentialsKey.ts). */
    CREDENTIALS_KEY: optionalText.pipe(
      z
        .string()
        .transform((value, ctx) => {
          const key = parseCredentialsKey(value);
          if (!key) ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hex digits or base64' });
          return key ?? z.NEVER;
        })
        .optional(),
    ),
    /** Seconds, headers and body; slower requests are answered 408. */
    REQUEST_TIMEOUT_SECONDS: integerInRange(1, 600, 30),
    /** Days. */
    RETENTION_DAYS: integerInRange(1, 3650, 30),
    /** Off unless asked for: it moves the billing clock of every sandbox order. */
    SANDBOX_CLOCK: oneOf(['0', '1'], '0').transform((value) => value === '1'),
    /** Millionths of the amount (docs/decisions/0070); with Stripe the registrations are the owner's, in its Dashboard. */
    SANDBOX_TAX_RATES: optionalText.pipe(
      z
        .string()
        .default(DEFAULT_TAX_REGISTRATIONS.map(({ state, rateMillionths }) => `${state}=${rateMillionths}`).join(','))
        .transform((value, ctx): TaxRegistration[] => {
          const registrations = parseTaxRegistrations(value);
          if (!registrations) {
            ctx.addIssue({ code: 'custom', message: 'must be STATE=millionths pairs, comma-separated, of HI and AZ (e.g. HI=47120,AZ=0)' });
          }
          return registrations ?? z.NEVER;
        }),
    ),
    /** Seconds. */
    RECONCILE_INTERVAL_SECONDS: integerInRange(10, 24 * 60 * 60, 300),
    /** Days; first touch wins within the window. */
    REFERRAL_WINDOW_DAYS: integerInRange(1, 3650, 60),
    DEFAULT_REFERRER_SLUG: optionalText.pipe(z.string().default('sample')),
    /** Days. */
    FUNNEL_RETENTION_DAYS: integerInRange(1, 3650, 400),
    /** Hours. */
    OWNER_SESSION_HOURS: integerInRange(1, 24 * 30, 12),
    /** Hours. */
    OWNER_SESSION_MAX_HOURS: integerInRange(1, 24 * 90, 24),
    /** Per 15 minutes. */
    SIGN_INS_PER_15_MINUTES: integerInRange(1, 1_000_000, 10),
    /** Per owner email per 15 minutes: past it even the right password is refused until the window ends. */
    OWNER_SIGN_IN_FAILURES_PER_15_MINUTES: integerInRange(1, 1_000_000, 10),
    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' }).optional()),
    MAIL_FROM: optionalText.pipe(z.string().default('Chiro AI Academy <no-reply@localhost>')),
    SUCCESS_SITE_WEBHOOK_URL: optionalText.pipe(absoluteUrl.optional()),
    SUCCESS_SITE_WEBHOOK_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** Seconds. */
    OUTBOX_INTERVAL_SECONDS: integerInRange(1, 3600, 5),
    /** Minutes. */
    ACCOUNT_LINK_MINUTES: integerInRange(1, 24 * 60, 15),
    /** Days. */
    CONFIRMATION_LINK_DAYS: integerInRange(1, 90, 7),
    /** Per 15 minutes. */
    ACCOUNT_LINKS_PER_15_MINUTES: integerInRange(1, 1_000_000, 5),
    /** Hours. */
    ACCOUNT_SESSION_MAX_HOURS: integerInRange(1, 24 * 30, 12),
    TRAINING_PLATFORM_URL: optionalText.pipe(absoluteUrl.optional()),
    SUCCESS_SITE_URL: optionalText.pipe(absoluteUrl.default('https://agreement.example.com')),
    SUCCESS_SITE_LOCAL_URL: optionalText.pipe(absoluteUrl.default('http://localhost:5174')),
    RATE_LIMIT_PER_MINUTE: integerInRange(1, 1_000_000, 300),
    /** Per hour; bounds card testing. */
    CHECKOUTS_PER_HOUR: integerInRange(1, 1_000_000, 30),
    /** Per minute. */
    CONFIRMATIONS_PER_MINUTE: integerInRange(1, 1_000_000, 10),
    /** Per hour, before each further confirmation needs a proof-of-work (bounds card testing). */
    DECLINES_BEFORE_CHALLENGE: integerInRange(1, 1_000_000, 3),
    /** Never 'true': that believes whatever address the client writes first, past the rate limits. */
    TRUST_PROXY: optionalText.pipe(
      z
        .string()
        .default('false')
        .transform((value, ctx): false | number | string[] => {
          if (value === 'false') return false;
          if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
          const addresses = value
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean);
          if (value !== 'true' && addresses.length > 0 && addresses.every((address) => isAddressOrRange(address))) return addresses;
          ctx.addIssue({
            code: 'custom',
            message:
              "must be false, the number of proxies in front (1-10), or their addresses or CIDR ranges; 'true' would trust any client-written address",
          });
          return z.NEVER;
        }),
    ),
    REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/, message: 'must be a redis:// or rediss:// URL' }).optional()),
    REDIS_KEY_PREFIX: optionalText.pipe(z.string().max(64).default('checkout:')),
    LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    /** OIDC is off while OIDC_CLIENT_ID is unset (server/signIn/oidcProvider.ts). */
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    OIDC_REDIRECT_URIS: optionalText.pipe(
      z
        .string()
        .transform((value, ctx) => {
          const uris = value
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean);
          if (uris.length > 0 && uris.every((uri) => absoluteUrl.safeParse(uri).success && !uri.includes('#'))) return uris;
          ctx.addIssue({ code: 'custom', message: 'must be absolute http(s) URLs without a fragment, comma-separated' });
          return z.NEVER;
        })
        .optional(),
    ),
    /** Required with DATABASE_URL when OIDC is on; generated into DATA_DIR for the embedded database. */
    OIDC_JWKS: optionalText.pipe(
      z
        .string()
        .transform((value, ctx) => {
          const keys = parseJwks(value);
          if (!keys) ctx.addIssue({ code: 'custom', message: 'must be a JSON Web Key Set ({"keys":[…]}) of private keys' });
          return keys ?? z.NEVER;
        })
        .optional(),
    ),
    /** Per email per 15 minutes, from any addresses: past it even the right password waits for the window. */
    SIGN_IN_FAILURES_PER_15_MINUTES: integerInRange(1, 1_000_000, 10),
    STRIPE_SECRET_KEY: withPrefix('sk_'),
    STRIPE_PUBLISHABLE_KEY: withPrefix('pk_'),
    STRIPE_WEBHOOK_SECRET: withPrefix('whsec_'),
    STRIPE_API_BASE: optionalText.pipe(absoluteUrl.optional()),
    STRIPE_PRICE_LOOKUP_KEY: optionalText.pipe(z.string().default('chiro_ai_training_monthly')),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_URL && !env.CREDENTIALS_KEY) {
      ctx.addIssue({ code: 'custom', path: ['CREDENTIALS_KEY'], message: 'is required when DATABASE_URL is set' });
    }
    if (env.OIDC_CLIENT_ID) {
      for (const name of ['OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URIS'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when OIDC_CLIENT_ID is set' });
      }
      if (env.DATABASE_URL && !env.OIDC_JWKS) {
        ctx.addIssue({ code: 'custom', path: ['OIDC_JWKS'], message: 'is required when DATABASE_URL and OIDC_CLIENT_ID are set' });
      }
    }
    if (env.SUCCESS_SITE_WEBHOOK_URL && !env.SUCCESS_SITE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SUCCESS_SITE_WEBHOOK_SECRET'], message: 'is required when SUCCESS_SITE_WEBHOOK_URL is set' });
    }
    if (!env.STRIPE_SECRET_KEY) return;
    for (const name of ['STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when STRIPE_SECRET_KEY is set' });
    }
  });

/** Ports, seats, minutes and limits are integers. */
export type Config = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** @throws ConfigError naming each variable with a bad value (e.g. "MAX_SEATS must be at least 1"). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
}

/** Stripe when its secret key is set, else the sandbox. */
export function paymentProviderName(config: Config): 'sandbox' | 'stripe' {
  return config.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox';
}
