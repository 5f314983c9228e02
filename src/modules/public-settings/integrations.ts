/**
 * What the booking widget's host page may load, read from the operator's account `integrations`
 * (PATCH /customer, merged). Each reader validates the stored value and answers only the fields it
 * knows (ids and snippets as plain data, never executed by the API); a missing, disabled
 * (`enabled: false`) or malformed entry counts as not configured.
 *
 *   customCode        { head?: string, body?: string }   HTML snippets for the host page (at most 50 KB each)
 *   tagManager        { containerId: "GTM-AB12CD3" }
 *   socialConversion  { metaPixelId?, tiktokPixelId?, snapPixelId?, pinterestTagId?, linkedinPartnerId?,
 *                       googleAdsConversionId?, googleAdsConversionLabel? }
 *   videoPixel        { provider: "youtube" | "tiktok" | "vimeo" | "wistia" | ..., pixelId }
 *   chatMessaging     { provider: "intercom" | "crisp" | "tawk" | "whatsapp" | "messenger" | ..., appId?, widgetId?,
 *                       phoneNumber?, pageId?, welcomeMessage? }
 *   reviewConnections { google: { url }, tripadvisor: { url, locationIds? }, ... }   (a location's details may override)
 */
const ID = /^[A-Za-z0-9_.:+-]{1,128}$/;
const MAX_SNIPPET = 50 * 1024;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const enabled = (o: Obj | null) => o !== null && o.enabled !== false;
const id = (v: unknown) => (typeof v === 'string' && ID.test(v.trim()) ? v.trim() : null);
const snippet = (v: unknown) => (typeof v === 'string' && v.trim() && v.length <= MAX_SNIPPET ? v : null);

export function customCodeOf(integrations: Obj) {
  const raw = integrations.customCode;
  const o = typeof raw === 'string' ? { body: raw } : obj(raw);
  if (!enabled(o)) return null;
  const head = snippet(o!.head);
  const body = snippet(o!.body);
  return head || body ? { head, body } : null;
}

export function tagManagerOf(integrations: Obj) {
  const raw = integrations.tagManager;
  const o = typeof raw === 'string' ? { containerId: raw } : obj(raw);
  if (!enabled(o)) return null;
  const containerId = typeof o!.containerId === 'string' && /^GTM-[A-Z0-9]{4,12}$/.test(o!.containerId.trim()) ? o!.containerId.trim() : null;
  return containerId ? { containerId } : null;
}

const PIXELS = {
  metaPixelId: 'meta',
  facebookPixelId: 'meta',
  tiktokPixelId: 'tiktok',
  snapPixelId: 'snapchat',
  pinterestTagId: 'pinterest',
  linkedinPartnerId: 'linkedin',
  googleAdsConversionId: 'google_ads',
} as const;

export function socialConversionOf(integrations: Obj) {
  const o = obj(integrations.socialConversion);
  if (!enabled(o)) return null;
  const pixels: { platform: string; id: string; label: string | null }[] = [];
  for (const [field, platform] of Object.entries(PIXELS)) {
    const v = id(o![field]);
    if (v && !pixels.some((p) => p.platform === platform))
      pixels.push({ platform, id: v, label: platform === 'google_ads' ? id(o!.googleAdsConversionLabel) : null });
  }
  return pixels.length ? { pixels } : null;
}

export function videoPixelOf(integrations: Obj) {
  const o = obj(integrations.videoPixel);
  if (!enabled(o)) return null;
  const provider = typeof o!.provider === 'string' && /^[a-z0-9_-]{2,32}$/.test(o!.provider) ? o!.provider : null;
  const pixelId = id(o!.pixelId);
  return provider && pixelId ? { provider, pixelId } : null;
}

const CHAT_FIELDS = ['appId', 'widgetId', 'propertyId', 'pageId', 'phoneNumber', 'websiteId'] as const;

export function chatMessagingOf(integrations: Obj) {
  const o = obj(integrations.chatMessaging);
  if (!enabled(o)) return null;
  const provider = typeof o!.provider === 'string' && /^[a-z0-9_-]{2,32}$/.test(o!.provider) ? o!.provider : null;
  if (!provider) return null;
  const settings: Record<string, string> = {};
  for (const f of CHAT_FIELDS) {
    const v = id(o![f]);
    if (v) settings[f] = v;
  }
  if (!Object.keys(settings).length) return null;
  const welcome = typeof o!.welcomeMessage === 'string' ? o!.welcomeMessage.trim().slice(0, 500) : '';
  return { provider, settings, welcomeMessage: welcome || null };
}

export interface ReviewConnection {
  name: string;
  url: string;
}

/** Review platforms configured for a location: the location's `details.reviewConnections` win over the account's. */
export function reviewConnectionsOf(integrations: Obj, locationId: string, locationDetails: Obj | null): ReviewConnection[] {
  const out = new Map<string, string>();
  const read = (src: unknown, scoped: boolean) => {
    const o = obj(src);
    if (!o) return;
    for (const [name, v] of Object.entries(o)) {
      const c = obj(v);
      if (!/^[a-z0-9_-]{2,32}$/.test(name) || !enabled(c) || typeof c!.url !== 'string' || !/^https:\/\/[^\s]{4,500}$/.test(c!.url)) continue;
      const only = Array.isArray(c!.locationIds) ? (c!.locationIds as unknown[]) : null;
      if (scoped && only && !only.includes(locationId)) continue;
      out.set(name, c!.url);
    }
  };
  read(integrations.reviewConnections, true);
  read(locationDetails?.reviewConnections, false);
  return [...out.entries()].map(([name, url]) => ({ name, url })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The widget's look and links (`integrations.widget`): colours as #rrggbb, https URLs. */
export function widgetLookOf(integrations: Obj) {
  const o = obj(integrations.widget) ?? {};
  const color = (v: unknown) => (typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v) ? v.toLowerCase() : null);
  const url = (v: unknown) => (typeof v === 'string' && /^https:\/\/[^\s"'<>]{4,500}$/.test(v) ? v : null);
  return {
    primaryColor: color(o.primaryColor),
    accentColor: color(o.accentColor),
    logoUrl: url(o.logoUrl),
    termsUrl: url(o.termsUrl),
    privacyUrl: url(o.privacyUrl),
  };
}
