/**
 * Screens the app asks the window to show: a click on a desktop notification ("3 new tracks
 * from Hungry Lucy") brings the window to the front and sends it to What's new.
 */
import { onBeforeUnmount } from 'vue'
import { useRouter } from 'vue-router'
import { useSessionStore } from '../stores/session'

export function useNavigateEvents(): void {
  const router = useRouter()
  const subscription = useSessionStore().onDidEmit((event) => {
    if (event.type === 'navigate') void router.push(event.to)
  })
  onBeforeUnmount(() => subscription.dispose())
}
