import type { AppContext } from '../../context';
import { isMomoAgent } from '../momo/service';

/**
 * Capabilities granted to a user by configuration rather than by role: 'momo' for the users
 * the mobile-money settings name as payment confirmers.
 */
export async function userEntities(ctx: AppContext, userId: string): Promise<string[]> {
  return (await isMomoAgent(ctx.db, userId)) ? ['momo'] : [];
}
