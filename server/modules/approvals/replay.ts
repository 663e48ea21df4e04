import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../../context';

/** Who approved the request being performed: the gate lets it through and the audit row names them. */
interface ApprovalReplay {
  approvalId: string;
  approverId: string;
  approverEmail: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set while an approved request is performed (replayed in-process) */
    approval?: ApprovalReplay;
    /** set when the gate held this request back: the approval it created */
    approvalRequested?: { id: string; action: string; summary: string };
    /** what the audit row of this request adds to its details (an approval's maker and summary) */
    auditDetails?: Record<string, unknown>;
  }
}

interface Grant {
  user: AuthUser;
  approval: ApprovalReplay;
}

/**
 * One-time grants of the replays in flight in this process, by a random token sent in a header
 * only app.inject sets: a replay acts as its maker without a session of theirs, and nobody outside
 * can forge one (the token is never answered and lives only while its replay runs).
 */
const grants = new Map<string, Grant>();
export const REPLAY_HEADER = 'x-cw-approval-replay';

export function openGrant(grant: Grant): { token: string; close(): void } {
  const token = randomBytes(32).toString('hex');
  grants.set(token, grant);
  return { token, close: () => grants.delete(token) };
}

/** The replay's maker and approval, when this request is a replay this process started. */
export function replayOf(req: FastifyRequest): Grant | null {
  const token = req.headers[REPLAY_HEADER];
  if (typeof token !== 'string') return null;
  return grants.get(token) ?? null;
}
