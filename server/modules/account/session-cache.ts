import { type Database, POOL_CHANNELS, type Subscription } from '../../db/client';

/** What a request needs to know about its session and user. */
export interface SessionRow {
  sessionId: string;
  expiresAt: Date;
  lastSeenAt: Date;
  userId: string;
  email: string;
  role: string;
  companyId: string | null;
}

const CHANNEL = POOL_CHANNELS[0];
const MAX_ENTRIES = 20_000;

/**
 * Sessions checked recently, so that a signed-in request costs the queries of its own work and
 * not one more for who is calling. Only good answers are kept: an unknown, ended or blocked
 * session always goes to the database.
 *
 * It is correct across instances because the database says what changed: triggers on sessions,
 * users and companies notify `cw_auth` at commit (migration 0012), and each instance forgets the
 * entries they name. While the listening connection is down nothing is kept, and an answer read
 * before a change but stored after its notification is not kept either (the epoch moved).
 * Entries also lapse when their session is due to be touched (auth.ts), so the idle and absolute
 * expiry are always decided on the database's figures.
 */
export class SessionCache {
  private readonly byToken = new Map<string, SessionRow>();
  /** session, user and company ids → the tokens cached under them, so a change forgets in O(1) */
  private readonly byOwner = new Map<string, Set<string>>();
  private epochCount = 0;
  private live = false;
  private subscription: Subscription | null = null;

  async start(database: Database): Promise<void> {
    this.subscription = await database.listen(CHANNEL, {
      message: (payload) => this.forget(payload),
      up: () => {
        this.epochCount++;
        this.live = true;
      },
      down: () => {
        this.live = false;
        this.epochCount++;
        this.clear();
      },
    });
  }

  async stop(): Promise<void> {
    this.live = false;
    this.clear();
    await this.subscription?.close();
    this.subscription = null;
  }

  /** Taken before reading from the database; hand it to put(). */
  epoch(): number {
    return this.epochCount;
  }

  get(tokenHash: string): SessionRow | undefined {
    return this.live ? this.byToken.get(tokenHash) : undefined;
  }

  put(tokenHash: string, row: SessionRow, epoch: number): void {
    if (!this.live || epoch !== this.epochCount) return;
    if (this.byToken.size >= MAX_ENTRIES) this.drop(this.byToken.keys().next().value!);
    this.drop(tokenHash);
    this.byToken.set(tokenHash, row);
    for (const key of keysOf(row)) {
      const tokens = this.byOwner.get(key) ?? new Set<string>();
      tokens.add(tokenHash);
      this.byOwner.set(key, tokens);
    }
  }

  drop(tokenHash: string): void {
    const row = this.byToken.get(tokenHash);
    if (!row) return;
    this.byToken.delete(tokenHash);
    for (const key of keysOf(row)) {
      const tokens = this.byOwner.get(key);
      tokens?.delete(tokenHash);
      if (tokens?.size === 0) this.byOwner.delete(key);
    }
  }

  get size(): number {
    return this.byToken.size;
  }

  private clear(): void {
    this.byToken.clear();
    this.byOwner.clear();
  }

  /** `s:<session id>`, `u:<user id>` or `c:<company id>`; anything else forgets everything. */
  private forget(payload: string): void {
    this.epochCount++;
    if (!/^[suc]:./.test(payload)) {
      this.clear();
      return;
    }
    for (const token of [...(this.byOwner.get(payload) ?? [])]) this.drop(token);
  }
}

const keysOf = (row: SessionRow) => [
  `s:${row.sessionId}`,
  `u:${row.userId}`,
  ...(row.companyId ? [`c:${row.companyId}`] : []),
];
