import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DecidedBy } from '@shared/contract';
import { categoryOf } from '@shared/merchant-categories';
import { formatMoney, parseMoney } from '@shared/money';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { decisionEndpoints } from '../../db/schema';
import { unseal } from '../../lib/crypto';
import { isPrivateAddress } from '../integrations/ssrf';
import { sign } from '../integrations/webhooks';
import type { ControlledPayment } from './controls/decline';
import type { CardRow } from './presenters';

/** A company's registered authorisation-decision endpoint. */
export interface DecisionEndpoint {
  companyId: string;
  url: string;
  timeoutMs: number;
  onTimeout: 'approve' | 'decline';
  /** the endpoint's whsec_… secret, sealed (unsealed only when the company is asked) */
  signingSecret: string;
}

/** The company's answer to an authorisation that passed the platform's own checks. */
export interface CompanyDecision {
  decidedBy: Exclude<DecidedBy, 'platform'>;
  approved: boolean;
  /** a smaller amount the company approves (partial approval), in cents */
  amount?: number;
  /** how long the decision took */
  ms: number;
}

/**
 * The endpoint of the card's company, or null (individuals' cards, or none registered): the platform decides alone.
 * One primary-key read (a card's wallet id is its company's id), prepared once: it runs on every authorisation, and
 * no cache, so a change made through any instance applies at once on all of them.
 */
export async function decisionEndpointOf(db: DbOrTx, card: CardRow): Promise<DecisionEndpoint | null> {
  const query = prepared(db, 'decision_endpoint_of', (d) =>
    d
      .select({
        companyId: decisionEndpoints.companyId,
        url: decisionEndpoints.url,
        timeoutMs: decisionEndpoints.timeoutMs,
        onTimeout: decisionEndpoints.onTimeout,
        signingSecret: decisionEndpoints.signingSecret,
      })
      .from(decisionEndpoints)
      .where(eq(decisionEndpoints.companyId, sql.placeholder('companyId')))
      .prepare('decision_endpoint_of'),
  );
  const [e] = await query.execute({ companyId: card.walletId });
  return e ? { ...e, onTimeout: e.onTimeout === 'approve' ? 'approve' : 'decline' } : null;
}

/** What the company is told about the card. */
export type AskedCard = Pick<CardRow, 'id' | 'maskedNumber' | 'last4' | 'purpose' | 'nickname'>;

/** The request the company's endpoint receives (documented in docs/api.md and the OpenAPI document's text). */
function decisionRequest(card: AskedCard, payment: ControlledPayment, transactionId: string, now: Date) {
  return {
    type: 'card.authorization.request',
    timestamp: now.toISOString(),
    data: {
      transaction_id: transactionId,
      card_id: card.id,
      card: { masked_number: card.maskedNumber, last4: card.last4, purpose: card.purpose, nickname: card.nickname },
      amount: formatMoney(payment.amount),
      currency: payment.currency,
      merchant: payment.merchant,
      mcc: payment.mcc,
      merchant_category: categoryOf(payment.mcc),
      country: payment.country,
    },
  };
}

/** At most this much of an answer is read: a decision is a few bytes. */
const MAX_ANSWER_BYTES = 16 * 1024;
/** A failed call is written down at most this often per company, so a dead endpoint under load costs no write storm. */
const FAILURE_RECORD_EVERY_MS = 10_000;
// Kept-alive connections: a decision pays the TCP (and TLS) handshake once per connection, not per payment.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

class Refused extends Error {}

/** Resolves like dns.lookup, refusing any private, loopback or link-local address: checked on the address connected to. */
const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 4);
    const list = addresses as unknown as dns.LookupAddress[];
    if (!list.length || list.some((a) => isPrivateAddress(a.address)))
      return callback(new Refused('The decision URL points at a private address'), '', 4);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

type Reply = { status: number; body: string };

