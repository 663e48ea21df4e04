/**
 * Faults on purpose, for tests that prove what happens when something fails: sandbox issuer
 * faults (SANDBOX_ISSUER_FAULTS) and failpoints in the code (FAILPOINTS). Both are parsed by the
 * config (which refuses them in production) and are inert unless set.
 */

/** 'message': a merchant message whose answer the sandbox fails to apply (as if it died in between) */
const ISSUER_OPERATIONS = [
  'issue',
  'load',
  'unload',
  'freeze',
  'unfreeze',
  'terminate',
  'message',
  'dispute',
  'withdraw_dispute',
] as const;
export type IssuerOperation = (typeof ISSUER_OPERATIONS)[number];
/** fail: the issuer answers an error; timeout: it does the work but its answer never comes */
type IssuerFault = 'fail' | 'timeout';
export type IssuerFaults = Partial<Record<IssuerOperation, IssuerFault>>;

const FAILPOINT_NAMES = [
  'money.after-commit',
  'outbox.before-dispatch',
  'outbox.after-dispatch',
  'rotate-key.after-batch',
  'approval.after-claim',
] as const;
export type FailpointName = (typeof FAILPOINT_NAMES)[number];
type FailpointAction = { kind: 'exit' } | { kind: 'error' } | { kind: 'delay'; ms: number };
interface Failpoint {
  action: FailpointAction;
  /** the hit it acts on (1 = the first) */
  hit: number;
}
export type Failpoints = Partial<Record<FailpointName, Failpoint>>;

const pairs = (raw: string) =>
  raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const at = p.indexOf('=');
      if (at < 1) throw new Error(`"${p}" is not name=value`);
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()] as const;
    });

/** "load=fail,unload=timeout" */
export function parseIssuerFaults(raw: string): IssuerFaults {
  const faults: IssuerFaults = {};
  for (const [op, mode] of pairs(raw)) {
    if (!(ISSUER_OPERATIONS as readonly string[]).includes(op))
      throw new Error(`unknown issuer operation "${op}" (${ISSUER_OPERATIONS.join(', ')})`);
    if (mode !== 'fail' && mode !== 'timeout') throw new Error(`unknown fault "${mode}" for ${op} (fail, timeout)`);
    faults[op as IssuerOperation] = mode;
  }
  return faults;
}

/** "money.after-commit=exit@2,outbox.before-dispatch=delay(500)" */
export function parseFailpoints(raw: string): Failpoints {
  const points: Failpoints = {};
  for (const [name, value] of pairs(raw)) {
    if (!(FAILPOINT_NAMES as readonly string[]).includes(name))
      throw new Error(`unknown failpoint "${name}" (${FAILPOINT_NAMES.join(', ')})`);
    const m = /^(exit|error|delay\((\d+)\))(?:@(\d+))?$/.exec(value);
    if (!m) throw new Error(`"${value}" is not exit, error or delay(ms), with an optional @n`);
    const action: FailpointAction =
      m[1] === 'exit' ? { kind: 'exit' } : m[1] === 'error' ? { kind: 'error' } : { kind: 'delay', ms: Number(m[2]) };
    const hit = m[3] ? Number(m[3]) : 1;
    if (hit < 1) throw new Error(`@${m[3]}: hits count from 1`);
    points[name as FailpointName] = { action, hit };
  }
  return points;
}
