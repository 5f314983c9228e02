import { randomString } from '../../lib/ids';

/** A PIN stops working this many days after the waiver number was created (410 `expired`). */
export const PIN_TTL_DAYS = 30;
/** No 0/O or 1/I/L: PINs are read aloud and typed from paper. 31^8 ≈ 8.5e11 combinations. */
const PIN_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PIN_LENGTH = 8;
const NUMBER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const generatePin = () => randomString(PIN_LENGTH, PIN_ALPHABET);
export const normalizePin = (pin: string) => pin.trim().toUpperCase().replace(/[\s-]/g, '');
export const generateNumber = () => `WN-${randomString(10, NUMBER_ALPHABET)}`;
