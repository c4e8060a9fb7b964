/** The screens, by address: hash history, so the built page works from a file and from the web bridge alike. */
import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'

const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/artists' },
  { path: '/artists', name: 'artists', component: () => import('./views/artists-view.vue'), meta: { title: 'Artists' } },
  { path: '/artists/:username', name: 'artist', component: () => import('./views/artist-view.vue'), props: true, meta: { title: 'Artist' } },
  { path: '/whats-new', name: 'whats-new', component: () => import('./views/whats-new-view.vue'), meta: { title: "What's new" } },
  { path: '/downloads', name: 'downloads', component: () => import('./views/downloads-view.vue'), meta: { title: 'Downloads' } },
  { path: '/tiers', name: 'tiers', component: () => import('./views/tiers-view.vue'), meta: { title: 'Tiers' } },
  { path: '/settings', name: 'settings', component: () => import('./views/settings-view.vue'), meta: { title: 'Settings' } },
  { path: '/:unknown(.*)*', redirect: '/artists' },
]

export const router = createRouter({ history: createWebHashHistory(), routes })

// The window's title follows the screen, for the task bar and screen readers.
router.afterEach((to) => {
  const title = typeof to.meta['title'] === 'string' ? to.meta['title'] : undefined
  document.title = title ? `${title} · Tuneshelf` : 'Tuneshelf'
})
