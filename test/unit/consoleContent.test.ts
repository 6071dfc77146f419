/**
 * The console's content and referrer rules: a referrer's name without a leading "Dr." and the link
 * suggested from it; the Content screen's statechart (load, a half-filled row refused by its fields, empty rows not
 * saved, the save, a failure and an ended session); the links of a held mail.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { OfferContentBody } from '../../src/contract/admin';
import { DEFAULT_OFFER_CONTENT, type OfferContent } from '../../src/domain/offerContent';
import { referrerDisplayName, slugFromName } from '../../src/domain/referrerNames';
import { bodyOf, contentErrors, draftOf, offerContentMachine } from '../../src/machines/offerContentMachine';
import { referrerFormErrors } from '../../src/machines/referrerFormMachine';
import { mailLinkHref } from '../../src/views/admin/mailText';
import { REFERRER_FORM } from '../model/pageRules';

describe("a referrer's name and link", () => {
  it.each([
    ['Dr. Mark Lee', 'Mark Lee'],
    ['dr mark lee', 'mark lee'],
    ['DR.Mark Lee', 'Mark Lee'],
    ['  Dr.   Dr. Mark   Lee ', 'Mark Lee'],
    ['Drew Lee', 'Drew Lee'],
    ['Dre', 'Dre'],
    ['Mark Lee', 'Mark Lee'],
    ['Dr.', ''],
    ['Dr', ''],
  ])('%j is stored as %j', (typed, stored) => {
    expect(referrerDisplayName(typed)).toBe(stored);
  });

  it.each([
    ['Dr. Mark Lee', 'mark-lee'],
    ['Dr. José Núñez-Ortiz', 'jose-nunez-ortiz'],
    ["Mary O'Brien III", 'mary-o-brien-iii'],
    ['   ', ''],
    ['Dr. ' + 'a'.repeat(50), 'a'.repeat(40)],
    ['Ann ' + 'b'.repeat(35) + ' Cole', `ann-${'b'.repeat(35)}`],
  ])('%j suggests the link %j', (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });

  it('refuses an add form by its fields before sending it', () => {
    expect(referrerFormErrors({ slug: 'Bad Link', displayName: 'Dr. ', shortLabel: ' ', quote: '' })).toEqual({
      slug: expect.stringContaining('lower-case'),
      displayName: expect.stringContaining("after 'Dr.'"),
      shortLabel: expect.any(String),
      quote: expect.any(String),
    });
    expect(referrerFormErrors({ slug: 'mark-lee', displayName: 'Dr. Mark Lee', shortLabel: 'dr-lee', quote: 'Q' })).toEqual({});
  });

  it("names each missing field in the form's words, and takes a link of 2 to 40 characters only", () => {
    expect(referrerFormErrors({ slug: ' ', displayName: '', shortLabel: '', quote: ' ' })).toEqual(REFERRER_FORM.missing);
    const withSlug = (slug: string) => referrerFormErrors({ slug, displayName: 'Mark Lee', shortLabel: 'dr-lee', quote: 'Q' });
    const { min, max } = REFERRER_FORM.slugLength;
    expect(withSlug('a'.repeat(min - 1))).toEqual({ slug: REFERRER_FORM.badSlug });
    expect(withSlug('a'.repeat(min))).toEqual({});
    expect(withSlug('a'.repeat(max))).toEqual({});
    expect(withSlug('a'.repeat(max + 1))).toEqual({ slug: REFERRER_FORM.badSlug });
    expect(withSlug('jane--doe')).toEqual({ slug: REFERRER_FORM.badSlug });
    expect(withSlug(' jane-doe ')).toEqual({});
  });
});

const ANA = { name: 'Dr. Ana Ruiz', practice: 'Ruiz Chiropractic', quote: 'Fewer calls.' };

describe("the Content screen's rules", () => {
  it('always offers three rows, saves only the ones with text, trimmed', () => {
    const draft = draftOf({ testimonials: [ANA], guarantee: 'G' });
    expect(draft.testimonials).toHaveLength(3);
    expect(draft.testimonials[1]).toEqual({ name: '', practice: '', quote: '' });
    draft.testimonials[2] = { name: ' Dr. Ben ', practice: ' Okafor ', quote: ' Yes. ' };
    expect(bodyOf({ ...draft, guarantee: ' G ' })).toEqual({
      testimonials: [ANA, { name: 'Dr. Ben', practice: 'Okafor', quote: 'Yes.' }],
      guarantee: 'G',
    });
  });

  it('refuses a started row by its empty fields, and an empty guarantee', () => {
    const draft = draftOf({ testimonials: [{ ...ANA, practice: ' ', quote: '' }], guarantee: ' ' });
    expect(Object.keys(contentErrors(draft)).sort()).toEqual(['guarantee', 'testimonials.0.practice', 'testimonials.0.quote']);
    expect(contentErrors(draftOf({ testimonials: [], guarantee: 'G' }))).toEqual({});
  });
});

function startContent(
  save: (body: OfferContentBody) => Promise<OfferContent>,
  load: () => Promise<OfferContent> = async () => DEFAULT_OFFER_CONTENT,
) {
  const saved: OfferContentBody[] = [];
  const emitted: string[] = [];
  const actor = createActor(
    offerContentMachine.provide({
      actors: {
        loadContent: fromPromise(load),
        saveContent: fromPromise(({ input }: { input: OfferContentBody }) => {
          saved.push(input);
          return save(input);
        }),
      },
    }),
  );
  actor.on('*', (event) => emitted.push(event.type));
  actor.start();
  return { actor, saved, emitted };
}

describe("the Content screen's statechart", () => {
  it('loads, refuses a half-filled row without a call, then saves and says so', async () => {
    const { actor, saved } = startContent(async (body) => body);
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(actor.getSnapshot().context.draft.guarantee).toBe(DEFAULT_OFFER_CONTENT.guarantee);
    actor.send({ type: 'TESTIMONIAL_CHANGED', index: 1, field: 'name', value: ANA.name });
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(Object.keys(actor.getSnapshot().context.errors)).toEqual(['testimonials.1.practice', 'testimonials.1.quote']);
    expect(saved).toEqual([]);
    actor.send({ type: 'TESTIMONIAL_CHANGED', index: 1, field: 'practice', value: ANA.practice });
    expect(Object.keys(actor.getSnapshot().context.errors)).toEqual(['testimonials.1.quote']);
    actor.send({ type: 'TESTIMONIAL_CHANGED', index: 1, field: 'quote', value: ANA.quote });
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().value).toBe('saving');
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(saved).toEqual([{ testimonials: [ANA], guarantee: DEFAULT_OFFER_CONTENT.guarantee }]);
    // The saved content comes back in the first row.
    expect(actor.getSnapshot().context).toMatchObject({
      saved: true,
      errors: {},
      draft: { testimonials: [ANA, expect.anything(), expect.anything()] },
    });
    actor.send({ type: 'GUARANTEE_CHANGED', value: 'New' });
    expect(actor.getSnapshot().context.saved).toBe(false);
  });

  it("shows the server's refusal, and hands an ended session to the console", async () => {
    const failures = [new ApiError('Body is wrong.', 400), new ApiError('Sign in again.', 401)];
    const { actor, emitted } = startContent(() => Promise.reject(failures.shift()!));
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (snapshot) => snapshot.matches('editing') && Boolean(snapshot.context.errors.form));
    expect(actor.getSnapshot().context.errors.form).toBe('Body is wrong.');
    actor.send({ type: 'SAVE' });
    await waitFor(actor, () => emitted.includes('unauthorised'));
  });

  it('offers to try again when the content cannot be loaded', async () => {
    let attempts = 0;
    const { actor } = startContent(
      async (body) => body,
      () =>
        ++attempts === 1
          ? Promise.reject(new ApiError('The console could not reach the server.', 0))
          : Promise.resolve(DEFAULT_OFFER_CONTENT),
    );
    await waitFor(actor, (snapshot) => snapshot.matches('loadFailed'));
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(attempts).toBe(2);
  });
});

describe('links in a held mail', () => {
  it('open their page without the hidden token; other addresses as they are; nothing but http(s)', () => {
    expect(mailLinkHref('http://localhost:3000/account?token=[hidden]')).toBe('http://localhost:3000/account');
    expect(mailLinkHref('https://agreement.example.com/?token=[hidden]&seats=2')).toBe('https://agreement.example.com/?seats=2');
    expect(mailLinkHref('https://example.com/a?b=c')).toBe('https://example.com/a?b=c');
    expect(mailLinkHref('javascript:alert(1)')).toBeUndefined();
    expect(mailLinkHref('not a url')).toBeUndefined();
  });
});
