/**
 * The payment form's configuration statechart (src/machines/publicConfigMachine.ts) on its own: what its readers
 * (src/views/payment/PaymentForm.tsx, src/views/shared/WhereToSignIn.tsx) find before the answer, after it, and
 * after a failure. The words and the form itself are held by test/model/publicConfig.model.test.tsx.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { PublicConfig } from '../../src/contract/checkout';
import { publicConfigMachine } from '../../src/machines/publicConfigMachine';

const CONFIG = { paymentProvider: 'sandbox' } as PublicConfig;

function start(answer: () => Promise<PublicConfig>) {
  return createActor(publicConfigMachine.provide({ actors: { loadPublicConfig: fromPromise(answer) } })).start();
}

describe('the payment form configuration statechart', () => {
  it('holds no configuration and no error while the configuration is read', () => {
    const actor = start(() => new Promise<PublicConfig>(() => undefined));
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context).toStrictEqual({ config: null, error: null });
  });

  it('keeps the configuration it read, with no error', async () => {
    const actor = start(async () => CONFIG);
    const snapshot = await waitFor(actor, (each) => each.status === 'done');
    expect(snapshot.value).toBe('ready');
    expect(snapshot.context).toStrictEqual({ config: CONFIG, error: null });
  });

  it("keeps the client's words when the read failed, and no configuration", async () => {
    const actor = start(() => Promise.reject(new ApiError('Failed to load checkout configuration', 0)));
    const snapshot = await waitFor(actor, (each) => each.status === 'done');
    expect(snapshot.value).toBe('failed');
    expect(snapshot.context).toStrictEqual({ config: null, error: 'Failed to load checkout configuration' });
  });
});
