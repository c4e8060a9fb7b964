// The window's messages: an error is shown by its cause with its own words, whether it is an Error
// or a core error as it crossed from main (plain JSON), as the session's notices are.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, expect, it } from 'vitest'
import { useNoticesStore } from '../../src-renderer/stores/notices'

beforeEach(() => setActivePinia(createPinia()))

it('shows the message of an Error and of a core error sent as JSON, titled by its cause', () => {
  const notices = useNoticesStore()
  notices.error(new Error('the disk said no'), 'Could not save')
  notices.error({ name: 'InternalError', code: 'internal', message: "Tuneshelf's core stopped unexpectedly; it was restarted", retryable: false })
  notices.error({ code: 'network', message: 'the service cannot be reached' })
  expect(notices.notices.map(({ title, message }) => ({ title, message }))).toEqual([
    { title: 'Could not save: Something went wrong', message: 'the disk said no' },
    { title: 'Something went wrong', message: "Tuneshelf's core stopped unexpectedly; it was restarted" },
    { title: 'The service cannot be reached', message: 'the service cannot be reached' },
  ])
  notices.error({ code: 'cancelled', message: 'cancelled' })
  expect(notices.notices).toHaveLength(3)
})
