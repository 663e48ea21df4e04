/** A staff action a maker-checker policy held back (202 `{ approval_id, state: 'pending' }`). */
export function heldForApproval(data: unknown): boolean {
  return (
    !!data && typeof data === 'object' && 'approval_id' in data && (data as { state?: unknown }).state === 'pending'
  );
}

const SENT_FOR_APPROVAL = 'Sent for approval: a second person must approve it on Approvals before it is done.';

/** What a staff action's toast says: its own message when done, or that it was sent for approval. */
export const doneOrSent = (data: unknown, done: string) => (heldForApproval(data) ? SENT_FOR_APPROVAL : done);
