/** The one description of the 2FA key an authenticator app takes: the server's QR and the apps' link say the same. */
const TOTP_ISSUER = 'Cardwallet';

/** otpauth://totp/Cardwallet:{email}?secret=…&issuer=Cardwallet (30 s, 6 digits, SHA-1: the apps' defaults). */
export const totpUri = (secret: string, email: string) =>
  `otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(email)}?secret=${encodeURIComponent(secret)}&issuer=${encodeURIComponent(TOTP_ISSUER)}`;

/** The key in groups of four, as a person reads and types it. */
export const keyGroups = (secret: string) => secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? [];
