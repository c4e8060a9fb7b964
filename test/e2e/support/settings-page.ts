// Page object for the Settings screen.
import type { Locator, Page } from '@playwright/test'

export class SettingsPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Settings' })
  }

  section(name: 'Catalogue service' | 'Sync' | 'Downloads' | 'Appearance' | 'Caches' | 'About'): Locator {
    return this.page.getByRole('region', { name, exact: true })
  }

  // ---- The service

  get currentService(): Locator {
    return this.page.getByTestId('current-service')
  }

  get baseUrl(): Locator {
    return this.page.getByRole('textbox', { name: 'Base URL' })
  }

  get saveBaseUrl(): Locator {
    return this.section('Catalogue service').getByRole('button', { name: /^(Save|Switching…)$/ })
  }

  get useDemo(): Locator {
    return this.page.getByRole('button', { name: 'Use the demo catalogue' })
  }

  /** The line under the base URL that says what is wrong with it. */
  get baseUrlProblem(): Locator {
    return this.page.locator('#settings-base-url-problem')
  }

  /** Types an address and saves it (the spec waits for what the switch shows). */
  async switchTo(baseUrl: string): Promise<void> {
    await this.baseUrl.fill(baseUrl)
    await this.saveBaseUrl.click()
  }

  // ---- Sync

  get syncStatus(): Locator {
    return this.page.getByTestId('settings-sync-status')
  }

  get syncNow(): Locator {
    return this.section('Sync').getByRole('button', { name: 'Sync now' })
  }

  get cancelSync(): Locator {
    return this.section('Sync').getByRole('button', { name: 'Cancel sync' })
  }

  /** The button a "Cancel sync" turns into while it can be taken back, and the one beside it. */
  get keepSyncing(): Locator {
    return this.section('Sync').getByRole('button', { name: 'Keep syncing' })
  }

  get stopSyncNow(): Locator {
    return this.section('Sync').getByRole('button', { name: 'Stop now' })
  }

  /** What a pending "Cancel sync" says: when it stops, and that the next sync resumes. */
  get syncStopping(): Locator {
    return this.page.getByTestId('settings-sync-stopping')
  }

  get syncProgress(): Locator {
    return this.section('Sync').getByRole('progressbar', { name: 'Sync progress' })
  }

  get syncOnStart(): Locator {
    return this.page.getByRole('checkbox', { name: 'Sync when Tuneshelf starts' })
  }

  get syncConcurrency(): Locator {
    return this.page.getByRole('spinbutton', { name: 'Requests at once' })
  }

  // ---- Downloads

  get downloadFolder(): Locator {
    return this.page.getByTestId('download-folder')
  }

  get newDownloadFolder(): Locator {
    return this.page.getByRole('textbox', { name: 'New download folder' })
  }

  get saveDownloadFolder(): Locator {
    return this.section('Downloads').getByRole('button', { name: 'Save', exact: true })
  }

  /** The line under the new download folder that says why it was not taken. */
  get downloadFolderProblem(): Locator {
    return this.page.locator('#settings-download-folder-problem')
  }

  get downloadConcurrency(): Locator {
    return this.page.getByRole('spinbutton', { name: 'Downloads at once' })
  }

  // ---- Appearance

  theme(name: 'System' | 'Light' | 'Dark'): Locator {
    return this.section('Appearance').getByRole('radio', { name: new RegExp(`^${name}`) })
  }

  // ---- Caches

  get cacheRows(): Locator {
    return this.page.getByTestId('cache-row')
  }

  /** The row of a service's cache ('Demo catalogue' or its address). */
  cacheRow(service: string): Locator {
    return this.cacheRows.filter({ hasText: service })
  }

  clearCache(service: string): Locator {
    return this.page.getByRole('button', { name: `Clear the cache of ${service}`, exact: true })
  }

  get confirmDialog(): Locator {
    return this.page.getByRole('dialog')
  }

  // ---- About

  get version(): Locator {
    return this.page.getByTestId('app-version')
  }

  get dataFolder(): Locator {
    return this.page.getByTestId('data-folder')
  }
}
