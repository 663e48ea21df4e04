import type { CSSProperties } from 'react';
import { brandOf } from '../../contract';
import { expiryText } from './format';

export type FaceVariant = 'mastercard-premium' | 'mastercard-basic' | 'visa-premium' | 'standard';

/** The card image by purpose and type: general+premium, general+basic, media+premium, otherwise standard. */
function faceOf(purpose: string, type: string): FaceVariant {
  if (purpose === 'general') return type === 'premium' ? 'mastercard-premium' : 'mastercard-basic';
  if (purpose === 'media' && type === 'premium') return 'visa-premium';
  return 'standard';
}

const FACES: Record<FaceVariant, { background: string; color: string; muted: string }> = {
  'mastercard-premium': {
    background:
      'radial-gradient(circle at 85% 15%, rgba(250,204,21,0.22) 0, transparent 45%), linear-gradient(135deg, #0b0b10 0%, #23232b 55%, #3b3220 100%)',
    color: '#f6e7b8',
    muted: 'rgba(246,231,184,0.65)',
  },
  'mastercard-basic': {
    background:
      'radial-gradient(circle at 10% 90%, rgba(255,255,255,0.18) 0, transparent 40%), linear-gradient(135deg, #1e3a8a 0%, #2563eb 55%, #0ea5e9 100%)',
    color: '#ffffff',
    muted: 'rgba(255,255,255,0.7)',
  },
  'visa-premium': {
    background:
      'radial-gradient(circle at 80% 20%, rgba(196,181,253,0.35) 0, transparent 45%), linear-gradient(135deg, #111451 0%, #1a1f71 45%, #5b21b6 100%)',
    color: '#ffffff',
    muted: 'rgba(255,255,255,0.7)',
  },
  standard: {
    background:
      'repeating-linear-gradient(120deg, rgba(255,255,255,0.06) 0 14px, transparent 14px 28px), linear-gradient(135deg, #0f766e 0%, #14b8a6 60%, #5eead4 100%)',
    color: '#ffffff',
    muted: 'rgba(255,255,255,0.75)',
  },
};

const Chip = () => (
  <svg width="42" height="32" viewBox="0 0 42 32" aria-hidden="true">
    <defs>
      <linearGradient id="cw-chip" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stopColor="#fde68a" />
        <stop offset="1" stopColor="#d4a017" />
      </linearGradient>
    </defs>
    <rect x="0.5" y="0.5" width="41" height="31" rx="6" fill="url(#cw-chip)" stroke="#b08a12" />
    <path d="M14 1v30M28 1v30M1 11h13M28 11h13M1 21h13M28 21h13" stroke="#b08a12" strokeWidth="1" fill="none" />
  </svg>
);

const Contactless = ({ color }: { color: string }) => (
  <svg
    width="22"
    height="22"
    viewBox="0 0 24 24"
    aria-hidden="true"
    fill="none"
    stroke={color}
    strokeWidth="2"
    strokeLinecap="round"
  >
    <path d="M8.5 8a6 6 0 0 1 0 8M12 5.5a10 10 0 0 1 0 13M15.5 3a14 14 0 0 1 0 18" />
  </svg>
);

function BrandMark({ purpose, color }: { purpose: string; color: string }) {
  if (purpose === 'general') {
    return (
      <svg width="54" height="34" viewBox="0 0 54 34" aria-label="Mastercard" role="img">
        <circle cx="19" cy="17" r="15" fill="#eb001b" />
        <circle cx="35" cy="17" r="15" fill="#f79e1b" />
        <path d="M27 4.3a15 15 0 0 1 0 25.4a15 15 0 0 1 0-25.4z" fill="#ff5f00" />
      </svg>
    );
  }
  if (purpose === 'media') {
    return (
      <span
        aria-label="Visa"
        role="img"
        style={{
          fontFamily: 'Arial Black, Arial, sans-serif',
          fontStyle: 'italic',
          fontWeight: 900,
          fontSize: 26,
          letterSpacing: 1,
          color,
        }}
      >
        VISA
      </span>
    );
  }
  return (
    <span
      role="img"
      aria-label="Tokenised card"
      style={{ fontWeight: 700, fontSize: 13, letterSpacing: 1, color, textAlign: 'right', lineHeight: 1.1 }}
    >
      TOKENISED
      <br />
      CARD
    </span>
  );
}

export interface CardFaceProps {
  purpose: string;
  type: string;
  maskedNumber: string;
  holder: string;
  expMonth?: number;
  expYear?: number;
  /** a red border: the card is deactivated (frozen) */
  deactivated?: boolean;
  style?: CSSProperties;
}

/** A card face drawn in CSS and SVG: brand, chip, masked number, holder and expiry (MM/YY). */
export function CardFace(p: CardFaceProps) {
  const variant = faceOf(p.purpose, p.type);
  const f = FACES[variant];
  const small = { fontSize: 9, letterSpacing: 1.2, color: f.muted, textTransform: 'uppercase' as const };
  return (
    <div
      data-testid="card-face"
      data-variant={variant}
      data-deactivated={p.deactivated ? 'true' : 'false'}
      role="img"
      aria-label={`${brandOf(p.purpose)} ${p.type} card ${p.maskedNumber}${p.deactivated ? ', deactivated' : ''}`}
      style={{
        position: 'relative',
        width: '100%',
        maxWidth: 380,
        aspectRatio: '1.586 / 1',
        borderRadius: 16,
        padding: '18px 20px',
        boxSizing: 'border-box',
        background: f.background,
        color: f.color,
        boxShadow: '0 10px 28px rgba(15, 23, 42, 0.28)',
        outline: p.deactivated ? '4px solid #ef4444' : undefined,
        outlineOffset: p.deactivated ? 2 : undefined,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        overflow: 'hidden',
        userSelect: 'none',
        ...p.style,
      }}
    >
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <div>
          <div style={{ fontWeight: 700, fontSize: 13, letterSpacing: 1.5 }}>Cardwallet</div>
          <div style={{ ...small, marginTop: 2 }}>{p.type}</div>
        </div>
        <BrandMark purpose={p.purpose} color={f.color} />
      </div>
      <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
        <Chip />
        <Contactless color={f.muted} />
      </div>
      <div
        style={{
          fontFamily: '"SFMono-Regular", Menlo, Consolas, monospace',
          fontSize: 'clamp(15px, 5vw, 21px)',
          letterSpacing: 2,
          whiteSpace: 'nowrap',
        }}
      >
        {p.maskedNumber.replace(/\*/g, '•')}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-end', gap: 8 }}>
        <div style={{ minWidth: 0 }}>
          <div style={small}>Card holder</div>
          <div
            style={{
              fontSize: 14,
              fontWeight: 600,
              textTransform: 'uppercase',
              whiteSpace: 'nowrap',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
            }}
          >
            {p.holder}
          </div>
        </div>
        <div style={{ flexShrink: 0 }}>
          <div style={small}>Valid thru</div>
          <div style={{ fontSize: 14, fontWeight: 600 }} data-testid="card-face-expiry">
            {p.expMonth && p.expYear ? expiryText(p.expMonth, p.expYear, true) : '--/--'}
          </div>
        </div>
      </div>
    </div>
  );
}
