/** Tenant-portal credentials: a single-use magic link and the session it opens. */
export const LINK_MINUTES = 20;
export const SESSION_HOURS = 12;
/** Requests per minute of one portal session (each answer carries the X-RateLimit-* headers). */
export const SESSION_RATE_LIMIT = 120;
/** Magic-link requests per minute from one IP address. */
export const LINK_REQUESTS_PER_IP = 10;
export const LINK_PREFIX = 'spl_';
export const SESSION_PREFIX = 'sps_';
