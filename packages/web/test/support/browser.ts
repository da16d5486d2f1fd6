import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's Chromium (docs/web-client.md): playwright-core never downloads a browser here. */
export const CHROMIUM_PATH = process.env.FELT_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 860 } };
export const TABLET: BrowserContextOptions = { viewport: { width: 820, height: 1100 }, hasTouch: true };
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

export const ARTIFACTS = fileURLToPath(new URL('../../../../artifacts/web/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Every element whose own text renders smaller than `minPx` (the floor is 11 px). */
export function smallText(page: Page, minPx = 11): Promise<string[]> {
  return page.evaluate((min) => {
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const own = Array.from(el.childNodes).some(
        (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
      );
      if (!own) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const rect = el.getBoundingClientRect();
      // Visually hidden text (1 px boxes for screen readers) is not read by eyes.
      if (rect.width <= 1 || rect.height <= 1) continue;
      const size = parseFloat(style.fontSize);
      if (size < min)
        out.push(
          `${el.tagName.toLowerCase()}.${el.className}: ${size}px "${(el.textContent ?? '').trim().slice(0, 30)}"`,
        );
    }
    return out;
  }, minPx);
}
