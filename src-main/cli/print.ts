/**
 * What the CLI prints, and the one way it prints it (`npm run web` writes its
 * lines the same way): the catalogue's names and a service's error messages reach these lines, so each
 * is made printable (shared/text.ts) and no text of theirs can retitle, clear
 * or rewrite the terminal, or write its clipboard. Tables clean their cells
 * the same way (table.ts).
 */
import { printable } from '../core/shared/text'
import { cliIo } from './io'

/** A message on stderr: one line, whatever the text holds. */
export function printMessage(line: string): void {
  cliIo().stderr.write(`${printable(line)}\n`)
}

/** An answer on stdout (a table, an artist's page): its own line breaks kept. */
export function printAnswer(text: string): void {
  cliIo().stdout.write(`${printable(text, { lines: true })}\n`)
}

/**
 * A value as one line of JSON on stdout. JSON.stringify escapes the C0
 * controls but writes DEL, the C1 controls (U+009B is a whole CSI) and the
 * direction overrides as they are: those are escaped too, so the line is the
 * same JSON, and safe on a terminal.
 */
export function printJson(value: unknown): void {
  const json = JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  cliIo().stdout.write(`${json}\n`)
}
