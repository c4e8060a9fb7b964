/** What a host process writes, passed on a line at a time, the last few kept to say why it ended. */

/** Passes output on a line at a time, keeping the last few for a message about why the host ended. */
export function lastLines(output: (line: string) => void, keep = 5): { add: (chunk: string) => void; last: () => string } {
  let partial = ''
  const last: string[] = []
  return {
    add: (chunk) => {
      partial += chunk
      for (let end = partial.indexOf('\n'); end !== -1; end = partial.indexOf('\n')) {
        const line = partial.slice(0, end)
        partial = partial.slice(end + 1)
        output(line)
        if (line.trim() !== '') last.push(line.trim())
        if (last.length > keep) last.shift()
      }
    },
    last: () => [...last, partial.trim()].filter((line) => line !== '').join(' / ').slice(-500),
  }
}
