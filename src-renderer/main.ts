import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { router } from './router'
import { useSessionStore } from './stores/session'
import './styles/base.css'

const app = createApp(App).use(createPinia()).use(router)
void useSessionStore().start()
app.mount('#app')
