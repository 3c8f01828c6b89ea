import { expect, test } from '@playwright/test';
import { gzipSync } from 'node:zlib';

/** The sign-in page is the first thing everyone loads: its JavaScript must stay within 150 kB gzipped. */
const BUDGET_BYTES = 150 * 1024;

test('the sign-in page loads at most 150 kB of gzipped JavaScript', async ({ page }) => {
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!type.includes('javascript')) return;
    const body = await response.body().catch(() => null);
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).length);
  });
  await page.goto('/session/signin', { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();

  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const listing = [...scripts.entries()].map(([path, size]) => `${path} ${(size / 1024).toFixed(1)} kB`).join('\n');
  console.log(`JavaScript de /session/signin: ${(total / 1024).toFixed(1)} kB gzip en ${scripts.size} archivos\n${listing}`);
  expect(scripts.size).toBeGreaterThan(0);
  expect(total, listing).toBeLessThanOrEqual(BUDGET_BYTES);
});
