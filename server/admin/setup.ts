/** What the owner has still to set up (src/contract/admin.ts SETUP_STEPS), read afresh for each dashboard. */
import type { SetupStep } from '../../src/contract/admin';
import { sampleReferrer } from '../../src/domain/offerReferrer';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { offerContentSaved, readOfferContent } from '../content';
import { findActiveReferrer } from '../referrals';

export async function setupLeft(db: Database, config: Pick<Config, 'DEFAULT_REFERRER_SLUG'>): Promise<SetupStep[]> {
  const [referrer, content, saved] = await Promise.all([
    findActiveReferrer(db, config.DEFAULT_REFERRER_SLUG),
    readOfferContent(db),
    offerContentSaved(db),
  ]);
  const left: SetupStep[] = [];
  if (!referrer || referrer.displayName === sampleReferrer.name) left.push('default_referrer');
  if (content.testimonials.length === 0) left.push('testimonials');
  if (!saved) left.push('guarantee');
  return left;
}
