import type { Env } from '../env';
import { outbound } from './http';

/**
 * E-mail transport. With `POSTMARK_SERVER_TOKEN` set, e-mails go through Postmark's Email API
 * (`POST https://api.postmarkapp.com/email`, header `X-Postmark-Server-Token`) from `EMAIL_FROM`;
 * without it there is no transport and the message outbox is the destination (src/adapters/messages.ts).
 * Transports never throw: they answer what the provider said, so the send log can record it.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Reply-To address (Postmark `ReplyTo`). */
  replyTo?: string | null;
  /** Template id, sent as Postmark's `Tag`. */
  tag?: string | null;
  /** Our message id and other small values, sent as Postmark `Metadata`. */
  metadata?: Record<string, string>;
}

export type ProviderResult =
  | { ok: true; providerMessageId: string; providerStatus: string }
  /** `retry`: a temporary failure (network, 429, 5xx) worth another attempt; otherwise the provider refused for good. */
  | { ok: false; reason: string; retry: boolean; providerStatus?: string; code?: number };

export interface EmailTransport {
  name: 'postmark';
  send(msg: EmailMessage): Promise<ProviderResult>;
}

export const POSTMARK_URL = 'https://api.postmarkapp.com/email';

// C0 controls (CR, LF, tab, NUL...), DEL, C1 controls (NEL...), and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const HEADER_BREAKERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * A value bound for a message header (subject, names, sender, recipient, reply-to, tag): CR, LF and
 * every other control character become one space, so no text a user wrote (a gift card's
 * recipient name, a business name) can end a header line and add headers of its own. Whitespace
 * runs collapse; the value is trimmed and capped (RFC 5322 lines are at most 998 characters).
 */
export function headerText(value: string, max = 998): string {
  return value
    .replace(HEADER_BREAKERS, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
    .slice(0, max);
}

/** The configured e-mail transport, or null for the offline default (the outbox). */
export function emailTransport(env: Env): EmailTransport | null {
  const token = env.POSTMARK_SERVER_TOKEN;
  if (!token) return null;
  return {
    name: 'postmark',
    async send(msg) {
      if (!env.EMAIL_FROM) return { ok: false, reason: 'EMAIL_FROM is not configured (the sender address for Postmark)', retry: false };
      // Header fields are cleaned here too (messages.ts cleans what it records): rows recorded before are sent clean.
      const body: Record<string, unknown> = {
        From: headerText(env.EMAIL_FROM),
        To: headerText(msg.to),
        Subject: headerText(msg.subject),
        TextBody: msg.text,
        MessageStream: env.POSTMARK_MESSAGE_STREAM ?? 'outbound',
      };
      if (msg.html) body.HtmlBody = msg.html;
      if (msg.replyTo) body.ReplyTo = headerText(msg.replyTo);
      if (msg.tag) body.Tag = headerText(msg.tag, 1000);
      if (msg.metadata && Object.keys(msg.metadata).length) body.Metadata = msg.metadata;
      let res: Response;
      try {
        res = await outbound.fetch(POSTMARK_URL, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json', 'x-postmark-server-token': token },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
      } catch (err) {
        return { ok: false, reason: `Postmark unreachable: ${String(err)}`, retry: true };
      }
      const json = (await res.json().catch(() => ({}))) as { MessageID?: string; ErrorCode?: number; Message?: string };
      if (res.ok && json.ErrorCode === 0 && json.MessageID) return { ok: true, providerMessageId: json.MessageID, providerStatus: json.Message ?? 'OK' };
      const reason = `Postmark ${json.ErrorCode ?? res.status}: ${json.Message ?? res.statusText ?? 'refused'}`;
      return { ok: false, reason, retry: res.status === 429 || res.status >= 500, code: json.ErrorCode, providerStatus: 'rejected' };
    },
  };
}
