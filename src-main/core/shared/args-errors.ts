// What the programs' command lines (the CLI, the demo catalogue) say of a flag they cannot parse.
/**
 * A parseArgs failure (node:util) in the user's terms: Node's own words speak of "<value>",
 * positionals after '--' and ambiguous arguments, where the user mistyped or left out one flag.
 * Anything else is returned as it is.
 */
export function plainArgsError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : ''
  const flag = /'(-[^' <]*)/.exec(message)?.[1]
  if (!flag || typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return error
  const plain = (text: string): Error => Object.assign(new TypeError(text), { code })
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return plain(`unknown option ${flag}`)
  if (/argument missing/.test(message)) return plain(`${flag} needs a value`)
  if (/does not take an argument/.test(message)) return plain(`${flag} takes no value: write ${flag} alone`)
  if (/ambiguous/.test(message)) return plain(`${flag} needs a value; what follows it starts with '-' (write ${flag}=VALUE to pass such a value)`)
  return error
}
