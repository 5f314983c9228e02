/**
 * The one template engine of messages (src/lib/template.ts): values escaped in HTML by default,
 * sections and inverted sections, lists, and the e-mail layout with the operator's brand.
 */
import { describe, expect, it } from 'vitest';
import { render, renderEmail, rawHtml } from '../../src/lib/template';

describe('the template engine', () => {
  it('escapes every value in HTML and keeps text as is', () => {
    const data = { who: { name: `Tom & "Jerry" <b>'s` } };
    expect(render('<p>Hi {{who.name}}</p>', data, 'html')).toBe('<p>Hi Tom &amp; &quot;Jerry&quot; &lt;b&gt;&#39;s</p>');
    expect(render('Hi {{who.name}}', data, 'text')).toBe(`Hi Tom & "Jerry" <b>'s`);
    expect(render('{{a}}', { a: rawHtml('<i>x</i>') }, 'html')).toBe('<i>x</i>');
    expect(render('{{a}}', { a: rawHtml('<i>x</i>') }, 'text')).toBe('x');
  });

  it('reads flat dotted keys first, then nested paths; a missing value renders empty', () => {
    expect(render('{{renter.firstName}}|{{booking.total}}|{{nope.x}}', { 'renter.firstName': 'Rita', booking: { total: '$5' } }, 'text')).toBe('Rita|$5|');
  });

  it('renders sections for truthy values, repeats them over lists, and inverted sections for empty ones', () => {
    const t = `{{#items}}
- {{name}} ({{owner}})
{{/items}}
{{^items}}
nothing
{{/items}}
{{#flag}}on{{/flag}}{{^flag}}off{{/flag}}
{{#tags}}[{{.}}]{{/tags}}`;
    expect(render(t, { owner: 'op', items: [{ name: 'a' }, { name: 'b', owner: 'own' }], flag: true, tags: ['x', '<y>'] }, 'html')).toBe(
      '- a (op)\n- b (own)\non\n[x][&lt;y&gt;]',
    );
    expect(render(t, { items: [], flag: 0, tags: [] }, 'text')).toBe('nothing\noff\n');
  });

  it('throws on an unclosed or mismatched section', () => {
    expect(() => render('{{#a}}x', {}, 'text')).toThrow(/never closed/);
    expect(() => render('{{#a}}x{{/b}}', {}, 'text')).toThrow(/closes/);
  });

  it('wraps the HTML part in the layout under the brand; an unsafe logo or colour is dropped', () => {
    const t = { subject: 'Hi  {{name}}\n', text: 'Hello {{name}}\n\n\n\nBye', html: '<p>Hello {{name}}</p><p> </p>' };
    const ok = renderEmail(t, { name: '<Rita>' }, { name: 'Bay & Co', logoUrl: 'https://cdn.example.com/logo.png', color: '#112233' });
    expect(ok.subject).toBe('Hi <Rita>');
    expect(ok.text).toBe('Hello <Rita>\n\nBye');
    expect(ok.html).toContain('<p>Hello &lt;Rita&gt;</p>');
    expect(ok.html).not.toContain('<p> </p>');
    expect(ok.html).toContain('<img src="https://cdn.example.com/logo.png" alt="Bay &amp; Co"');
    expect(ok.html).toContain('border-bottom:4px solid #112233');
    const bad = renderEmail(t, { name: 'x' }, { name: 'B', logoUrl: 'javascript:alert(1)', color: 'red;background:url(x)' });
    expect(bad.html).not.toContain('<img');
    expect(bad.html).not.toContain('javascript');
    expect(bad.html).toContain('border-bottom:4px solid #0b5cab');
  });
});
