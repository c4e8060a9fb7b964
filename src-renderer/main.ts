// First: the API takes the web bridge's token out of the address before the router reads it.
import { connected } from './api'
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import NotRunning from './components/shell/not-running.vue'
import { preloadScreens, router } from './router'
import { useSessionStore } from './stores/session'
import { useSettingsStore } from './stores/settings'
import './styles/base.css'

if (connected) {
  const app = createApp(App).use(createPinia()).use(router)
  void useSessionStore().start()
  // Made now: it applies the chosen theme from the first snapshot on.
  useSettingsStore()
  app.mount('#app')
  // Once the first screen is up and the window idle: the other screens' code, so that opening one never waits.
  requestIdleCallback(() => void preloadScreens().catch(() => undefined), { timeout: 3000 })
} else {
  // Opened without the app behind it (a saved page, an address without the token): say so, and nothing else.
  createApp(NotRunning).mount('#app')
}
