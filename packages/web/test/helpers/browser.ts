import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core: no browser download, ever. Absent locally, the
 * browser tests skip with a notice; under CI=true they are mandatory (.ci/run installs chromium).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.env.CI) {
    throw new Error(
      `${CHROMIUM} is missing, and the browser tests are mandatory under CI=true (apt-get install chromium)`,
    );
  }
  const reason = `SKIPPED: ${CHROMIUM} not found; install Debian's chromium to run the browser tests`;
  console.warn(`\n*** web explorer browser tests ${reason} ***\n`);
  return reason;
}

export interface TestBrowser {
  browser: Browser;
  newPage(options?: { width?: number; height?: number }): Promise<{ page: Page; context: BrowserContext }>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  // playwright-core gives every launch a fresh, empty profile of its own (it refuses
  // --user-data-dir in args), which is what the machine notes ask for.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // WebGL without a GPU: SwiftShader, so sigma draws in headless Chromium.
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
  return {
    browser,
    newPage: async ({ width = 1280, height = 800 } = {}) => {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      page.on('pageerror', (err) => console.error('page error:', err.message));
      return { page, context };
    },
    close: async () => {
      await browser.close();
    },
  };
}

/** Screenshots of the main states, as test artefacts (test-results/, not committed). */
export const ARTEFACTS = join(import.meta.dirname, '..', '..', 'test-results');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTEFACTS, `${name}.png`) });
}

/**
 * The Content-Security-Policy the server sends with the explorer (no inline script or style,
 * workers from the page's own origin), added here to every response the page gets, so the
 * tests hold the page to it whatever the server in this branch sends. Returns the violations
 * the page reported.
 */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

export async function enforceStrictCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.route('**/*', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': STRICT_CSP } });
  });
  await page.addInitScript(`{
    window.cspViolations_ = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations_.push(e.violatedDirective + ' ' + (e.blockedURI || e.sample || '')));
  }`);
  return () => page.evaluate(() => (window as unknown as { cspViolations_: string[] }).cspViolations_);
}
