// Accessibility as axe-core sees it: the serious and critical violations of the page, by rule and element.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** Serious and critical violations on the page as it is now, one line each ("rule: selector"). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // In the page itself (no frames to visit): see ShellPage.seriousViolations.
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`))
}
