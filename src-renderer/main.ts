// First: the API takes the web bridge's token out of the address before the router reads it.
import './api'
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { router } from './router'
import { useSessionStore } from './stores/session'
import './styles/base.css'

const app = createApp(App).use(createPinia()).use(router)
void useSessionStore().start()
app.mount('#app')
