/**
 * The member's welcome e-mail, rendered by the one template engine (lib/template.ts) into a
 * plain-text and an HTML part under the operator's brand, with the single-use member-portal link
 * (on the public origin, portal-links.ts) when one was asked for.
 */
import { renderEmail, type EmailBrand, type EmailTemplate, type RenderedEmail } from '../../lib/template';

const WELCOME: EmailTemplate = {
  subject: 'Welcome to {{tier}}',
  text: `Hello {{name}},

Your {{tier}} membership with {{business}} is active until {{until}} and renews {{cycle}} at {{price}}.
{{#portal}}

Manage your membership (card, pause, cancel, invoices): {{url}}
This link works once and expires in {{minutes}} minutes.
{{/portal}}

{{business}}`,
  html: `<p>Hello {{name}},</p>
<p>Your <strong>{{tier}}</strong> membership with {{business}} is active until <strong>{{until}}</strong> and renews {{cycle}} at {{price}}.</p>
{{#portal}}
<p><a href="{{url}}" style="display:inline-block;padding:8px 14px;background:#0b5cab;color:#ffffff;border-radius:4px;text-decoration:none">Manage your membership</a></p>
<p style="color:#555">Card, pause, cancel and invoices. This link works once and expires in {{minutes}} minutes.</p>
{{/portal}}`,
};

export function welcomeMail(
  brand: EmailBrand,
  o: { name: string; tier: string; until: string; cycle: string; price: string; portal: { url: string; minutes: number } | null },
): RenderedEmail {
  return renderEmail(WELCOME, { ...o, business: brand.name }, brand);
}
