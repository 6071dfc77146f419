/**
 * The server's configuration: the environment, read once at start and validated by one schema
 * (architecture.md, "Configuration"; style.md: no `?? ''` fallbacks). A bad value stops the process with a
 * message naming the variable. `.env.example` lists every variable with what it does.
 */
import { z } from 'zod';

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

const withPrefix = (prefix: string) =>
  optionalText.pipe(z.string().startsWith(prefix, `must start with "${prefix}"`).optional());

const envSchema = z
  .object({
    PORT: integerInRange(0, 65_535, 3000),
    HOST: optionalText.pipe(z.string().default('0.0.0.0')),
    /** PGlite data folder, used when DATABASE_URL is not set. 'memory://' keeps the data in memory. */
    DATA_DIR: optionalText.pipe(z.string().default('./data')),
    DATABASE_URL: optionalText.pipe(
      z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// or postgresql:// URL' }).optional(),
    ),
    PUBLIC_URL: optionalText.pipe(absoluteUrl.optional()),
    MAX_SEATS: integerInRange(1, 10_000, 100),
    HANDOFF_API_KEY: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    HANDOFF_TTL_MINUTES: integerInRange(1, 7 * 24 * 60, 30),
    SUCCESS_SITE_URL: optionalText.pipe(absoluteUrl.default('https://agreement.example.com')),
    SUCCESS_SITE_LOCAL_URL: optionalText.pipe(absoluteUrl.default('http://localhost:5174')),
    RATE_LIMIT_PER_MINUTE: integerInRange(1, 1_000_000, 300),
    /** Trust X-Forwarded-For from the load balancer in front (so the rate limit sees the buyer's address). */
    TRUST_PROXY: oneOf(['true', 'false'], 'false').transform((value) => value === 'true'),
    LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    STRIPE_SECRET_KEY: withPrefix('sk_'),
    STRIPE_PUBLISHABLE_KEY: withPrefix('pk_'),
    STRIPE_WEBHOOK_SECRET: withPrefix('whsec_'),
    STRIPE_API_BASE: optionalText.pipe(absoluteUrl.optional()),
    STRIPE_PRICE_LOOKUP_KEY: optionalText.pipe(z.string().default('chiro_ai_training_monthly')),
  })
  .superRefine((env, ctx) => {
    if (!env.STRIPE_SECRET_KEY) return;
    for (const name of ['STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when STRIPE_SECRET_KEY is set' });
    }
  });

/** The validated configuration. Ports, seats, minutes and limits are integers. */
export type Config = z.output<typeof envSchema>;

/** Raised when the environment is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the server's variables from `env`.
 * @throws ConfigError naming each variable with a bad value (e.g. "MAX_SEATS must be at least 1").
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
}

/** Which payment provider the configuration selects: Stripe when its secret key is set, else the sandbox. */
export function paymentProviderName(config: Config): 'sandbox' | 'stripe' {
  return config.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox';
}
