/**
 * The CLI's verbs as a user learns them: each one's usage line, what it does,
 * and the flags it takes. The usage of `--help`, the help of `VERB --help`, and
 * the refusal of a flag the verb does not take (it would be silently ignored:
 * `artists --artist NAME` listing every artist) all come from here.
 */
import { InvalidArgumentError } from '../core/shared/errors'
import { SETTING_LIMITS, type LimitedSetting } from '../core/shared/setting-limits'
import { checkBaseUrlFlag } from '../core/startup/command-line'
import type { OPTIONS } from './options'

type Flag = keyof typeof OPTIONS

interface Verb {
  /** The arguments after the verb, as the usage shows them. */
  usage: string
  /** What it does, for `VERB --help`. */
  about: string
  flags: readonly Flag[]
}

function range(setting: LimitedSetting): string {
  return `${SETTING_LIMITS[setting].min} to ${SETTING_LIMITS[setting].max}`
}

/** Flags every verb takes. */
const COMMON: readonly Flag[] = ['data-dir', 'base-url', 'help']

export const VERBS = {
  sync: {
    usage: '--base-url URL --data-dir DIR [--quick] [--concurrency N] [--no-avatars] [--to DIR | --no-download]',
    about:
      'Mirrors the catalogue service of --base-url into the cache of --data-dir (created if missing), or resumes a sync that was stopped; ' +
      'without --base-url, the service synced last into --data-dir is synced again. ' +
      'By default a full refresh (every list in every sort order); --quick is a quick check for new tracks (the recently updated list ' +
      'until it meets the cache, a few requests), or the full refresh while none has completed. ' +
      'A --base-url with a user alone (http://ann@host/) takes the password from TUNESHELF_PASSWORD: one in --base-url shows in ps to other users. ' +
      'Then downloads the new tracks of the artists followed with --auto-download, into the download folder of the settings or --to DIR; ' +
      `--no-download leaves them for later. --concurrency: requests at once (${range('syncConcurrency')}; the setting by default); --no-avatars skips the thumbnails.`,
    flags: ['quick', 'concurrency', 'no-avatars', 'to', 'no-download'],
  },
  artists: {
    usage:
      '--data-dir DIR [--q TEXT] [--podcasts|--musicians] [--sort trending|top|recently_created|recently_updated]\n' +
      '          [--reverse] [--include-blank] [--page N] [--per-page N] [--json] [--base-url URL]',
    about:
      'Lists the artists of the cache, a page at a time, in the order the service gave at the last sync, or those whose names match --q. ' +
      '--include-blank lists the artists without tracks too.',
    flags: ['q', 'podcasts', 'musicians', 'sort', 'reverse', 'include-blank', 'page', 'per-page', 'json'],
  },
  artist: {
    usage: 'USERNAME --data-dir DIR [--json] [--base-url URL]',
    about: "Shows one artist's profile and tracks, with the upload ids that download takes.",
    flags: ['json'],
  },
  levels: {
    usage: '--data-dir DIR [--json] [--base-url URL]',
    about: "Lists the service's access levels, as the last sync stored them.",
    flags: ['json'],
  },
  download: {
    usage: '(UPLOAD_ID... | --artist USERNAME | --held-back) --data-dir DIR [--to DIR] [--concurrency N] [--base-url URL]',
    about:
      'Downloads uploads (by their ids, shown by `artist USERNAME`) or every track of an artist, into the download folder of the settings or --to DIR; ' +
      'or with --held-back, the new tracks that auto-download held back over its limits (tracks and bytes per artist per sync, in the settings). ' +
      `and runs the queue until each file is complete and verified. Run it again to resume an interrupted download. --concurrency: files at once (${range('downloadConcurrency')}).`,
    flags: ['artist', 'held-back', 'to', 'concurrency'],
  },
  downloads: {
    usage: '--data-dir DIR [--json] [--base-url URL]',
    about: 'Lists the download queue, oldest first, and the bytes downloaded by month.',
    flags: ['json'],
  },
  follow: {
    usage: 'USERNAME --data-dir DIR [--auto-download | --no-auto-download] [--base-url URL]',
    about:
      'Follows an artist: a sync then says what it brought them; with --auto-download, their new tracks are downloaded by themselves after each sync, ' +
      'and --no-auto-download turns that off again (an artist followed already keeps the setting it has without either).',
    flags: ['auto-download', 'no-auto-download'],
  },
  unfollow: {
    usage: 'USERNAME --data-dir DIR [--base-url URL]',
    about: 'Stops following an artist.',
    flags: [],
  },
  following: {
    usage: '--data-dir DIR [--json] [--base-url URL]',
    about: 'Lists the artists followed, and whether their new tracks are downloaded by themselves.',
    flags: ['json'],
  },
  'whats-new': {
    usage: '--data-dir DIR [--json] [--base-url URL]',
    about: 'Shows what the last syncs added or changed, the artists followed first; after the first sync alone, the newest uploads.',
    flags: ['json'],
  },
} as const satisfies Record<string, Verb>

export type VerbName = keyof typeof VERBS

export function isVerb(name: string | undefined): name is VerbName {
  return name !== undefined && Object.hasOwn(VERBS, name)
}

const width = Math.max(...Object.keys(VERBS).map((name) => name.length))

/** The usage of every verb, for `--help` and after a usage error that names no verb. */
export const USAGE = `usage: npm run -s cli -- <verb> [options]   (npm run -s cli -- VERB --help: what it does)

${Object.entries(VERBS)
  .map(([name, verb]) => `  ${name.padEnd(width)} ${verb.usage.replaceAll('\n          ', `\n  ${' '.repeat(width)} `)}`)
  .join('\n')}`

/** What --base-url means to every verb but sync, which says it in its own words. */
const OTHER_SERVICE = '--base-url: the service whose cache to use; by default, the one synced last into --data-dir.'

/** The usage line of one verb. */
function usageOf(name: VerbName): string {
  return `usage: npm run -s cli -- ${name} ${VERBS[name].usage.replaceAll('\n          ', `\n  `)}`
}

/** After a usage error of one verb: that verb's usage, and where its help and every verb's are. */
export function verbUsage(name: VerbName): string {
  return `${usageOf(name)}\n(npm run -s cli -- ${name} --help: what it does; npm run -s cli -- --help: every verb)`
}

/** `VERB --help`: its usage and what it does. */
export function verbHelp(name: VerbName): string {
  const verb: Verb = VERBS[name]
  const about = name === 'sync' ? verb.about : `${verb.about} ${OTHER_SERVICE}`
  return `${usageOf(name)}\n\n${wrap(about, 88)}`
}

/** text in lines of at most width characters, broken between words. */
function wrap(text: string, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  return [...lines, line].join('\n')
}

/**
 * Refuses a flag the verb does not take (ignored, it would do something else than what was
 * asked), and a --base-url without its scheme.
 */
export function checkFlags(name: VerbName, given: Record<string, unknown>): void {
  checkBaseUrlFlag(given['base-url'] as string | undefined)
  const verb: Verb = VERBS[name]
  for (const flag of Object.keys(given)) {
    if (given[flag] === undefined || COMMON.includes(flag as Flag) || verb.flags.includes(flag as Flag)) continue
    throw new InvalidArgumentError(`${name} takes no --${flag} (see: npm run -s cli -- ${name} --help)`)
  }
}
