import { z } from 'zod';
import type { ChainConfig } from '../config';
import { tronAddressFromHex } from './address';
import { type ChainPort, type ChainTransfer, ChainUnavailable } from './port';

/**
 * TronGrid's HTTP API for the real chain. Endpoints used:
 * - GET  /v1/accounts/{address}/transactions/trc20  the USDT transfers into an address (paged by fingerprint)
 * - GET  /v1/transactions/{id}/events                a transaction's events: block number and log index
 * - POST /wallet/getnowblock                          the head block, for confirmations
 * Anything short of a well-formed answer (network error, timeout, non-2xx, a body that does not
 * match) is ChainUnavailable: the watcher concludes nothing and asks again later.
 */

/** 200 a page (TronGrid's maximum) × 50 pages: more than 10,000 transfers into one deposit address is abuse, not business. */
const PAGE_LIMIT = 200;
const MAX_PAGES = 50;
const USDT_DECIMALS = 6;
const HASH = /^[0-9a-f]{64}$/;

const trc20Page = z.object({
  success: z.boolean().optional(),
  data: z.array(
    z.object({
      transaction_id: z.string().regex(/^[0-9a-fA-F]{64}$/),
      from: z.string(),
      to: z.string(),
      value: z.string(),
      type: z.string(),
      block_timestamp: z.number().int().nonnegative(),
      token_info: z.object({ address: z.string(), decimals: z.number().int().min(0).max(77) }),
    }),
  ),
  meta: z.object({ fingerprint: z.string().optional() }).optional(),
});

const eventsPage = z.object({
  success: z.boolean().optional(),
  data: z.array(
    z.object({
      // Tron emits events only from a block, but a missing number is read as "not in a block yet".
      block_number: z.number().int().nonnegative().nullish(),
      block_timestamp: z.number().int().nonnegative(),
      event_index: z.number().int().nonnegative(),
      event_name: z.string(),
      contract_address: z.string(),
      result: z.record(z.string(), z.unknown()),
    }),
  ),
});
const transferResult = z.object({ from: z.string(), to: z.string(), value: z.string() });

const nowBlock = z.object({
  block_header: z.object({ raw_data: z.object({ number: z.number().int().nonnegative() }) }),
});

/** A USDT Transfer event of a transaction, addresses in base58. */
interface UsdtEvent {
  logIndex: number;
  from: string;
  to: string;
  amountMicro: number;
  blockNumber: number;
  blockTime: Date;
}

/** Base58 as is; hex (41… or 0x…, as events write them) converted. */
function base58Of(address: string): string {
  if (address.startsWith('T')) return address;
  try {
    return tronAddressFromHex(address);
  } catch {
    throw new ChainUnavailable(`TronGrid gave an address that is neither base58 nor hex: ${address}`);
  }
}

/**
 * An on-chain integer amount (`decimals` places) in millionths, exactly: BigInt arithmetic, never a
 * float. Anything that is not a plain digit string, has dust below a millionth, or is beyond a
 * safe integer is refused rather than rounded.
 */
