/**
 * Reading a web page with the runtime's streaming HTML parser (HTMLRewriter): its visible text, its
 * sections (a heading and what follows it), meta data, links, images, forms and structured data
 * (JSON-LD). Nothing of the page runs.
 */
const BLOCK = 'p,div,li,tr,br,section,article,header,footer,h1,h2,h3,h4,h5,h6,dt,dd,figcaption,address,blockquote,pre,table,ul,ol';
// (script is hidden too, by its own handler: an element has one end-tag handler.)
const HIDDEN = 'style,noscript,template,svg,head';

export interface Section {
  heading: string;
  level: number;
  text: string;
  images: string[];
}

export interface PageFacts {
  title: string | null;
  description: string | null;
  lang: string | null;
  viewport: boolean;
  canonical: string | null;
  og: Record<string, string>;
  headings: { level: number; text: string }[];
  images: { src: string; alt: string | null }[];
  links: string[];
  forms: number;
  scripts: number;
  jsonLd: unknown[];
  text: string;
  sections: Section[];
}

const squeeze = (s: string) =>
  s
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
const decode = (s: string) =>
  s
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)));

const absolute = (href: string, base: string) => {
  try {
    return new URL(href, base).toString();
  } catch {
    return null;
  }
};

const MAX_TEXT = 300_000;

export async function pageFacts(html: string, baseUrl: string): Promise<PageFacts> {
  const f: PageFacts = {
    title: null,
    description: null,
    lang: null,
    viewport: false,
    canonical: null,
    og: {},
    headings: [],
    images: [],
    links: [],
    forms: 0,
    scripts: 0,
    jsonLd: [],
    text: '',
    sections: [],
  };
  let hidden = 0;
  let text = '';
  let title = '';
  let inTitle = false;
  let ld: string | null = null;
  let heading: { level: number; text: string } | null = null;
  let section: Section = { heading: '', level: 0, text: '', images: [] };
  const sections: Section[] = [section];
  const push = (s: string) => {
    if (text.length < MAX_TEXT) text += s;
    section.text += s;
  };
  const rewriter = new HTMLRewriter()
    .on('html', { element: (e) => void (f.lang = e.getAttribute('lang')) })
    .on('title', {
      element: (e) => {
        inTitle = true;
        e.onEndTag(() => void (inTitle = false));
      },
      text: (t) => void (title += t.text),
    })
    .on('meta', {
      element: (e) => {
        const name = (e.getAttribute('name') ?? e.getAttribute('property') ?? '').toLowerCase();
        const content = e.getAttribute('content');
        if (name === 'description' && content) f.description = decode(content).trim();
        if (name === 'viewport') f.viewport = true;
        if ((name.startsWith('og:') || name.startsWith('product:')) && content) f.og[name] = decode(content).trim();
      },
    })
    .on('link[rel="canonical"]', { element: (e) => void (f.canonical = e.getAttribute('href')) })
    .on('script', {
      element: (e) => {
        f.scripts++;
        hidden++;
        const isLd = (e.getAttribute('type') ?? '').toLowerCase().includes('ld+json');
        if (isLd) ld = '';
        e.onEndTag(() => {
          hidden--;
          if (!isLd) return;
          try {
            const parsed = JSON.parse(ld ?? '');
            f.jsonLd.push(...(Array.isArray(parsed) ? parsed : [parsed]));
          } catch {
            // malformed structured data is skipped
          }
          ld = null;
        });
      },
      text: (t) => {
        if (ld !== null) ld += t.text;
      },
    })
    .on(HIDDEN, {
      element: (e) => {
        hidden++;
        e.onEndTag(() => void hidden--);
      },
    })
    .on('h1,h2,h3,h4', {
      element: (e) => {
        const level = Number(e.tagName.slice(1));
        heading = { level, text: '' };
        push('\n');
        e.onEndTag(() => {
          const h = heading!;
          h.text = squeeze(decode(h.text));
          if (h.text) {
            f.headings.push({ level: h.level, text: h.text });
            section = { heading: h.text, level: h.level, text: '', images: [] };
            sections.push(section);
          }
          heading = null;
          push('\n');
        });
      },
    })
    .on(BLOCK, { element: () => push('\n') })
    // Cells of a table row stay on the row's line.
    .on('td,th', { element: () => push(' ') })
    .on('img', {
      element: (e) => {
        const src = e.getAttribute('src') ?? e.getAttribute('data-src');
        const abs = src ? absolute(src, baseUrl) : null;
        if (!abs) return;
        f.images.push({ src: abs, alt: e.getAttribute('alt') });
        section.images.push(abs);
      },
    })
    .on('a', {
      element: (e) => {
        const href = e.getAttribute('href');
        const abs = href ? (/^(tel|mailto):/i.test(href) ? href : absolute(href, baseUrl)) : null;
        if (abs && f.links.length < 2000) f.links.push(abs);
      },
    })
    .on('form', { element: () => void f.forms++ })
    .onDocument({
      text: (t) => {
        if (inTitle || hidden > 0) return;
        if (heading) heading.text += t.text;
        push(t.text);
      },
    });
  await rewriter.transform(new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })).text();
  f.title = squeeze(decode(title)) || null;
  f.text = squeeze(decode(text));
  f.sections = sections.map((s) => ({ ...s, text: squeeze(decode(s.text)) })).filter((s) => s.heading || s.text);
  return f;
}

/** The visible text of an HTML document, one block per line. */
export async function pageText(html: string): Promise<string> {
  return (await pageFacts(html, 'https://invalid.example/')).text;
}
