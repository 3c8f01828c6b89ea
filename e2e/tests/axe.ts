import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * WCAG 2.1 AA (axe-core): the serious and critical violations of what a page shows. Every product screen is checked
 * where it is opened cold (bundle-budget.spec.ts); the public pages and the sweep's extra states in
 * accessibility.spec.ts.
 */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface Finding {
  route: string;
  rule: string;
  impact: string;
  targets: string[];
}

export async function seriousViolations(page: Page, route: string): Promise<Finding[]> {
  // Legacy mode: axe runs in the page and its frames, without opening a blank page to gather the results for each
  // route (what that adds is checking cross-origin frames, and the app has none: the sign-in provider is same-origin).
  const result = await new AxeBuilder({ page }).withTags(WCAG).setLegacyMode().analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      route,
      rule: violation.id,
      impact: violation.impact!,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
}
