import { randomBytes } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` a caller sends, read
 * as §3.2 says, and the server span each request is. A header that does not parse starts a new
 * trace (§3.2.4: "the vendor MUST create a new trace").
 */
export interface TraceContext {
  traceId: string;
  /** this request's own span */
  spanId: string;
  /** the caller's span, when a valid traceparent came in */
  parentSpanId: string | null;
  /** the trace-flags byte: bit 0 is "sampled" */
  flags: number;
}

const VERSION = /^[0-9a-f]{2}$/;
const TRACE_ID = /^[0-9a-f]{32}$/;
const PARENT_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** 16 random bytes for a new trace, 8 for a span (§3.2.2.3, §3.2.2.4), never all zeros. */
const randomHex = (bytes: number) => {
  for (;;) {
    const hex = randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(hex)) return hex;
  }
};
const newSpanId = () => randomHex(8);

/**
 * The caller's trace, or null: version 00 is exactly four fields; a later version is read by its first four
 * and may carry more after a dash (§3.2.4.1); version ff, upper-case hex and all-zero ids are invalid.
 */
function parseTraceparent(header: string | string[] | undefined): Omit<TraceContext, 'spanId'> | null {
  // Several traceparent headers: the caller's context is ambiguous, so none is used.
  if (typeof header !== 'string') return null;
  const value = header.trim();
  const parts = value.split('-');
  if (parts.length < 4) return null;
  const [version, traceId, parentId, flags] = parts as [string, string, string, string];
  if (!VERSION.test(version) || version === 'ff') return null;
  if (version === '00' ? parts.length !== 4 : value.length > 55 && value[55] !== '-') return null;
  if (!TRACE_ID.test(traceId) || traceId === ZERO_TRACE) return null;
  if (!PARENT_ID.test(parentId) || parentId === ZERO_SPAN) return null;
  if (!VERSION.test(flags)) return null;
  return { traceId, parentSpanId: parentId, flags: Number.parseInt(flags, 16) };
}

/** The request's trace: the caller's continued, or a new one (sampled: the platform decides at its edge). */
export function traceOf(header: string | string[] | undefined): TraceContext {
  const parent = parseTraceparent(header);
  if (parent) return { ...parent, spanId: newSpanId() };
  return { traceId: randomHex(16), spanId: newSpanId(), parentSpanId: null, flags: 1 };
}

/** version-traceid-spanid-flags, as traceparent and Trace Context Level 2's traceresponse write it. */
export const formatTrace = (t: TraceContext) =>
  `00-${t.traceId}-${t.spanId}-${(t.flags & 0xff).toString(16).padStart(2, '0')}`;

export const isSampled = (t: TraceContext) => (t.flags & 1) === 1;
