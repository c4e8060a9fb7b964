// Page object for the window's context menus (components/common/context-menu.vue): the open menu,
// its items by label, and where it sits against the window.
import { expect, type Locator, type Page } from '@playwright/test'

export class ContextMenuPage {
  constructor(readonly page: Page) {}

  /** The open menu (there is at most one). */
  get menu(): Locator {
    return this.page.getByRole('menu')
  }

  /** An item by its exact label ("Pause", "Move to top", "Pause (2)"). */
  item(label: string): Locator {
    return this.menu.getByRole('menuitem', { name: label, exact: true })
  }

  /** The labels of the items, in order. */
  async labels(): Promise<string[]> {
    return (await this.menu.getByRole('menuitem').allTextContents()).map((text) => text.trim())
  }

  /** Right-clicks an element (at position, inside it, when given). */
  async openOn(target: Locator, position?: { x: number; y: number }): Promise<void> {
    await target.click({ button: 'right', position })
    await expect(this.menu).toBeVisible()
  }

  /** Chooses an item with the pointer. */
  async choose(label: string): Promise<void> {
    await this.item(label).click()
    await expect(this.menu).toHaveCount(0)
  }

  /** The menu lies wholly inside the window. */
  async expectInsideWindow(): Promise<void> {
    const box = (await this.menu.boundingBox())!
    const size = this.page.viewportSize()!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(size.width)
    expect(box.y + box.height).toBeLessThanOrEqual(size.height)
  }
}
