// What a page shows in words, and the English words among them: the browser suite's check that a
// page switched to Chinese has no English left (the unit tests do the same on rendered markup).
import type { Page } from 'playwright-core';

/** Every text a person reads or hears on the page now: rendered text, labels, titles, placeholders, options. */
export function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const shown = (el: Element): boolean =>
      el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (!shown(el)) continue;
      for (const n of Array.from(el.childNodes)) {
        const text = n.nodeType === Node.TEXT_NODE ? (n.textContent ?? '').trim() : '';
        if (text !== '') out.push(text);
      }
      for (const a of ['aria-label', 'aria-valuetext', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v !== null && v.trim() !== '') out.push(v);
      }
      if (el instanceof HTMLSelectElement) for (const o of Array.from(el.options)) out.push(o.text);
    }
    return out;
  });
}

/** Latin words that a Chinese page may show: the brand, names that stay, each language's own name. */
const KEPT = ['Felt', 'HORSE', 'OHH', 'PHH', 'English'];

/** English words in `texts`, apart from `names` (players), ids, hashes and single capitals (ranks, keys). */
export function englishWords(texts: readonly string[], names: readonly string[] = []): string[] {
  const allowed = new Set([...KEPT, ...names]);
  const out: string[] = [];
  for (const text of texts) {
    for (const token of text.match(/[A-Za-z0-9_-]+/g) ?? []) {
      if (allowed.has(token)) continue;
      if (/[\d_]/.test(token) || !/[A-Za-z]/.test(token) || /^[0-9a-f]{8,}$/.test(token)) continue;
      if (/^[A-Z]$/.test(token)) continue;
      out.push(`${token}  ⟵  ${text}`);
    }
  }
  return out;
}
