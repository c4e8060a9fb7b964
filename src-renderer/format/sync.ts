/** What the screens call a sync's phases: one table for the status bar and Settings alike. */
import type { SyncPhase } from '@shared/types'

const PHASES: Record<SyncPhase, string> = {
  lists: 'Artist lists',
  details: 'Artist details',
  levels: 'Access levels',
  avatars: 'Avatars',
  done: 'Finishing',
}

/** The phase as a label ("Artist lists"); an unknown one (a newer core) as it is named. */
export function syncPhaseLabel(phase: SyncPhase | string): string {
  return PHASES[phase as SyncPhase] ?? phase
}
