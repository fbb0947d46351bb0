import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { GROUPS } from '@/components/manifests/review-query';
import { E2E_ADMIN, E2E_BASE_URL } from '../playwright.config';

/**
 * Signs in on the sign-in page and waits for the portal. "Signed in as …" is checked in the page rather than on
 * screen: on a phone it sits in the folded menu.
 */
export async function signIn(page: Page, user = E2E_ADMIN) {
  await page.goto('/signin');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Signed in as ${user.username}`)).toBeAttached();
  await expect(page.getByRole('main')).toBeVisible();
}

/** Opens the menu when the navigation is folded behind it (phones); does nothing when it is shown already. */
export async function openMenu(page: Page) {
  const toggle = page.getByRole('button', { name: 'Menu' });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** Goes to a page through the main navigation, as a person would at either width. */
export async function navigateTo(page: Page, label: string | RegExp) {
  await openMenu(page);
  const link = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: typeof label === 'string' ? new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) : label });
  const href = await link.getAttribute('href');
  await link.click();
  // the page left is still shown until the router has the new one: what the caller looks for next is on the new page
  if (href) await page.waitForURL((url) => url.pathname === new URL(href, url).pathname);
}

export { E2E_ADMIN };

/**
 * What the portal's own pages send with a change made with the session cookie: the site it comes from. The API
 * refuses such a change without it (lib/api/auth.ts), as a script is to send an API key instead.
 */
export const FROM_PORTAL = { origin: E2E_BASE_URL };

/**
 * The page does not scroll sideways at its viewport width, no element's right edge passes the screen, and no text is
 * cut off inside a box that hides what overflows it (which `scrollWidth` does not see); on failure, names them. What
 * lies inside a box that scrolls sideways on purpose (a wide table's .table-wrap) is that box's business.
 */
export async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  const report = await page.evaluate((w) => {
    const named = (el: Element, what: string) =>
      `<${el.tagName.toLowerCase()} class="${el.className}"> ${what}: ${(el.textContent ?? '').replace(/\s+/g, ' ').slice(0, 60)}`;
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const inScroller = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (scrolls(up)) return true;
      return false;
    };
    const outside: string[] = [];
    // form controls, pictures and drawings scroll or scale their own content
    const ownContent = 'input, textarea, select, svg, svg *, img, video, canvas, iframe';
    const hasText = (el: Element) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || inScroller(el)) continue;
      const style = getComputedStyle(el);
      // text for screen readers only is clipped to a pixel on purpose; what is hidden shows nothing
      if (style.clip !== 'auto' || style.clipPath !== 'none' || el.clientWidth <= 1 || style.visibility === 'hidden') continue;
      if (r.right > w + 0.5) outside.push(named(el, `right=${Math.round(r.right)}`));
      // a box that clips its text on purpose says so with an ellipsis; one that hides a long name does not
      else if (
        !el.matches(ownContent) &&
        hasText(el) &&
        (style.overflowX === 'hidden' || style.overflowX === 'clip') &&
        style.textOverflow !== 'ellipsis' &&
        el.scrollWidth > el.clientWidth + 1
      )
        outside.push(named(el, `cut off: ${el.scrollWidth} px of content in ${el.clientWidth}`));
    }
    // what reaches furthest right, scroll areas included: names the culprit when the page scrolls for another reason
    const furthest = [...document.querySelectorAll('body *')]
      .map((el) => ({ el, right: el.getBoundingClientRect().right }))
      .sort((a, b) => b.right - a.right)
      .slice(0, 5)
      .map(({ el, right }) => named(el, `right=${Math.round(right)}`));
    return { scrollWidth: document.documentElement.scrollWidth, outside: outside.slice(0, 10), furthest };
  }, width);
  expect(report.scrollWidth, `wider than ${width} px:\n${[...report.outside, ...report.furthest].join('\n')}`).toBeLessThanOrEqual(width);
  expect(report.outside, `past the right edge of ${width} px, or cut off`).toEqual([]);
}

/** A name no other test (or the same test in the other project) uses, so specs never depend on each other's data. */
export function unique(testInfo: TestInfo, base: string): string {
  return `${base} ${testInfo.project.name} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** The admin's API key, for setting up users and data through the API the way a script would. */
export async function adminKey(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/apiKey', { data: E2E_ADMIN });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

export interface E2eUser {
  username: string;
  password: string;
  id: number;
}

/** The user's own API key as request headers, for their script's calls. */
export async function keyHeaders(request: APIRequestContext, user: E2eUser): Promise<Record<string, string>> {
  const res = await request.post('/api/apiKey', { data: { username: user.username, password: user.password } });
  expect(res.status()).toBe(200);
  return { authorization: `token ${((await res.json()) as { token: string }).token}` };
}

/**
 * A user of its own for one test: member (and, if asked, sample manager) of the given Tree of Life projects, and
 * approver of the given associated types.
 */
export async function createUser(
  request: APIRequestContext,
  testInfo: TestInfo,
  opts: { memberOf?: string[]; managerOf?: string[]; approverOf?: string[]; isAdmin?: boolean; email?: string } = {},
): Promise<E2eUser> {
  const username = unique(testInfo, 'user').replace(/\s+/g, '-').toLowerCase().slice(0, 60);
  const password = `${username}-password`;
  const res = await request.post('/api/admin/users', {
    headers: { authorization: `token ${await adminKey(request)}` },
    data: {
      username,
      password,
      email: opts.email ?? `${username}@example.org`,
      is_admin: opts.isAdmin ?? false,
      member_of: opts.memberOf ?? [],
      manager_of: opts.managerOf ?? [],
      approver_of: opts.approverOf ?? [],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { username, password, id: ((await res.json()) as { id: number }).id };
}

/** A screenshot of the page as it is now, under e2e/screenshots/<project>/<name>.png. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${testInfo.project.name}/${name}.png`, fullPage: true });
}

/**
 * axe (WCAG 2 A and AA) on the page once nothing is loading: no serious or critical violation. `what` names the page
 * in a failure; `report` also prints every lesser violation found, for the page-by-page sweep.
 */
export async function expectAccessible(page: Page, what = 'this page', { report = false } = {}) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  // Next.js streams a dynamic page's metadata after its body: its <title> may come after the last busy part ends
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  if (report && results.violations.length) {
    const summary = results.violations.map(
      (v) =>
        `${v.impact ?? 'unknown'} ${v.id}: ${v.help}\n    ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join('\n    ')}`,
    );
    console.log(`axe on ${what}: ${results.violations.length} violated\n  ${summary.join('\n  ')}`);
  }
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    blocking.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}`),
    `serious or critical on ${what}`,
  ).toEqual([]);
}

/**
 * Opens the review queue's page that lists the manifest and answers its group: the queue lists the newest manifests
 * first, GROUPS a page, so manifests other tests confirmed since may come before this one. A group the server sent
 * after the rest of the page is shown a moment after the page has loaded: its place is busy until then.
 */
export async function reviewGroupOf(page: Page, fileName: string): Promise<Locator> {
  const group = page.getByRole('region', { name: fileName });
  for (let offset = 0; ; offset += GROUPS) {
    await page.goto(`/manifests/review${offset ? `?offset=${offset}` : ''}`);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
    if (await group.count()) return group;
    expect(offset, `${fileName} is not in the review queue`).toBeLessThan(300);
  }
}
