/**
 * The buyer's team and the invitee's join, /api/account/team/* and /api/join/* (./routes.ts), under the API's rate
 * limit; and what the /join page shows for its link (`joinPageAnswers`, given to the site by server/app.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { teamRoutes } from './routes';

export { joinPageAnswers } from './routes';

/** Registers the team's and the join page's calls; `nudgeOutbox` sends an invitation now. */
export async function seatsPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(teamRoutes, options);
}
