import { type Page, expect } from '@playwright/test';
import { isPhone } from './flows';

/**
 * What axe does not check (WCAG 1.3.1, 2.4.1): the screen has exactly one h1 and one main
 * landmark, its first focusable element is the "Skip to main content" link, and a screen with
 * navigation has it as a nav landmark (on a back-office phone: the button opening the menu drawer).
 */
export async function expectStructure(page: Page, name: string) {
  const found = await page.evaluate(() => {
    const tabbable = [
      ...document.querySelectorAll<HTMLElement>(
        'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])',
      ),
    ].filter((el) => el.checkVisibility() && el.tabIndex >= 0);
    const first = tabbable[0];
    return {
      h1: [...document.querySelectorAll('h1')].map((h) => (h as HTMLElement).innerText.trim()),
      mains: document.querySelectorAll('main, [role="main"]').length,
      firstFocusable: first ? `${first.tagName.toLowerCase()} ${first.innerText.trim()}`.trim() : null,
      navs: [...document.querySelectorAll('nav, [role="navigation"]')]
        .filter((n) => (n as HTMLElement).checkVisibility())
        .map((n) => n.getAttribute('aria-label') ?? ''),
      path: window.location.pathname,
    };
  });
  expect.soft(found.h1, `${name}: exactly one h1`).toHaveLength(1);
  expect.soft(found.mains, `${name}: one main landmark`).toBe(1);
  expect.soft(found.firstFocusable, `${name}: the skip link comes first`).toBe('a Skip to main content');
  const inApp = /^\/(portal|admin)(\/|$)/.test(found.path);
  if (!inApp) return;
  if (found.path.startsWith('/admin') && isPhone(page)) {
    await expect.soft(page.getByRole('button', { name: 'Open menu' }), `${name}: the menu button`).toBeVisible();
    return;
  }
  expect.soft(found.navs.length, `${name}: a nav landmark`).toBeGreaterThan(0);
  expect(
    found.navs.every((label) => label !== ''),
    `${name}: every nav has a name`,
  ).toBe(true);
}
