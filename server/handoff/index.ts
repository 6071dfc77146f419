/**
 * The hand-off to the agreement site (architecture.md), its two calls under the API's rate limit: POST
 * /api/handoff/redeem (its one trade of a person's hand-off token, with a login hint for the training platform's
 * sign-in when OIDC is on, docs/decisions/0034) and POST /api/agreement/signed (its report of a signed agreement,
 * docs/decisions/0063). Registered whether or not the sign-in is: the hint is only added to the answer.
 */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { agreementSignedRoute } from './routes/agreementSigned';
import { handoffRedeemRoute } from './routes/handoffRedeem';

/** Registers the agreement site's calls. */
export async function handoffPlugin(app: FastifyInstance, services: OrderServices): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(handoffRedeemRoute, services);
  await app.register(agreementSignedRoute, services);
}
