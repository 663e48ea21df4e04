import type { AppContext, AuthUser } from '../context';

/** What the demo's activity is made of (activity.ts replays the events demo-wallet.ts and demo-cards.ts list). */

export const HOUR = 3600_000;

export interface DemoEvent {
  hoursAgo: number;
  run(ctx: AppContext): Promise<void>;
}

export type Actor = AuthUser & { walletId: string };
export type Actors = Record<'ama' | 'kofi' | 'efua' | 'agent' | 'admin', Actor>;
