import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, paymentProviderName } from '../../server/config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig', () => {
  it('runs offline with defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      MAX_SEATS: 100,
      HANDOFF_TTL_MINUTES: 30,
      SUCCESS_SITE_URL: 'https://agreement.example.com',
      SUCCESS_SITE_LOCAL_URL: 'http://localhost:5174',
      RATE_LIMIT_PER_MINUTE: 300,
      LOG_LEVEL: 'info',
      STRIPE_PRICE_LOOKUP_KEY: 'chiro_ai_training_monthly',
      TRUST_PROXY: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.HANDOFF_API_KEY).toBeUndefined();
    expect(paymentProviderName(config)).toBe('sandbox');
  });

  it('reads good values, numbers as integers, and treats empty values as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      MAX_SEATS: '25',
      DATABASE_URL: 'postgres://app@db:5432/checkout',
      CREDENTIALS_KEY: 'ab'.repeat(32),
      PUBLIC_URL: 'https://checkout.example.com',
      HANDOFF_API_KEY: 'x'.repeat(32),
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_123',
      STRIPE_API_BASE: 'http://localhost:12111',
      TRUST_PROXY: '1',
      HOST: '',
    });
    expect(config.PORT).toBe(8080);
    expect(config.MAX_SEATS).toBe(25);
    expect(config.HOST).toBe('0.0.0.0');
    expect(config.TRUST_PROXY).toBe(1);
    expect(config.CREDENTIALS_KEY).toEqual(Buffer.alloc(32, 0xab));
    expect(paymentProviderName(config)).toBe('stripe');
  });

  it("reads SANDBOX_TAX_RATES as the owner's registrations in millionths; Hawaii 4.712 % and Arizona 0 by default", () => {
    expect(loadConfig({}).SANDBOX_TAX_RATES).toEqual([
      { state: 'HI', rateMillionths: 47_120 },
      { state: 'AZ', rateMillionths: 0 },
    ]);
    expect(loadConfig({ SANDBOX_TAX_RATES: 'HI=45000' }).SANDBOX_TAX_RATES).toEqual([{ state: 'HI', rateMillionths: 45_000 }]);
    for (const bad of ['HI=4.5', 'CA=1000', 'HI=1,HI=2', 'HI=2000000', 'HI']) {
      expect(() => loadConfig({ SANDBOX_TAX_RATES: bad }), bad).toThrow(/SANDBOX_TAX_RATES/);
    }
  });

  it('reads TRUST_PROXY as false, a hop count, or proxy addresses and ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1' }).TRUST_PROXY).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
  });

  it('reads CREDENTIALS_KEY as 64 hex digits or 32 bytes of base64', () => {
    const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7));
    expect(loadConfig({ CREDENTIALS_KEY: key.toString('hex') }).CREDENTIALS_KEY).toEqual(key);
    expect(loadConfig({ CREDENTIALS_KEY: key.toString('base64') }).CREDENTIALS_KEY).toEqual(key);
    expect(loadConfig({ CREDENTIALS_KEY: key.toString('base64url') }).CREDENTIALS_KEY).toEqual(key);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number'],
    [{ PORT: '70000' }, 'PORT must be at most 65535'],
    [{ MAX_SEATS: '0' }, 'MAX_SEATS must be at least 1'],
    [{ MAX_SEATS: '2.5' }, 'MAX_SEATS must be a whole number'],
    [{ HANDOFF_TTL_MINUTES: '-5' }, 'HANDOFF_TTL_MINUTES must be at least 1'],
    [{ RATE_LIMIT_PER_MINUTE: 'lots' }, 'RATE_LIMIT_PER_MINUTE must be a whole number'],
    [{ DATABASE_URL: 'mysql://db/checkout' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ PUBLIC_URL: 'checkout.example.com' }, 'PUBLIC_URL must be an absolute http(s) URL'],
    [{ SUCCESS_SITE_URL: 'not a url' }, 'SUCCESS_SITE_URL must be an absolute http(s) URL'],
    [{ TRAINING_PLATFORM_URL: 'academy.example.com' }, 'TRAINING_PLATFORM_URL must be an absolute http(s) URL'],
    [{ HANDOFF_API_KEY: 'short' }, 'HANDOFF_API_KEY must be at least 32 characters'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY must be false, the number of proxies'],
    [{ TRUST_PROXY: 'true' }, "'true' would trust any client-written address"],
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY must be false'],
    [{ TRUST_PROXY: '10.0.0.1, 10.0.0.0/33' }, 'TRUST_PROXY must be false'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [
      { STRIPE_SECRET_KEY: 'pk_live_1', STRIPE_PUBLISHABLE_KEY: 'pk_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' },
      'STRIPE_SECRET_KEY must start with "sk_"',
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_1', STRIPE_PUBLISHABLE_KEY: 'sk_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' },
      'STRIPE_PUBLISHABLE_KEY must start with "pk_"',
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_1', STRIPE_PUBLISHABLE_KEY: 'pk_1', STRIPE_WEBHOOK_SECRET: 'wh_1' },
      'STRIPE_WEBHOOK_SECRET must start with "whsec_"',
    ],
    [{ STRIPE_SECRET_KEY: 'sk_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'STRIPE_PUBLISHABLE_KEY is required when STRIPE_SECRET_KEY is set'],
    [{ STRIPE_SECRET_KEY: 'sk_1', STRIPE_PUBLISHABLE_KEY: 'pk_1' }, 'STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set'],
    [{ STRIPE_API_BASE: 'localhost:12111' }, 'STRIPE_API_BASE must be an absolute http(s) URL'],
    [{ DATABASE_URL: 'postgres://db/checkout' }, 'CREDENTIALS_KEY is required when DATABASE_URL is set'],
    [{ CREDENTIALS_KEY: 'ab'.repeat(31) }, 'CREDENTIALS_KEY must be 32 bytes as 64 hex digits or base64'],
    [{ CREDENTIALS_KEY: 'not a key' }, 'CREDENTIALS_KEY must be 32 bytes'],
    [{ RECONCILE_INTERVAL_SECONDS: '1' }, 'RECONCILE_INTERVAL_SECONDS must be at least 10'],
    [{ OIDC_CLIENT_ID: 'platform' }, 'OIDC_CLIENT_SECRET is required when OIDC_CLIENT_ID is set'],
    [{ OIDC_CLIENT_ID: 'platform', OIDC_CLIENT_SECRET: 's'.repeat(32) }, 'OIDC_REDIRECT_URIS is required when OIDC_CLIENT_ID is set'],
    [{ OIDC_CLIENT_SECRET: 'short' }, 'OIDC_CLIENT_SECRET must be at least 32 characters'],
    [{ OIDC_REDIRECT_URIS: 'https://a.example/cb, /relative' }, 'OIDC_REDIRECT_URIS must be absolute http(s) URLs'],
    [{ OIDC_JWKS: '{"keys":[{"kty":"RSA","n":"x","e":"AQAB"}]}' }, 'OIDC_JWKS must be a JSON Web Key Set'],
    [
      {
        DATABASE_URL: 'postgres://db/checkout',
        CREDENTIALS_KEY: 'ab'.repeat(32),
        OIDC_CLIENT_ID: 'platform',
        OIDC_CLIENT_SECRET: 's'.repeat(32),
        OIDC_REDIRECT_URIS: 'https://a.example/cb',
      },
      'OIDC_JWKS is required when DATABASE_URL and OIDC_CLIENT_ID are set',
    ],
  ])('refuses %j, naming the variable', (env, expected) => {
    expect(problemsOf(env).join('\n')).toContain(expected);
  });

  it('reads the training platform’s client: redirect URIs as a list, the signing keys as a private JWK Set', () => {
    const config = loadConfig({
      OIDC_CLIENT_ID: 'platform',
      OIDC_CLIENT_SECRET: 's'.repeat(32),
      OIDC_REDIRECT_URIS: 'https://a.example/cb , http://localhost:5175/callback',
      OIDC_JWKS: '{"keys":[{"kty":"RSA","n":"x","e":"AQAB","d":"y"}]}',
    });
    expect(config.OIDC_REDIRECT_URIS).toEqual(['https://a.example/cb', 'http://localhost:5175/callback']);
    expect(config.OIDC_JWKS?.keys[0]).toMatchObject({ kty: 'RSA', d: 'y' });
  });

  it('lists every bad variable at once in its message', () => {
    expect(() => loadConfig({ PORT: 'x', MAX_SEATS: '0' })).toThrow(/PORT must be a whole number[\s\S]*MAX_SEATS/);
  });
});
