/** Time units and interval arithmetic of the engine (epoch milliseconds, minutes of a day). */
export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export const overlaps = (aStart: number, aEnd: number, bStart: number, bEnd: number) => aStart < bEnd && bStart < aEnd;
export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const fromMinutes = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
