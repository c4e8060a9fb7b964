/**
 * Loaded into `cli sync`'s process (`--import`) by part 1: prints the process's processor time
 * (user + system, every thread) as it exits, the figure a busy machine moves less than wall time.
 */
process.once('exit', () => {
  const cpu = process.cpuUsage()
  process.stderr.write(`bench-cpu ${(cpu.user + cpu.system) / 1e6}\n`)
})
