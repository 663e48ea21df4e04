import { generateSecret, verify } from 'otplib';
import QRCode from 'qrcode';
import { totpUri } from '@shared/totp';

const PERIOD = 30;

export const newTotpSecret = () => generateSecret({ length: 20 });

/** The QR code as base64 of an SVG document, as the login screen expects. */
export async function totpQrCode(secret: string, email: string): Promise<string> {
  const svg = await QRCode.toString(totpUri(secret, email), { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return Buffer.from(svg, 'utf8').toString('base64');
}

/**
 * Checks a 6-digit code with one step of drift either way. Returns the accepted time step,
 * or null. A step at or before `afterStep` is refused so a code works once only.
 */
export async function checkTotp(
  secret: string,
  code: string,
  afterStep: number | null | undefined,
  now: Date,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    period: PERIOD,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: PERIOD,
    ...(afterStep != null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid && 'timeStep' in result ? (result.timeStep as number) : null;
}
