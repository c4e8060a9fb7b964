/**
 * The screens, by address: hash history, so the built page works from a file and from the web bridge alike.
 * `meta.title` names the window; `meta.up` is the screen above one a level down (Back and Escape go there
 * when nothing of the app is behind it: see composables/use-history-keys.ts).
 */
import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'

declare module 'vue-router' {
  interface RouteMeta {
    title?: string
    up?: string
  }
}

const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/artists' },
  { path: '/artists', name: 'artists', component: () => import('./views/artists-view.vue'), meta: { title: 'Artists' } },
  { path: '/artists/:username', name: 'artist', component: () => import('./views/artist-view.vue'), props: true, meta: { title: 'Artist', up: '/artists' } },
  { path: '/whats-new', name: 'whats-new', component: () => import('./views/whats-new-view.vue'), meta: { title: "What's new" } },
  { path: '/downloads', name: 'downloads', component: () => import('./views/downloads-view.vue'), meta: { title: 'Downloads' } },
  { path: '/tiers', name: 'tiers', component: () => import('./views/tiers-view.vue'), meta: { title: 'Tiers' } },
  { path: '/settings', name: 'settings', component: () => import('./views/settings-view.vue'), meta: { title: 'Settings' } },
  { path: '/:unknown(.*)*', redirect: '/artists' },
]

export const router = createRouter({ history: createWebHashHistory(), routes })

/**
 * Loads every screen's code, for a window that has just shown its first one: a screen opened later then
 * draws at once, and keys pressed on it are not lost while its code comes (they were, on a loaded machine
 * under `npm run web`). A screen already loaded resolves from the module cache.
 */
export function preloadScreens(): Promise<unknown> {
  const loaders = routes.flatMap((route) => (typeof route.component === 'function' ? [route.component as () => Promise<unknown>] : []))
  return Promise.all(loaders.map((load) => load()))
}

/**
 * A screen whose code could not be fetched (under `npm run web`, the bridge was stopped when the idle
 * preload or the click asked for it): the browser keeps that failed module for the page's life, so
 * no later navigation could draw the screen. Load the page again at that screen instead, as Vite
 * advises for a failed chunk (`vite:preloadError`); the token is in the tab's session storage and
 * the host's snapshot redraws the rest. At most once in 30 s per screen, so a bridge still down cannot
 * make the page reload in a loop.
 */
const CHUNK_FAILURE = /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i
router.onError((error: unknown, to) => {
  if (!(error instanceof Error) || !CHUNK_FAILURE.test(error.message)) return
  const key = `tuneshelf:reloaded-for:${to.fullPath}`
  try {
    if (Date.now() - Number(sessionStorage.getItem(key) ?? 0) < 30_000) return
    sessionStorage.setItem(key, String(Date.now()))
  } catch {
    return
  }
  window.location.hash = to.fullPath
  window.location.reload()
})

// The window's title follows the screen, for the task bar and screen readers.
router.afterEach((to) => {
  document.title = to.meta.title ? `${to.meta.title} · Tuneshelf` : 'Tuneshelf'
})