function postJson(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal, open: boolean) {
  return new Promise<Reply>((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const req = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: agents[secure ? 'https:' : 'http:'],
        signal,
        lookup: open ? undefined : publicLookup,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('The answer is too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The answer as a decision, or why it is not one. */
function readDecision(reply: Reply, requested: number): { approved: boolean; amount?: number } | string {
  if (reply.status < 200 || reply.status > 299) return `The endpoint answered ${reply.status}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    return 'The answer is not JSON';
  }
  const answer = parsed as { approved?: unknown; amount?: unknown } | null;
  if (!answer || typeof answer !== 'object' || typeof answer.approved !== 'boolean')
    return 'The answer has no approved true or false';
  if (!answer.approved) return { approved: false };
  if (answer.amount === undefined || answer.amount === null) return { approved: true };
  const amount = parseMoney(answer.amount);
  if (!amount.ok) return `The answer's amount is not an amount (${amount.error})`;
  if (amount.cents > requested) return "The answer's amount is more than the payment's";
  return amount.cents === requested ? { approved: true } : { approved: true, amount: amount.cents };
}

/** Writes down why a call fell back to on_timeout, for the company's API settings; never delays the decision. */
function recordFailure(ctx: AppContext, endpoint: DecisionEndpoint, why: string) {
  const now = ctx.now();
  ctx.db
    .update(decisionEndpoints)
    .set({ lastFailure: why.slice(0, 300), lastFailureAt: now })
    .where(
      and(
        eq(decisionEndpoints.companyId, endpoint.companyId),
        or(
          isNull(decisionEndpoints.lastFailureAt),
          lt(decisionEndpoints.lastFailureAt, new Date(now.getTime() - FAILURE_RECORD_EVERY_MS)),
        ),
      ),
    )
    .catch((err: unknown) => ctx.log.warn({ err }, 'could not record a failed decision call'));
}

/**
 * Asks the company. Called outside any database transaction: it takes at most the endpoint's
 * deadline (plus a little), and never throws: no answer, an error or a reply that is not a
 * decision applies `on_timeout` (decidedBy 'stand_in').
 */
export async function askCompany(
  ctx: AppContext,
  endpoint: DecisionEndpoint,
  card: AskedCard,
  payment: ControlledPayment,
  transactionId: string,
): Promise<CompanyDecision> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const standIn = (why: string): CompanyDecision => {
    recordFailure(ctx, endpoint, why);
    return { decidedBy: 'stand_in', approved: endpoint.onTimeout === 'approve', ms: ms() };
  };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = new URL(endpoint.url);
    // Loopback receivers are allowed where the callback's are: development and test.
    const open = ctx.config.env === 'development' || ctx.config.env === 'test';
    if (!open && url.protocol !== 'https:') return standIn('The decision URL must use https');
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return standIn('The decision URL must use https');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!open && net.isIP(host) && isPrivateAddress(host))
      return standIn('The decision URL points at a private address');
    const now = ctx.now();
    const body = JSON.stringify(decisionRequest(card, payment, transactionId, now));
    const id = `msg_${transactionId.replace(/-/g, '')}`;
    const ts = Math.floor(now.getTime() / 1000);
    const secret = unseal(endpoint.signingSecret, ctx.config.encryptionKey);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Cardwallet-Decisions/1.0',
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': sign(secret, id, ts, body),
    };
    // The abort ends the connection; the race answers at the deadline even if ending it takes longer
    // (a server that accepted and never answers, or trickles its body).
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve('late');
      }, endpoint.timeoutMs);
    });
    const call = postJson(url, headers, body, controller.signal, open).then(
      (reply) => ({ reply }),
      (err: unknown) => ({ err }),
    );
    const outcome = await Promise.race([call, deadline]);
    if (outcome === 'late') return standIn(`No answer within ${endpoint.timeoutMs} ms`);
    if ('err' in outcome) {
      const err = outcome.err as NodeJS.ErrnoException;
      return standIn(
        err instanceof Refused
          ? err.message
          : `The endpoint could not be reached (${err.code ?? err.message ?? 'error'})`.slice(0, 300),
      );
    }
    const decision = readDecision(outcome.reply, payment.amount);
    if (typeof decision === 'string') return standIn(decision);
    return { decidedBy: 'company', ...decision, ms: ms() };
  } catch (err) {
    return standIn(`The endpoint could not be asked (${(err as Error).message})`);
  } finally {
    clearTimeout(timer);
  }
}
