import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi, type TestKey } from '../../server/test/helpers/harness.js';
import { browserSkipReason, enforceStrictCsp, launchBrowser, type TestBrowser } from './helpers/browser.js';
import { SAMPLE_EDGES, seedSampleBrain } from './helpers/sample-brain.js';

/**
 * What a person sees (issue 38), in Debian's Chromium against the real server: the header
 * before and after sign-in, the brain opened first, labels of a selection and its neighbours
 * (read from sigma's own state), the panel's folding of empty fields, crystallize's message
 * and the dark theme.
 */
const skip = browserSkipReason();

describe('web explorer: what a person sees', { skip }, () => {
  let api: TestApi;
  let key: TestKey;
  let baseUrl: string;
  let browser: TestBrowser;
  let ids: Record<string, string>;

  const post = async (url: string, body: unknown, as: TestKey = key) => {
    const response = await api.request('POST', url, { key: as, body });
    assert.ok(response.status < 300, `POST ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };

  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    key = await api.newKey();
    ids = await seedSampleBrain((url, body) => post(url, body));
    // A newer brain in the same account: the brain list is newest first, so a page that opened
    // the list's first brain would open this one instead of the key's default brain.
    const other = (await post('/v1/brains', { name: 'Research' })).data.id;
    await post('/v1/snapshots', { name: 'Elsewhere', core: 'A snapshot in the other brain', brain_id: other });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  async function signIn(page: Page, apiKey = key.key, path = '/'): Promise<void> {
    await page.goto(`${baseUrl}${path}`);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('section[aria-label="Graph"][data-loaded="true"]').waitFor({ timeout: 60_000 });
  }

  test('the header shows the key field before sign-in, and the brain, reload and sign out after', async () => {
    const { page, context } = await browser.newPage();
    await page.goto(baseUrl);
    assert.equal(await page.getByLabel('API key').isVisible(), true);
    assert.equal(await page.getByLabel('Brain').isVisible(), false);
    assert.equal(await page.getByRole('button', { name: 'Reload' }).isVisible(), false);
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).isVisible(), false);
    await signIn(page);
    assert.equal(await page.getByLabel('API key').isVisible(), false);
    assert.equal(await page.getByRole('button', { name: 'Sign in' }).isVisible(), false);
    assert.equal(await page.getByLabel('Brain').isVisible(), true);
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).isVisible(), true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    assert.equal(await page.getByLabel('API key').isVisible(), true);
    assert.equal(await page.getByLabel('Brain').isVisible(), false);
    await context.close();
  });

  test("the key's default brain opens first, and is first in the picker", async () => {
    const { page, context } = await browser.newPage();
    await signIn(page);
    assert.equal(await page.getByLabel('Brain').inputValue(), key.brainId);
    const first = await page.locator('#brain option').first().getAttribute('value');
    assert.equal(first, key.brainId);
    assert.equal(await page.locator('#graph-region').getAttribute('data-nodes'), '25');

    // A key whose default brain is empty, in an account whose other brain is not: still its own.
    const lonely = await api.newKey();
    const full = (await post('/v1/brains', { name: 'Full' }, lonely)).data.id;
    await post('/v1/snapshots', { name: 'Only one', core: 'The only snapshot here', brain_id: full }, lonely);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, lonely.key);
    assert.equal(await page.getByLabel('Brain').inputValue(), lonely.brainId);
    await page.getByRole('region', { name: 'Graph' }).getByText('This brain is empty').waitFor();
    await context.close();
  });

  test('two brains of one name are told apart in the picker by the ends of their ids', async () => {
    const twin = await api.newKey();
    const a = (await post('/v1/brains', { name: 'Notes' }, twin)).data.id;
    const b = (await post('/v1/brains', { name: 'Notes' }, twin)).data.id;
    const { page, context } = await browser.newPage();
    await signIn(page, twin.key);
    const label = (id: string) => page.locator(`#brain option[value="${id}"]`).innerText();
    const [first, second] = [await label(a), await label(b)];
    assert.notEqual(first, second);
    assert.ok(first.includes(a.slice(-6)), first);
    assert.ok(second.includes(b.slice(-6)), second);
    await context.close();
  });

  test('the selection and its neighbours are labelled, as sigma drew them; the rest fades', async () => {
    const { page, context } = await browser.newPage({ width: 1440, height: 900 });
    await signIn(page, key.key, `/?snapshot=${ids.sleep}`);
    await page.getByRole('region', { name: 'Snapshot' }).getByRole('heading', { name: 'Sleep first' }).waitFor();
    const neighbours = SAMPLE_EDGES.filter(([s, t]) => s === 'sleep' || t === 'sleep').map(([s, t]) =>
      s === 'sleep' ? t : s,
    );
    assert.ok(neighbours.length >= 5);
    // The camera flies to the neighbourhood before sigma labels it: wait for the flight to end
    // (a fixed 700 ms was too short on a loaded machine), then assert on what was drawn.
    const expected = JSON.stringify(['sleep', ...neighbours].map((handle) => ids[handle]));
    await page
      .waitForFunction(
        `(() => {
          const view = window.snapgraphExplorer.view();
          const drawn = new Set(view.labels.drawn);
          return ${expected}.every((id) => drawn.has(id));
        })()`,
        undefined,
        { timeout: 60_000 },
      )
      .catch(() => undefined); // the assertions below say what is missing
    const state = (await page.evaluate(`(() => {
      const view = window.snapgraphExplorer.view();
      const labelled = [...view.renderer.getNodeDisplayedLabels()];
      const drawn = [...view.labels.drawn];
      const colour = (id) => view.renderer.getNodeDisplayData(id).color;
      return { labelled, drawn, far: colour(${JSON.stringify(ids.plans1)}), near: colour(${JSON.stringify(ids.grind)}) };
    })()`)) as { labelled: string[]; drawn: string[]; far: string; near: string };
    for (const handle of ['sleep', ...neighbours]) {
      assert.ok(state.labelled.includes(ids[handle]!), `${handle} is among sigma's displayed labels`);
      assert.ok(state.drawn.includes(ids[handle]!), `${handle}'s label is drawn`);
    }
    assert.ok(!state.drawn.includes(ids.plans1!), 'a snapshot outside the neighbourhood has no label');
    assert.notEqual(state.far, state.near, 'outside the neighbourhood a node is faded');
    await context.close();
  });

  test('the panel shows the fields with values; the empty ones are behind "Show all fields"', async () => {
    const emotional = (
      await post('/v1/snapshots', {
        name: 'Joy of shipping',
        core: 'Shipping small things often keeps the team happy',
        emotion: { primary: 'joy', intensity: 0.8 },
        story: 'We shipped every Friday for a year.',
      })
    ).data.id;
    const { page, context } = await browser.newPage();
    const violations = await enforceStrictCsp(page);
    await signIn(page, key.key, `/?snapshot=${emotional}`);
    const panel = page.getByRole('region', { name: 'Snapshot' });
    await panel.getByRole('heading', { name: 'Joy of shipping' }).waitFor();
    const field = (name: string) => panel.locator(`dd[data-field="${name}"]`);
    assert.equal(await field('story').isVisible(), true);
    assert.equal(await field('emotion').innerText(), 'Joy, strong (0.8)');
    assert.equal(await field('method').isVisible(), false, 'an empty field is folded');
    assert.equal(await field('challenge').isVisible(), false);
    await panel.getByRole('button', { name: /Show all fields \(\d+ empty\)/ }).click();
    assert.equal(await field('method').isVisible(), true);
    assert.equal(await field('method').innerText(), '—');
    await panel.getByRole('button', { name: 'Hide empty fields' }).click();
    assert.equal(await field('method').isVisible(), false);
    assert.deepEqual(await violations(), [], 'the page keeps to a strict Content-Security-Policy');
    await api.request('DELETE', `/v1/snapshots/${emotional}`, { key });
    await context.close();
  });

  test('crystallize says what it made, highlights it, and says why when nothing was new', async () => {
    const fresh = await api.newKey();
    const { page, context } = await browser.newPage({ width: 1440, height: 900 });
    const violations = await enforceStrictCsp(page);
    await signIn(page, fresh.key);
    const text =
      'I have learned that writing every morning clears my head. Deep work needs long uninterrupted ' +
      'blocks of time. Meetings after lunch drain my energy more than anything else.';
    const result = page.locator('#crystallize-result');
    await page.getByLabel('Text to crystallize').fill(text);
    await page.getByRole('button', { name: 'Crystallize' }).click();
    await result.getByText(/^Added \d+ new snapshots? and \d+ automatic edges? from \d+ insights?/).waitFor({
      timeout: 60_000,
    });
    const made = await result.getByRole('list', { name: 'Crystallized snapshots' }).getByRole('listitem').count();
    assert.ok(made > 0);
    await page.locator(`section[aria-label="Graph"][data-fresh="${made}"]`).waitFor();

    await page.getByLabel('Text to crystallize').fill(text);
    await page.getByRole('button', { name: 'Crystallize' }).click();
    const again = await result
      .getByText(/^Nothing new: (all \d+ insights were|the 1 insight was) already in this brain\./)
      .textContent({ timeout: 60_000 });
    assert.match(again ?? '', /Paste text with ideas the brain does not hold yet/);
    assert.deepEqual(await violations(), []);
    await context.close();
  });

  test('the dark theme applies when the system asks for it, and only then', async () => {
    const background = async (scheme: 'dark' | 'light') => {
      const context = await browser.browser.newContext({ colorScheme: scheme });
      const page = await context.newPage();
      await signIn(page);
      const colours = await page.evaluate(`({
        body: getComputedStyle(document.body).backgroundColor,
        canvas: getComputedStyle(document.getElementById('graph-region')).backgroundColor,
        dark: window.snapgraphExplorer.view().labels.theme.dark,
      })`);
      await context.close();
      return colours as { body: string; canvas: string; dark: boolean };
    };
    const dark = await background('dark');
    const light = await background('light');
    assert.deepEqual(dark, { body: 'rgb(11, 13, 18)', canvas: 'rgb(17, 20, 27)', dark: true });
    assert.deepEqual(light, { body: 'rgb(243, 244, 247)', canvas: 'rgb(248, 249, 251)', dark: false });
  });
});