function microOf(value: string, decimals: number): number {
  if (!/^\d{1,80}$/.test(value)) throw new ChainUnavailable(`TronGrid gave an amount that is not an integer: ${value}`);
  let v = BigInt(value);
  if (decimals <= USDT_DECIMALS) v *= 10n ** BigInt(USDT_DECIMALS - decimals);
  else {
    const scale = 10n ** BigInt(decimals - USDT_DECIMALS);
    if (v % scale !== 0n) throw new ChainUnavailable(`TronGrid gave an amount finer than a millionth: ${value}`);
    v /= scale;
  }
  if (v > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ChainUnavailable(`TronGrid gave an amount too large to count exactly: ${value}`);
  return Number(v);
}

export function createTronGridChain(
  config: ChainConfig,
  opts: { fetch?: typeof fetch; now?: () => Date } = {},
): ChainPort {
  const doFetch = opts.fetch ?? fetch;
  const base = config.trongridUrl.replace(/\/+$/, '');
  const usdt = base58Of(config.usdtContract);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.trongridApiKey) headers['TRON-PRO-API-KEY'] = config.trongridApiKey;

  async function call<T>(schema: z.ZodType<T>, path: string, method: 'GET' | 'POST' = 'GET'): Promise<T> {
    // The signal covers the body too, so a server that stalls mid-answer also times out.
    const signal = AbortSignal.timeout(config.timeoutMs);
    let body: unknown;
    try {
      const res = await doFetch(base + path, { method, headers, signal });
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new ChainUnavailable(`TronGrid answered ${res.status} to ${method} ${path}`);
      }
      body = await res.json();
    } catch (e) {
      if (e instanceof ChainUnavailable) throw e;
      const why = signal.aborted
        ? `no answer within ${config.timeoutMs} ms`
        : e instanceof Error
          ? e.message
          : String(e);
      throw new ChainUnavailable(`TronGrid ${method} ${path}: ${why}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new ChainUnavailable(`TronGrid gave an unexpected answer to ${method} ${path}: ${parsed.error.message}`);
    if ((parsed.data as { success?: boolean }).success === false)
      throw new ChainUnavailable(`TronGrid refused ${method} ${path}`);
    return parsed.data;
  }

  /** The USDT Transfer events of a transaction, by log index; null when TronGrid knows no event of it. */
  async function usdtEvents(hash: string): Promise<UsdtEvent[] | null> {
    const { data } = await call(eventsPage, `/v1/transactions/${hash}/events`);
    if (!data.length) return null;
    const out: UsdtEvent[] = [];
    for (const e of data) {
      if (e.event_name !== 'Transfer' || base58Of(e.contract_address) !== usdt) continue;
      const r = transferResult.safeParse(e.result);
      if (!r.success)
        throw new ChainUnavailable(`TronGrid gave a USDT Transfer event without from, to and value in ${hash}`);
      out.push({
        logIndex: e.event_index,
        from: base58Of(r.data.from),
        to: base58Of(r.data.to),
        amountMicro: microOf(r.data.value, USDT_DECIMALS),
        blockNumber: e.block_number ?? 0,
        blockTime: new Date(e.block_timestamp),
      });
    }
    return out.sort((a, b) => a.logIndex - b.logIndex);
  }

  async function head(): Promise<number> {
    return (await call(nowBlock, '/wallet/getnowblock', 'POST')).block_header.raw_data.number;
  }

  /** Confirmations against one head read per call; at least 1 once in a block, even if the head read lags. */
  function withConfirmations(events: (UsdtEvent & { hash: string })[], height: number): ChainTransfer[] {
    return events.map((e) => ({
      ...e,
      confirmations: e.blockNumber > 0 ? Math.max(1, height - e.blockNumber + 1) : 0,
    }));
  }
  const needsHead = (events: UsdtEvent[]) => events.some((e) => e.blockNumber > 0);

  return {
    name: 'trongrid',

    async transfersTo(address, since) {
      const to = base58Of(address);
      const items: z.infer<typeof trc20Page>['data'] = [];
      let fingerprint: string | undefined;
      for (let page = 0; ; page++) {
        if (page === MAX_PAGES)
          throw new ChainUnavailable(
            `more than ${MAX_PAGES * PAGE_LIMIT} USDT transfers into ${to} since ${since.toISOString()}`,
          );
        const q = new URLSearchParams({
          only_to: 'true',
          contract_address: usdt,
          min_timestamp: String(since.getTime()),
          order_by: 'block_timestamp,asc',
          limit: String(PAGE_LIMIT),
        });
        if (fingerprint) q.set('fingerprint', fingerprint);
        const body = await call(trc20Page, `/v1/accounts/${encodeURIComponent(to)}/transactions/trc20?${q}`);
        items.push(...body.data);
        fingerprint = body.meta?.fingerprint || undefined;
        if (!fingerprint) break;
      }

      // Block number and log index come from the transaction's events: one read per transaction,
      // each event matched to one listed transfer at most (so a transfer listed twice counts once).
      const events = new Map<string, { list: UsdtEvent[]; used: Set<number> }>();
      const found: (UsdtEvent & { hash: string })[] = [];
      for (const item of items) {
        if (item.type !== 'Transfer' || base58Of(item.token_info.address) !== usdt || base58Of(item.to) !== to)
          continue;
        const hash = item.transaction_id.toLowerCase();
        const amountMicro = microOf(item.value, item.token_info.decimals);
        if (!events.has(hash)) events.set(hash, { list: (await usdtEvents(hash)) ?? [], used: new Set() });
        const known = events.get(hash)!;
        const match = known.list.find(
          (e) => !known.used.has(e.logIndex) && e.to === to && e.amountMicro === amountMicro,
        );
        // Not (yet) in TronGrid's event index: reported unconfirmed (no block) so the watcher keeps
        // asking from its time, rather than guessed or dropped.
        if (!match) {
          found.push({
            hash,
            logIndex: -1,
            from: base58Of(item.from),
            to,
            amountMicro,
            blockNumber: 0,
            blockTime: new Date(item.block_timestamp),
          });
          continue;
        }
        known.used.add(match.logIndex);
        found.push({ ...match, hash });
      }
      found.sort(
        (a, b) =>
          a.blockTime.getTime() - b.blockTime.getTime() || a.blockNumber - b.blockNumber || a.logIndex - b.logIndex,
      );
      return withConfirmations(found, needsHead(found) ? await head() : 0);
    },

    async transaction(hash) {
      const h = hash.toLowerCase();
      if (!HASH.test(h)) return null;
      const list = await usdtEvents(h);
      if (!list) return null;
      return withConfirmations(
        list.map((e) => ({ ...e, hash: h })),
        needsHead(list) ? await head() : 0,
      );
    },
  };
}
