/**
 * The agreement site's two calls (architecture.md; docs/decisions/0034, 0063), under the API's rate limit. Registered
 * with or without the sign-in: OIDC only adds a login hint to the redemption.
 */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { agreementSignedRoute } from './routes/agreementSigned';
import { handoffRedeemRoute } from './routes/handoffRedeem';

export async function handoffPlugin(app: FastifyInstance, services: OrderServices): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(handoffRedeemRoute, services);
  await app.register(agreementSignedRoute, services);
}
